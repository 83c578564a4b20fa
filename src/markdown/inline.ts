// Markdown's inline content as styled spans: emphasis, strike-through,
// inline code, and links as their text plus a dim URL (the URL a hyperlink
// only where a terminal may be given it: safeLink). The span and row types
// every Markdown module shares. Pure.

import type Token from 'markdown-it/lib/token.mjs';
import type { CodeRef, CodeStyle } from './highlight';
import { type Inert, own, sanitize } from '../protocol/inert';

/** A tab, as Markdown's text and code show it. */
export const TAB = '    ';

export type MdStyle =
  | 'normal'
  | 'bold'
  | 'italic'
  | 'strike'
  | 'code'
  | 'heading'
  | 'heading2'
  | 'heading3'
  | 'link'
  | 'dim'
  | 'quote'
  | CodeStyle;

export interface MdSpan {
  readonly text: Inert;
  readonly style: MdStyle;
  /** A piece of fenced code in a language: coloured when painted (see `coloured`). */
  readonly code?: CodeRef;
  /** The URL the text links to, when it is one a terminal may be given (see safeLink). */
  readonly link?: string;
}

/**
 * How Markdown is drawn beyond its width: `marks` keeps strike-through's ~~ visible (no colour, where SGR 9 may not
 * show).
 */
export interface MdOptions {
  readonly marks?: boolean;
}

/** The longest URL given to the terminal as a hyperlink: some cut or drop longer ones. */
const MAX_LINK = 2048;

/**
 * A link's URL as a terminal may be given it (OSC 8), or undefined: only
 * http(s) and file URLs, no blank or control byte anywhere (one would end
 * the sequence early or start another), other characters percent-encoded.
 */
export function safeLink(href: string | null): string | undefined {
  if (!href || href.length > MAX_LINK || !/^(https?|file):\/\//i.test(href)) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f-\x9f]/.test(href)) return undefined;
  try {
    return href.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  } catch {
    // A lone surrogate has no encoding.
    return undefined;
  }
}

/** `soft`: the row goes on with the line of the row above (a soft wrap), and what stood between them. */
export type MdRow = MdSpan[] & { soft?: string };

/** `spans` as a row made from `from` (a prefix put before it): a soft wrap stays one. */
export function sameLine(spans: MdSpan[], from: MdRow): MdRow {
  const row: MdRow = spans;
  if (from.soft !== undefined) row.soft = from.soft;
  return row;
}

function styleOf(stack: MdStyle[]): MdStyle {
  return stack[stack.length - 1] ?? 'normal';
}

/** Inline tokens as spans; a hard break is a '\n' span. */
export function inlineSpans(inline: Token | undefined, base: MdStyle, options: MdOptions = {}): MdSpan[] {
  const spans = new InlineSpans(base, options);
  for (const t of inline?.children ?? []) spans.take(t);
  return spans.out;
}

/** One inline run being turned into spans: the styles open, and the link being written, if any. */
class InlineSpans {
  readonly out: MdSpan[] = [];
  private readonly stack: MdStyle[];
  private href: string | null = null;
  private link: string | undefined;
  private linkText = '';

  constructor(
    private readonly base: MdStyle,
    private readonly options: MdOptions,
  ) {
    this.stack = [base];
  }

  take(t: Token): void {
    switch (t.type) {
      case 'text':
        this.text(t.content.includes('\t') ? t.content.replace(/\t/g, TAB) : t.content, styleOf(this.stack));
        break;
      case 'code_inline':
        this.text(t.content, 'code');
        break;
      // breaks: true — a single newline in an answer stays a line break.
      case 'softbreak':
      case 'hardbreak':
        this.out.push({ text: own`\n`, style: 'normal' });
        break;
      case 'strong_open':
        this.stack.push(this.base.startsWith('heading') ? this.base : 'bold');
        break;
      case 'em_open':
        this.stack.push('italic');
        break;
      case 's_open':
        this.stack.push('strike');
        if (this.options.marks) this.text('~~', 'strike');
        break;
      case 's_close':
        if (this.options.marks) this.text('~~', 'strike');
        this.stack.pop();
        break;
      case 'link_open':
        this.openLink(t.attrGet('href'));
        break;
      case 'strong_close':
      case 'em_close':
        this.stack.pop();
        break;
      case 'link_close':
        this.closeLink();
        break;
      case 'image':
        this.out.push(
          { text: sanitize(`[image: ${t.content}]`), style: 'dim' },
          { text: sanitize(` (${t.attrGet('src') ?? ''})`), style: 'dim' },
        );
        break;
      default:
        if (t.content) this.text(t.content, styleOf(this.stack));
    }
  }

  private text(content: string, style: MdStyle): void {
    if (this.href !== null) this.linkText += content;
    // Again: markdown-it decodes entities, and &#x202E; is a bidi override however inert its source was.
    const text = sanitize(content);
    this.out.push(this.link === undefined ? { text, style } : { text, style, link: this.link });
  }

  private openLink(href: string | null): void {
    this.stack.push('link');
    this.href = href;
    this.link = safeLink(href);
    this.linkText = '';
  }

  private closeLink(): void {
    this.stack.pop();
    // An autolink's text is its URL: shown once.
    const href = this.href;
    if (href && this.linkText !== href && `mailto:${this.linkText}` !== href) this.text(` (${href})`, 'dim');
    this.href = null;
    this.link = undefined;
  }
}

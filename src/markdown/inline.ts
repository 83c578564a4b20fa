// Markdown's inline content as styled spans: emphasis, strike-through,
// inline code, and links as their text plus a dim URL (the URL a hyperlink
// only where a terminal may be given it: safeLink). The span and row types
// every Markdown module shares. Pure.

import type Token from 'markdown-it/lib/token.mjs';
import type { CodeRef, CodeStyle } from './highlight';

/** A tab, as Markdown's text and code show it. */
export const TAB = '    ';

export type MdStyle = 'normal' | 'bold' | 'italic' | 'strike' | 'code' | 'heading' | 'heading2' | 'heading3' | 'link' | 'dim' | 'quote' | CodeStyle;

export interface MdSpan {
  readonly text: string;
  readonly style: MdStyle;
  /** A piece of fenced code in a language: coloured when painted (see `coloured`). */
  readonly code?: CodeRef;
  /** The URL the text links to, when it is one a terminal may be given (see safeLink). */
  readonly link?: string;
}

/** How Markdown is drawn beyond its width: `marks` keeps strike-through's ~~ visible (no colour, where SGR 9 may not show). */
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

export type MdRow = MdSpan[];

function styleOf(stack: MdStyle[]): MdStyle {
  return stack[stack.length - 1] ?? 'normal';
}

/** Inline tokens as spans; a hard break is a '\n' span. */
export function inlineSpans(inline: Token | undefined, base: MdStyle, options: MdOptions = {}): MdSpan[] {
  const out: MdSpan[] = [];
  const stack: MdStyle[] = [base];
  let href: string | null = null;
  let link: string | undefined;
  let linkText = '';
  const text = (content: string, style: MdStyle): void => {
    if (href !== null) linkText += content;
    out.push(link === undefined ? { text: content, style } : { text: content, style, link });
  };
  for (const t of inline?.children ?? []) {
    switch (t.type) {
      case 'text': text(t.content.includes('\t') ? t.content.replace(/\t/g, TAB) : t.content, styleOf(stack)); break;
      case 'code_inline': text(t.content, 'code'); break;
      // breaks: true — a single newline in an answer stays a line break.
      case 'softbreak': out.push({ text: '\n', style: 'normal' }); break;
      case 'hardbreak': out.push({ text: '\n', style: 'normal' }); break;
      case 'strong_open': stack.push(base.startsWith('heading') ? base : 'bold'); break;
      case 'em_open': stack.push('italic'); break;
      case 's_open':
        stack.push('strike');
        if (options.marks) text('~~', 'strike');
        break;
      case 's_close':
        if (options.marks) text('~~', 'strike');
        stack.pop();
        break;
      case 'link_open':
        stack.push('link');
        href = t.attrGet('href');
        link = safeLink(href);
        linkText = '';
        break;
      case 'strong_close': case 'em_close': stack.pop(); break;
      case 'link_close':
        stack.pop();
        // An autolink's text is its URL: shown once.
        if (href && linkText !== href && `mailto:${linkText}` !== href) text(` (${href})`, 'dim');
        href = null;
        link = undefined;
        break;
      case 'image': out.push({ text: `[image: ${t.content}]`, style: 'dim' }, { text: ` (${t.attrGet('src') ?? ''})`, style: 'dim' }); break;
      default: if (t.content) text(t.content, styleOf(stack));
    }
  }
  return out;
}

// Syntax colours for fenced code, by highlight.js. Colours never change where
// a row breaks, so code is laid out plain and coloured only when a row of it
// is first painted: the library and its grammars load when the first code
// block comes into view, and an answer scrolled past unseen costs nothing.
// highlight.js answers in HTML; that output has one fixed shape (class spans
// and five escapes), read back here into styled pieces whose text is exactly
// the code that went in. Pure.

import { highlighterFor } from './parsers';
import { type Inert, isInert, linesOf, sanitize, sliceInert } from '../protocol/inert';

export type CodeStyle =
  | 'codeBlock'
  | 'codeKeyword'
  | 'codeString'
  | 'codeComment'
  | 'codeNumber'
  | 'codeTitle'
  | 'codeType'
  | 'diffAdd'
  | 'diffDel';

export interface CodeSpan {
  readonly text: Inert;
  readonly style: CodeStyle;
}

const CLASS_STYLE: Record<string, CodeStyle> = {
  keyword: 'codeKeyword',
  literal: 'codeKeyword',
  'selector-tag': 'codeKeyword',
  meta: 'codeKeyword',
  string: 'codeString',
  regexp: 'codeString',
  symbol: 'codeString',
  char: 'codeString',
  template: 'codeString',
  comment: 'codeComment',
  quote: 'codeComment',
  doctag: 'codeComment',
  number: 'codeNumber',
  title: 'codeTitle',
  section: 'codeTitle',
  name: 'codeTitle',
  'selector-id': 'codeTitle',
  'selector-class': 'codeTitle',
  type: 'codeType',
  built_in: 'codeType',
  attr: 'codeType',
  attribute: 'codeType',
  variable: 'codeType',
  addition: 'diffAdd',
  deletion: 'diffDel',
};

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };

function unescape(html: string): string {
  return html.includes('&') ? html.replace(/&(?:amp|lt|gt|quot|#x27);/g, (e) => ENTITIES[e]) : html;
}

/**
 * Blocks past these sizes are shown plain: highlight.js has no time limit,
 * and some grammars grow worse than linearly on hostile input (a Markdown
 * fence of `[` took 13 s at 100 KB), all of it on the thread that reads keys.
 */
const MAX_HIGHLIGHT_CHARS = 20_000;
const MAX_HIGHLIGHT_LINE = 1_000;

function tooLargeToHighlight(code: string): boolean {
  if (code.length > MAX_HIGHLIGHT_CHARS) return true;
  for (let from = 0; from < code.length;) {
    const nl = code.indexOf('\n', from);
    const end = nl === -1 ? code.length : nl;
    if (end - from > MAX_HIGHLIGHT_LINE) return true;
    from = end + 1;
  }
  return false;
}

/**
 * The code's lines as styled pieces, or null for a language milk does not
 * know or a block too large to highlight on the keystroke thread. Joined, each line's pieces are exactly that line of
 * `code`.
 */
export function highlightLines(code: Inert, lang: string): CodeSpan[][] | null {
  const hljs = lang && !tooLargeToHighlight(code) ? highlighterFor(lang) : null;
  if (!hljs) return null;
  const html = hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  const lines: CodeSpan[][] = [[]];
  const stack: CodeStyle[] = ['codeBlock'];
  const put = (text: string): void => {
    const style = stack[stack.length - 1];
    const parts = text.split('\n');
    parts.forEach((part, k) => {
      if (k > 0) lines.push([]);
      // Pieces of inert code are inert, unless a grammar cut a pair in two.
      if (part) lines[lines.length - 1].push({ text: isInert(part) ? part : sanitize(part), style });
    });
  };
  const tag = /<span class="([^"]*)">|<\/span>/g;
  let at = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    if (m.index > at) put(unescape(html.slice(at, m.index)));
    at = tag.lastIndex;
    if (m[1] === undefined) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    // "hljs-title function_": the first class names the kind; an unlisted kind keeps the colour around it.
    const kind = m[1].split(' ')[0].replace(/^hljs-/, '');
    stack.push(CLASS_STYLE[kind] ?? stack[stack.length - 1]);
  }
  if (at < html.length) put(unescape(html.slice(at)));
  return lines;
}

/** A fenced block whose colours are worked out the first time any row of it is painted. */
export class LazyCode {
  private lines: CodeSpan[][] | undefined;

  constructor(
    private readonly code: Inert,
    private readonly lang: string,
  ) {}

  /** The styled pieces of `line` between string offsets `from` and `to`. */
  slice(line: number, from: number, to: number): CodeSpan[] {
    // A language milk does not colour: its lines as they are.
    this.lines ??=
      highlightLines(this.code, this.lang) ?? linesOf(this.code).map((text) => [{ text, style: 'codeBlock' as const }]);
    const spans = this.lines[line] ?? [];
    const out: CodeSpan[] = [];
    let at = 0;
    for (const span of spans) {
      const end = at + span.text.length;
      if (end > from && at < to)
        out.push({ text: sliceInert(span.text, Math.max(0, from - at), to - at), style: span.style });
      at = end;
    }
    return out;
  }
}

/** Where a row's code sits in its block: which line, and which part of it. */
export interface CodeRef {
  readonly block: LazyCode;
  readonly line: number;
  readonly from: number;
  readonly to: number;
}

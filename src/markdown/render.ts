// Renders Markdown (parsed by markdown-it) into rows of styled spans at a
// width: headings, emphasis, inline code, links as text plus a dim URL,
// quotes, nested lists, rules, fenced code kept verbatim behind a bar with
// its language named, and tables aligned by display width (a table too wide
// for the screen becomes one "header: value" line per cell). Each top-level
// block renders on its own, which is what lets a stream re-render only the
// block still growing. Text arrives sanitized; nothing here reaches the
// terminal but plain characters. Pure.

import type Token from 'markdown-it/lib/token.mjs';
import { EmojiWidths, graphemes, graphemeWidth, stringWidth } from '../editor/width';
import { wrapSpans } from './wrap';
import { CodeRef, CodeStyle, LazyCode } from './highlight';
import { markdown } from './parsers';
import { maxOf, pushAll } from '../arrays';

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

/** A token of milk's own, standing for a table still streaming: its content is the line that counts its rows. */
export const HELD_TABLE = 'milk_held_table';

const TAB = '    ';

/** Where each top-level block of a token stream starts: a run of tokens from a level-0 opener to its closer. */
export function blockStarts(tokens: readonly Token[]): number[] {
  const starts: number[] = [];
  let open = true;
  tokens.forEach((t, i) => {
    if (open) starts.push(i);
    open = t.level === 0 && t.nesting <= 0;
  });
  return starts;
}

// ---------------------------------------------------------------- inline

function styleOf(stack: MdStyle[]): MdStyle {
  return stack[stack.length - 1] ?? 'normal';
}

/** Inline tokens as spans; a hard break is a '\n' span. */
function inlineSpans(inline: Token | undefined, base: MdStyle, options: MdOptions = {}): MdSpan[] {
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

// ---------------------------------------------------------------- blocks

function prefixed(rows: MdRow[], first: MdSpan, rest: MdSpan): MdRow[] {
  return rows.map((r, i) => [i === 0 ? first : rest, ...r]);
}

function codeRows(content: string, lang: string, width: number, emoji: EmojiWidths): MdRow[] {
  const bar: MdSpan = { text: '▎ ', style: 'dim' };
  const inner = Math.max(1, width - 2);
  const rows: MdRow[] = [[{ text: lang ? `▎ ${lang}` : '▎', style: 'dim' }]];
  const code = content.replace(/\n$/, '').replace(/\t/g, TAB);
  const block = lang ? new LazyCode(code, lang) : null;
  const piece = (text: string, line: number, from: number): MdSpan =>
    block ? { text, style: 'codeBlock', code: { block, line, from, to: from + text.length } } : { text, style: 'codeBlock' };
  code.split('\n').forEach((text, line) => {
    if (stringWidth(text, emoji) <= inner) {
      rows.push([bar, piece(text, line, 0)]);
      return;
    }
    // Verbatim: a line too long for the screen continues on the next row, cut between characters.
    let from = 0;
    let at = 0;
    let used = 0;
    let lead = bar;
    for (const g of graphemes(text)) {
      const gw = graphemeWidth(g, emoji);
      if (used + gw > inner) {
        rows.push([lead, piece(text.slice(from, at), line, from)]);
        lead = { text: '↳ ', style: 'dim' };
        from = at;
        used = 0;
      }
      at += g.length;
      used += gw;
    }
    rows.push([lead, piece(text.slice(from), line, from)]);
  });
  return rows;
}

/** A row with its code coloured: each span of a fenced block replaced by its highlighted pieces. */
export function coloured(row: readonly MdSpan[]): MdSpan[] {
  if (!row.some((s) => s.code)) return row as MdSpan[];
  return row.flatMap((s): MdSpan[] => (s.code ? s.code.block.slice(s.code.line, s.code.from, s.code.to) : [s]));
}

type Align = 'left' | 'right' | 'center';
interface Cell { spans: MdSpan[]; align: Align }

function plain(spans: readonly MdSpan[]): string {
  return spans.map((s) => s.text).join('').replace(/\n/g, ' ');
}

/** The narrowest a column is drawn before the table gives up on a grid: a long word is cut inside it past this. */
const MIN_COLUMN = 16;

/**
 * Column widths for a table: each column's natural width (its widest cell)
 * when they all fit; otherwise each starts at its minimum (its longest word,
 * between 3 and MIN_COLUMN, never more than its natural width) and the room
 * left is shared out, a column taking no more than its natural width. Null
 * when even the minimums do not fit.
 */
export function columnWidths(natural: readonly number[], longestWord: readonly number[], room: number): number[] | null {
  if (natural.reduce((a, b) => a + b, 0) <= room) return [...natural];
  const widths = natural.map((n, c) => Math.min(n, Math.max(3, Math.min(MIN_COLUMN, longestWord[c]))));
  let extra = room - widths.reduce((a, b) => a + b, 0);
  if (extra < 0) return null;
  let open = widths.map((_, c) => c).filter((c) => widths[c] < natural[c]);
  while (extra > 0 && open.length > 0) {
    const share = Math.max(1, Math.floor(extra / open.length));
    for (const c of open) {
      const give = Math.min(share, natural[c] - widths[c], extra);
      widths[c] += give;
      extra -= give;
    }
    open = open.filter((c) => widths[c] < natural[c]);
  }
  return widths;
}

function tableGrid(tokens: readonly Token[], options: MdOptions): { grid: Cell[][]; header: number } {
  const grid: Cell[][] = [];
  let row: Cell[] = [];
  let header = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'tr_open') row = [];
    else if (t.type === 'tr_close') grid.push(row);
    else if (t.type === 'thead_close') header = grid.length;
    else if (t.type === 'th_open' || t.type === 'td_open') {
      const style = t.attrGet('style') ?? '';
      const align: Align = style.includes('right') ? 'right' : style.includes('center') ? 'center' : 'left';
      row.push({ spans: inlineSpans(tokens[i + 1], 'normal', options).map((sp) => (sp.text === '\n' ? { ...sp, text: ' ' } : sp)), align });
    }
  }
  return { grid, header };
}

/** One cell's rows at its column's width, each padded to it as the column is aligned. */
function cellRows(cell: Cell | undefined, w: number, bold: boolean, emoji: EmojiWidths): MdRow[] {
  const spans = (cell?.spans ?? []).map((sp) => (bold && sp.style === 'normal' ? { ...sp, style: 'bold' as const } : sp));
  return wrapSpans(spans, w, emoji).map((r) => {
    const gap = w - stringWidth(plain(r), emoji);
    if (gap <= 0) return r;
    const pad = (n: number): MdSpan[] => (n > 0 ? [{ text: ' '.repeat(n), style: 'normal' }] : []);
    if (cell?.align === 'right') return [...pad(gap), ...r];
    if (cell?.align === 'center') return [...pad(Math.floor(gap / 2)), ...r, ...pad(gap - Math.floor(gap / 2))];
    return [...r, ...pad(gap)];
  });
}

/**
 * A table as a grid: columns as wide as their content allows, long cells
 * wrapped inside their column, a rule under the header. Only when even the
 * narrowest columns cannot fit does each row become "header: value" lines.
 */
function tableRows(tokens: readonly Token[], width: number, emoji: EmojiWidths, options: MdOptions): MdRow[] {
  const { grid, header } = tableGrid(tokens, options);
  const cols = maxOf(grid.map((r) => r.length), 0);
  const texts = grid.map((r) => r.map((cell) => plain(cell.spans)));
  const natural = Array.from({ length: cols }, (_, c) => Math.max(1, maxOf(texts.map((r) => stringWidth(r[c] ?? '', emoji)))));
  const longestWord = Array.from({ length: cols }, (_, c) => maxOf(texts.map((r) => maxOf((r[c] ?? '').split(' ').map((w) => stringWidth(w, emoji)), 0)), 1));
  const widths = columnWidths(natural, longestWord, width - 3 * (cols - 1));
  if (!widths) {
    // Too wide for a grid: each row as "header: value" lines, readable at any width.
    const heads = grid[0] ?? [];
    const out: MdRow[] = [];
    grid.slice(header || 1).forEach((r, k) => {
      if (k > 0) out.push([]);
      r.forEach((cell, c) => pushAll(out, wrapSpans([{ text: `${heads[c] ? plain(heads[c].spans) : c + 1}: `, style: 'bold' }, ...cell.spans], width, emoji)));
    });
    return out;
  }
  const laid = grid.map((r, k) => widths.map((w, c) => cellRows(r[c], w, k < header, emoji)));
  // Where a cell takes more than one line, a rule between rows shows where each ends.
  const ruled = laid.some((cells) => cells.some((rows) => rows.length > 1));
  const rule: MdRow = [{ text: widths.map((w) => '─'.repeat(w)).join('─┼─'), style: 'dim' }];
  const out: MdRow[] = [];
  laid.forEach((cells, k) => {
    if (ruled && k > header && k > 0) out.push(rule);
    const height = maxOf(cells.map((rows) => rows.length), 1);
    for (let line = 0; line < height; line++) {
      const spans: MdRow = [];
      widths.forEach((w, c) => {
        if (c > 0) spans.push({ text: ' │ ', style: 'dim' });
        pushAll(spans, cells[c][line] ?? [{ text: ' '.repeat(w), style: 'normal' }]);
      });
      out.push(spans);
    }
    if (k === header - 1) out.push(rule);
  });
  return out;
}

/** A heading: h1 over a double rule, h2 bold, h3 and below bold italic (see the theme): apart with or without colour. */
function headingRows(level: number, inline: Token | undefined, width: number, emoji: EmojiWidths, options: MdOptions): MdRow[] {
  const style: MdStyle = level === 1 ? 'heading' : level === 2 ? 'heading2' : 'heading3';
  const rows = wrapSpans(inlineSpans(inline, style, options), width, emoji);
  if (level > 1) return rows;
  return [...rows, [{ text: '═'.repeat(Math.min(width, maxOf(rows.map((r) => stringWidth(plain(r), emoji)), 0))), style: 'dim' }]];
}

/** Renders the block tokens from `i` up to its closer at the same level; returns rows and the index after it. */
function renderBlock(tokens: readonly Token[], i: number, width: number, emoji: EmojiWidths, options: MdOptions): { rows: MdRow[]; next: number } {
  const t = tokens[i];
  const closeAt = (from: number): number => {
    let depth = 0;
    for (let k = from; k < tokens.length; k++) {
      depth += tokens[k].nesting;
      if (depth === 0) return k;
    }
    return tokens.length - 1;
  };
  switch (t.type) {
    case 'paragraph_open':
      return { rows: wrapSpans(inlineSpans(tokens[i + 1], 'normal', options), width, emoji), next: closeAt(i) + 1 };
    case 'heading_open':
      return { rows: headingRows(Number(t.tag.slice(1)), tokens[i + 1], width, emoji, options), next: closeAt(i) + 1 };
    case 'fence':
    case 'code_block':
      return { rows: codeRows(t.content, t.info.trim().split(/\s+/)[0] ?? '', width, emoji), next: i + 1 };
    case 'hr':
      return { rows: [[{ text: '─'.repeat(Math.max(1, width)), style: 'dim' }]], next: i + 1 };
    case 'blockquote_open': {
      const end = closeAt(i);
      const inner = renderBlocks(tokens.slice(i + 1, end), width - 2, emoji, false, options);
      return { rows: inner.map((r) => [{ text: '│ ', style: 'quote' }, ...r.map((s) => ({ ...s, style: s.style === 'normal' ? 'quote' as const : s.style }))]), next: end + 1 };
    }
    case 'bullet_list_open':
    case 'ordered_list_open': {
      const end = closeAt(i);
      const rows: MdRow[] = [];
      let n = Number(t.attrGet('start') ?? 1);
      let tight = false;
      for (let k = i; k < end && !tight; k++) tight = tokens[k].type === 'paragraph_open' && tokens[k].hidden;
      for (let k = i + 1; k < end;) {
        const itemEnd = closeAt(k);
        const marker = t.type === 'bullet_list_open' ? '• ' : `${n++}. `;
        const mw = stringWidth(marker, emoji);
        const inner = renderBlocks(tokens.slice(k + 1, itemEnd), width - mw, emoji, tight, options);
        if (!tight && rows.length) rows.push([]);
        pushAll(rows, prefixed(inner.length ? inner : [[]], { text: marker, style: 'dim' }, { text: ' '.repeat(mw), style: 'normal' }));
        k = itemEnd + 1;
      }
      return { rows, next: end + 1 };
    }
    case 'table_open': {
      const end = closeAt(i);
      return { rows: tableRows(tokens.slice(i, end + 1), width, emoji, options), next: end + 1 };
    }
    case HELD_TABLE:
      return { rows: wrapSpans([{ text: t.content, style: 'dim' }], width, emoji), next: i + 1 };
    default:
      return { rows: t.content ? wrapSpans([{ text: t.content, style: 'normal' }], width, emoji) : [], next: t.nesting === 1 ? closeAt(i) + 1 : i + 1 };
  }
}

/** Renders a run of sibling blocks, a blank row between them (none inside a tight list). */
export function renderBlocks(tokens: readonly Token[], width: number, emoji: EmojiWidths, tight = false, options: MdOptions = {}): MdRow[] {
  const rows: MdRow[] = [];
  for (let i = 0; i < tokens.length;) {
    const { rows: block, next } = renderBlock(tokens, i, Math.max(1, width), emoji, options);
    if (block.length) {
      if (rows.length && !tight) rows.push([]);
      pushAll(rows, block);
    }
    i = next;
  }
  return rows;
}

/** Renders a whole document. */
export function renderMarkdown(src: string, width: number, emoji: EmojiWidths, options: MdOptions = {}): MdRow[] {
  return renderBlocks(markdown().parse(src, {}), width, emoji, false, options);
}

/** A little of every construct, for the warm-ups before the first answer: V8 compiles the parser's, the renderer's and the highlighter's paths then, not on the answer's first frames. */
export const WARM_SAMPLE = ['',
  '# A heading', '', 'Some **bold**, *italic*, ~~struck~~, `code` and [a link](https://example.com).', '',
  '## Lists', '', '- one', '- two', '  1. nested', '', '> a quote', '',
  '```ts', 'export function step(rows: readonly string[], width: number): string[] {', '  const out: string[] = [];',
  '  for (const row of rows) if (row.length <= width) out.push(row); // kept', '  return out;', '}', '```', '',
  '| a | b |', '|---|--:|', '| 1 | 2 |', '', '---', '', 'The end.', '',
].join('\n');

/** Renders WARM_SAMPLE a few times over (and throws the rows away): enough calls for V8 to optimize the hot paths, not only compile them. */
export function warmRender(emoji: EmojiWidths): void {
  renderMarkdown(WARM_SAMPLE.repeat(8), 80, emoji);
}

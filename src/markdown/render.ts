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

export type MdStyle = 'normal' | 'bold' | 'italic' | 'strike' | 'code' | 'heading' | 'link' | 'dim' | 'quote' | CodeStyle;

export interface MdSpan {
  readonly text: string;
  readonly style: MdStyle;
  /** A piece of fenced code in a language: coloured when painted (see `coloured`). */
  readonly code?: CodeRef;
}

export type MdRow = MdSpan[];

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
function inlineSpans(inline: Token | undefined, base: MdStyle): MdSpan[] {
  const out: MdSpan[] = [];
  const stack: MdStyle[] = [base];
  let href: string | null = null;
  for (const t of inline?.children ?? []) {
    switch (t.type) {
      case 'text': out.push({ text: t.content.includes('\t') ? t.content.replace(/\t/g, TAB) : t.content, style: styleOf(stack) }); break;
      case 'code_inline': out.push({ text: t.content, style: 'code' }); break;
      // breaks: true — a single newline in an answer stays a line break.
      case 'softbreak': out.push({ text: '\n', style: 'normal' }); break;
      case 'hardbreak': out.push({ text: '\n', style: 'normal' }); break;
      case 'strong_open': stack.push(base === 'heading' ? 'heading' : 'bold'); break;
      case 'em_open': stack.push('italic'); break;
      case 's_open': stack.push('strike'); break;
      case 'link_open': stack.push('link'); href = t.attrGet('href'); break;
      case 'strong_close': case 'em_close': case 's_close': stack.pop(); break;
      case 'link_close':
        stack.pop();
        if (href) out.push({ text: ` (${href})`, style: 'dim' });
        href = null;
        break;
      case 'image': out.push({ text: `[image: ${t.content}]`, style: 'dim' }, { text: ` (${t.attrGet('src') ?? ''})`, style: 'dim' }); break;
      default: if (t.content) out.push({ text: t.content, style: styleOf(stack) });
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

interface Cell { text: string; align: 'left' | 'right' | 'center' }

function plain(spans: readonly MdSpan[]): string {
  return spans.map((s) => s.text).join('').replace(/\n/g, ' ');
}

function tableRows(tokens: readonly Token[], width: number, emoji: EmojiWidths): MdRow[] {
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
      const align = style.includes('right') ? 'right' : style.includes('center') ? 'center' : 'left';
      row.push({ text: plain(inlineSpans(tokens[i + 1], 'normal')), align });
    }
  }
  const cols = maxOf(grid.map((r) => r.length), 0);
  const widths = Array.from({ length: cols }, (_, c) => Math.max(1, maxOf(grid.map((r) => stringWidth(r[c]?.text ?? '', emoji)))));
  const total = widths.reduce((a, b) => a + b, 0) + 3 * (cols - 1);
  if (total > width) {
    // Too wide to align: each row as "header: value" lines, readable at any width.
    const heads = grid[0] ?? [];
    const out: MdRow[] = [];
    grid.slice(header || 1).forEach((r, k) => {
      if (k > 0) out.push([]);
      r.forEach((cell, c) => pushAll(out, wrapSpans([{ text: `${heads[c]?.text ?? c + 1}: `, style: 'bold' }, { text: cell.text, style: 'normal' }], width, emoji)));
    });
    return out;
  }
  const pad = (cell: Cell | undefined, w: number): string => {
    const text = cell?.text ?? '';
    const gap = w - stringWidth(text, emoji);
    if (cell?.align === 'right') return ' '.repeat(gap) + text;
    if (cell?.align === 'center') return ' '.repeat(Math.floor(gap / 2)) + text + ' '.repeat(gap - Math.floor(gap / 2));
    return text + ' '.repeat(gap);
  };
  const out: MdRow[] = [];
  grid.forEach((r, k) => {
    const spans: MdRow = [];
    widths.forEach((w, c) => {
      if (c > 0) spans.push({ text: ' │ ', style: 'dim' });
      spans.push({ text: pad(r[c], w), style: k < header ? 'bold' : 'normal' });
    });
    out.push(spans);
    if (k === header - 1) out.push([{ text: widths.map((w) => '─'.repeat(w)).join('─┼─'), style: 'dim' }]);
  });
  return out;
}

/** Renders the block tokens from `i` up to its closer at the same level; returns rows and the index after it. */
function renderBlock(tokens: readonly Token[], i: number, width: number, emoji: EmojiWidths): { rows: MdRow[]; next: number } {
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
      return { rows: wrapSpans(inlineSpans(tokens[i + 1], 'normal'), width, emoji), next: closeAt(i) + 1 };
    case 'heading_open': {
      const level = Number(t.tag.slice(1));
      const rows = wrapSpans(inlineSpans(tokens[i + 1], 'heading'), width, emoji);
      return { rows: level === 1 ? [...rows, [{ text: '═'.repeat(Math.min(width, maxOf(rows.map((r) => stringWidth(plain(r), emoji)), 0))), style: 'dim' }]] : rows, next: closeAt(i) + 1 };
    }
    case 'fence':
    case 'code_block':
      return { rows: codeRows(t.content, t.info.trim().split(/\s+/)[0] ?? '', width, emoji), next: i + 1 };
    case 'hr':
      return { rows: [[{ text: '─'.repeat(Math.max(1, width)), style: 'dim' }]], next: i + 1 };
    case 'blockquote_open': {
      const end = closeAt(i);
      const inner = renderBlocks(tokens.slice(i + 1, end), width - 2, emoji);
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
        const inner = renderBlocks(tokens.slice(k + 1, itemEnd), width - mw, emoji, tight);
        if (!tight && rows.length) rows.push([]);
        pushAll(rows, prefixed(inner.length ? inner : [[]], { text: marker, style: 'dim' }, { text: ' '.repeat(mw), style: 'normal' }));
        k = itemEnd + 1;
      }
      return { rows, next: end + 1 };
    }
    case 'table_open': {
      const end = closeAt(i);
      return { rows: tableRows(tokens.slice(i, end + 1), width, emoji), next: end + 1 };
    }
    default:
      return { rows: t.content ? wrapSpans([{ text: t.content, style: 'normal' }], width, emoji) : [], next: t.nesting === 1 ? closeAt(i) + 1 : i + 1 };
  }
}

/** Renders a run of sibling blocks, a blank row between them (none inside a tight list). */
export function renderBlocks(tokens: readonly Token[], width: number, emoji: EmojiWidths, tight = false): MdRow[] {
  const rows: MdRow[] = [];
  for (let i = 0; i < tokens.length;) {
    const { rows: block, next } = renderBlock(tokens, i, Math.max(1, width), emoji);
    if (block.length) {
      if (rows.length && !tight) rows.push([]);
      pushAll(rows, block);
    }
    i = next;
  }
  return rows;
}

/** Renders a whole document. */
export function renderMarkdown(src: string, width: number, emoji: EmojiWidths): MdRow[] {
  return renderBlocks(markdown().parse(src, {}), width, emoji);
}

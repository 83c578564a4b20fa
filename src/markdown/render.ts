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
import { LazyCode } from './highlight';
import { markdown } from './parsers';
import { maxOf, pushAll } from '../kernel/arrays';
import { MdOptions, MdRow, MdSpan, MdStyle, TAB, inlineSpans, sameLine } from './inline';
import { plain, tableRows } from './table';
import { type Inert, linesOf, own, repeatInert, sanitize, sliceInert, spaces } from '../protocol/inert';

/** A token of milk's own, standing for a table still streaming: its content is the line that counts its rows. */
export const HELD_TABLE = 'milk_held_table';

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

// ---------------------------------------------------------------- blocks

function prefixed(rows: MdRow[], first: MdSpan, rest: MdSpan): MdRow[] {
  return rows.map((r, i) => sameLine([i === 0 ? first : rest, ...r], r));
}

function codeRows(content: string, lang: string, width: number, emoji: EmojiWidths): MdRow[] {
  const bar: MdSpan = { text: own`▎ `, style: 'dim' };
  const inner = Math.max(1, width - 2);
  const rows: MdRow[] = [[{ text: lang ? sanitize(`▎ ${lang}`) : own`▎`, style: 'dim' }]];
  const code = sanitize(content.replace(/\n$/, '').replace(/\t/g, TAB));
  const block = lang ? new LazyCode(code, lang) : null;
  const piece = (text: Inert, line: number, from: number): MdSpan =>
    block
      ? { text, style: 'codeBlock', code: { block, line, from, to: from + text.length } }
      : { text, style: 'codeBlock' };
  linesOf(code).forEach((text, line) => {
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
        rows.push([lead, piece(sliceInert(text, from, at), line, from)]);
        lead = { text: own`↳ `, style: 'dim' };
        from = at;
        used = 0;
      }
      at += g.length;
      used += gw;
    }
    rows.push([lead, piece(sliceInert(text, from), line, from)]);
  });
  return rows;
}

/** A row with its code coloured: each span of a fenced block replaced by its highlighted pieces. */
export function coloured(row: readonly MdSpan[]): MdSpan[] {
  if (!row.some((s) => s.code)) return row as MdSpan[];
  return row.flatMap((s): MdSpan[] => (s.code ? s.code.block.slice(s.code.line, s.code.from, s.code.to) : [s]));
}

/**
 * A heading: h1 over a double rule, h2 bold, h3 and below bold italic (see the theme): apart with or without colour.
 */
function headingRows(
  level: number,
  inline: Token | undefined,
  width: number,
  emoji: EmojiWidths,
  options: MdOptions,
): MdRow[] {
  const style: MdStyle = level === 1 ? 'heading' : level === 2 ? 'heading2' : 'heading3';
  const rows = wrapSpans(inlineSpans(inline, style, options), width, emoji);
  if (level > 1) return rows;
  return [
    ...rows,
    [
      {
        text: repeatInert(
          own`═`,
          Math.min(
            width,
            maxOf(
              rows.map((r) => stringWidth(plain(r), emoji)),
              0,
            ),
          ),
        ),
        style: 'dim',
      },
    ],
  ];
}

/** The index of the token that closes the one at `from` (the last token when none does). */
function closerOf(tokens: readonly Token[], from: number): number {
  let depth = 0;
  for (let k = from; k < tokens.length; k++) {
    depth += tokens[k].nesting;
    if (depth === 0) return k;
  }
  return tokens.length - 1;
}

/** A list from its opener at `i` to its closer at `end`: each item under its marker, blank rows between loose items. */
function listRows(
  tokens: readonly Token[],
  i: number,
  end: number,
  width: number,
  emoji: EmojiWidths,
  options: MdOptions,
): MdRow[] {
  const rows: MdRow[] = [];
  const bullet = tokens[i].type === 'bullet_list_open';
  let n = Number(tokens[i].attrGet('start') ?? 1);
  let tight = false;
  for (let k = i; k < end && !tight; k++) tight = tokens[k].type === 'paragraph_open' && tokens[k].hidden;
  for (let k = i + 1; k < end;) {
    const itemEnd = closerOf(tokens, k);
    const marker = bullet ? own`• ` : own`${n++}. `;
    const mw = stringWidth(marker, emoji);
    const inner = renderBlocks(tokens.slice(k + 1, itemEnd), width - mw, emoji, tight, options);
    if (!tight && rows.length) rows.push([]);
    const indent = { text: spaces(mw), style: 'normal' as const };
    pushAll(rows, prefixed(inner.length ? inner : [[]], { text: marker, style: 'dim' }, indent));
    k = itemEnd + 1;
  }
  return rows;
}

/** Renders the block tokens from `i` up to its closer at the same level; returns rows and the index after it. */
function renderBlock(
  tokens: readonly Token[],
  i: number,
  width: number,
  emoji: EmojiWidths,
  options: MdOptions,
): { rows: MdRow[]; next: number } {
  const t = tokens[i];
  const closeAt = (from: number): number => closerOf(tokens, from);
  switch (t.type) {
    case 'paragraph_open':
      return { rows: wrapSpans(inlineSpans(tokens[i + 1], 'normal', options), width, emoji), next: closeAt(i) + 1 };
    case 'heading_open':
      return { rows: headingRows(Number(t.tag.slice(1)), tokens[i + 1], width, emoji, options), next: closeAt(i) + 1 };
    case 'fence':
    case 'code_block':
      return { rows: codeRows(t.content, t.info.trim().split(/\s+/)[0] ?? '', width, emoji), next: i + 1 };
    case 'hr':
      return { rows: [[{ text: repeatInert(own`─`, Math.max(1, width)), style: 'dim' }]], next: i + 1 };
    case 'blockquote_open': {
      const end = closeAt(i);
      const inner = renderBlocks(tokens.slice(i + 1, end), width - 2, emoji, false, options);
      return {
        rows: inner.map((r) =>
          sameLine(
            [
              { text: own`│ `, style: 'quote' },
              ...r.map((s) => ({ ...s, style: s.style === 'normal' ? ('quote' as const) : s.style })),
            ],
            r,
          ),
        ),
        next: end + 1,
      };
    }
    case 'bullet_list_open':
    case 'ordered_list_open': {
      const end = closeAt(i);
      return { rows: listRows(tokens, i, end, width, emoji, options), next: end + 1 };
    }
    case 'table_open': {
      const end = closeAt(i);
      return { rows: tableRows(tokens.slice(i, end + 1), width, emoji, options), next: end + 1 };
    }
    case HELD_TABLE:
      return { rows: wrapSpans([{ text: sanitize(t.content), style: 'dim' }], width, emoji), next: i + 1 };
    default:
      return {
        rows: t.content ? wrapSpans([{ text: sanitize(t.content), style: 'normal' }], width, emoji) : [],
        next: t.nesting === 1 ? closeAt(i) + 1 : i + 1,
      };
  }
}

/** Renders a run of sibling blocks, a blank row between them (none inside a tight list). */
export function renderBlocks(
  tokens: readonly Token[],
  width: number,
  emoji: EmojiWidths,
  tight = false,
  options: MdOptions = {},
): MdRow[] {
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

/**
 * A little of every construct, for the warm-ups before the first answer: V8 compiles the parser's, the renderer's and
 * the highlighter's paths then, not on the answer's first frames.
 */
export const WARM_SAMPLE = [
  '',
  '# A heading',
  '',
  'Some **bold**, *italic*, ~~struck~~, `code` and [a link](https://example.com).',
  '',
  '## Lists',
  '',
  '- one',
  '- two',
  '  1. nested',
  '',
  '> a quote',
  '',
  '```ts',
  'export function step(rows: readonly string[], width: number): string[] {',
  '  const out: string[] = [];',
  '  for (const row of rows) if (row.length <= width) out.push(row); // kept',
  '  return out;',
  '}',
  '```',
  '',
  '| a | b |',
  '|---|--:|',
  '| 1 | 2 |',
  '',
  '---',
  '',
  'The end.',
  '',
].join('\n');

/**
 * Renders WARM_SAMPLE a few times over (and throws the rows away): enough calls for V8 to optimize the hot paths, not
 * only compile them.
 */
export function warmRender(emoji: EmojiWidths): void {
  renderMarkdown(WARM_SAMPLE.repeat(8), 80, emoji);
}

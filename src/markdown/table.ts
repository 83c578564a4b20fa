// A Markdown table as rows: columns aligned by display width, cells wrapped
// within their column, and a table too wide for the screen one "header:
// value" line per cell. Pure.

import type Token from 'markdown-it/lib/token.mjs';
import { EmojiWidths, stringWidth } from '../editor/width';
import { MdOptions, MdRow, MdSpan, inlineSpans } from './inline';
import { wrapSpans } from './wrap';
import { maxOf, pushAll } from '../kernel/arrays';
import { EMPTY, type Inert, joinInert, own, repeatInert, sanitize, spaces } from '../protocol/inert';

type Align = 'left' | 'right' | 'center';
interface Cell {
  spans: MdSpan[];
  align: Align;
}

export function plain(spans: readonly MdSpan[]): Inert {
  return joinInert(
    spans.map((s) => (s.text.includes('\n') ? sanitize(s.text.replace(/\n/g, ' ')) : s.text)),
    EMPTY,
  );
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
export function columnWidths(
  natural: readonly number[],
  longestWord: readonly number[],
  room: number,
): number[] | null {
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
      row.push({
        spans: inlineSpans(tokens[i + 1], 'normal', options).map((sp) =>
          sp.text === '\n' ? { ...sp, text: own` ` } : sp,
        ),
        align,
      });
    }
  }
  return { grid, header };
}

/** One cell's rows at its column's width, each padded to it as the column is aligned. */
function cellRows(cell: Cell | undefined, w: number, bold: boolean, emoji: EmojiWidths): MdRow[] {
  const spans = (cell?.spans ?? []).map((sp) =>
    bold && sp.style === 'normal' ? { ...sp, style: 'bold' as const } : sp,
  );
  return wrapSpans(spans, w, emoji).map((r) => {
    const gap = w - stringWidth(plain(r), emoji);
    if (gap <= 0) return r;
    const pad = (n: number): MdSpan[] => (n > 0 ? [{ text: spaces(n), style: 'normal' }] : []);
    if (cell?.align === 'right') return [...pad(gap), ...r];
    if (cell?.align === 'center') return [...pad(Math.floor(gap / 2)), ...r, ...pad(gap - Math.floor(gap / 2))];
    return [...r, ...pad(gap)];
  });
}

/** A table too wide for a grid: each row as "header: value" lines, readable at any width. */
function stackedRows(grid: TableGrid['grid'], header: number, width: number, emoji: EmojiWidths): MdRow[] {
  const heads = grid[0] ?? [];
  const out: MdRow[] = [];
  grid.slice(header || 1).forEach((r, k) => {
    if (k > 0) out.push([]);
    r.forEach((cell, c) => {
      const head = own`${heads[c] ? plain(heads[c].spans) : c + 1}: `;
      pushAll(out, wrapSpans([{ text: head, style: 'bold' }, ...cell.spans], width, emoji));
    });
  });
  return out;
}

type TableGrid = ReturnType<typeof tableGrid>;

/**
 * A table as a grid: columns as wide as their content allows, long cells
 * wrapped inside their column, a rule under the header. Only when even the
 * narrowest columns cannot fit does each row become "header: value" lines.
 */
export function tableRows(tokens: readonly Token[], width: number, emoji: EmojiWidths, options: MdOptions): MdRow[] {
  const { grid, header } = tableGrid(tokens, options);
  const cols = maxOf(
    grid.map((r) => r.length),
    0,
  );
  const texts = grid.map((r) => r.map((cell) => plain(cell.spans)));
  const natural = Array.from({ length: cols }, (_, c) =>
    Math.max(1, maxOf(texts.map((r) => stringWidth(r[c] ?? '', emoji)))),
  );
  const longestWord = Array.from({ length: cols }, (_, c) =>
    maxOf(
      texts.map((r) =>
        maxOf(
          (r[c] ?? '').split(' ').map((w) => stringWidth(w, emoji)),
          0,
        ),
      ),
      1,
    ),
  );
  const widths = columnWidths(natural, longestWord, width - 3 * (cols - 1));
  if (!widths) return stackedRows(grid, header, width, emoji);
  const laid = grid.map((r, k) => widths.map((w, c) => cellRows(r[c], w, k < header, emoji)));
  // Where a cell takes more than one line, a rule between rows shows where each ends.
  const ruled = laid.some((cells) => cells.some((rows) => rows.length > 1));
  const rule: MdRow = [
    {
      text: joinInert(
        widths.map((w) => repeatInert(own`─`, w)),
        own`─┼─`,
      ),
      style: 'dim',
    },
  ];
  const out: MdRow[] = [];
  laid.forEach((cells, k) => {
    if (ruled && k > header && k > 0) out.push(rule);
    const height = maxOf(
      cells.map((rows) => rows.length),
      1,
    );
    for (let line = 0; line < height; line++) {
      const spans: MdRow = [];
      widths.forEach((w, c) => {
        if (c > 0) spans.push({ text: own` │ `, style: 'dim' });
        pushAll(spans, cells[c][line] ?? [{ text: spaces(w), style: 'normal' }]);
      });
      out.push(spans);
    }
    if (k === header - 1) out.push(rule);
  });
  return out;
}

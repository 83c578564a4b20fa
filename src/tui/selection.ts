// What is selected in the transcript, by the mouse or in copy mode, as data:
// two points, each a row (by its serial: the transcript model's number for a
// row that new rows below do not change) and a cell of that row's text (the
// entry's marker not counted). Which cells of a row are lit, the word or line
// under a click, and the text copied: soft-wrapped rows joined back into the
// line they wrap, wide characters and grapheme clusters whole. Pure.

import { EmojiWidths, graphemeWidth, graphemes } from '../editor/width';

export interface Point {
  readonly serial: number;
  readonly col: number;
}

/** A selection from `from` to `to` (both cells included), in reading order. */
export interface Selected {
  readonly from: Point;
  readonly to: Point;
}

/** A row's text, and how it joins the row above when it continues the same line (a soft wrap): its separator. */
export interface SelRow {
  readonly text: string;
  readonly cont?: string;
}

export function before(a: Point, b: Point): boolean {
  return a.serial < b.serial || (a.serial === b.serial && a.col < b.col);
}

/** The selection between two points, whichever came first. */
export function between(a: Point, b: Point): Selected {
  return before(b, a) ? { from: b, to: a } : { from: a, to: b };
}

/** The cells of row `serial` a selection covers, [from, to); null: none. `to` is Infinity to the row's end. */
export function rowCells(sel: Selected, serial: number): { from: number; to: number } | null {
  if (serial < sel.from.serial || serial > sel.to.serial) return null;
  const from = serial === sel.from.serial ? sel.from.col : 0;
  const to = serial === sel.to.serial ? sel.to.col + 1 : Infinity;
  return to > from ? { from, to } : null;
}

/** The graphemes of a row's text with the cell each starts at and its width. */
function cells(text: string, emoji: EmojiWidths): Array<{ g: string; at: number; col: number; w: number }> {
  const out: Array<{ g: string; at: number; col: number; w: number }> = [];
  let at = 0;
  let col = 0;
  for (const g of graphemes(text)) {
    const w = graphemeWidth(g, emoji);
    out.push({ g, at, col, w });
    at += g.length;
    col += w;
  }
  return out;
}

/** The text of cells [from, to) of a row: a wide character or cluster partly inside is taken whole. */
export function cellText(text: string, from: number, to: number, emoji: EmojiWidths): string {
  if (from <= 0 && to === Infinity) return text;
  let out = '';
  for (const c of cells(text, emoji)) if (c.col + Math.max(1, c.w) > from && c.col < to) out += c.g;
  return out;
}

/** How many cells a row's text takes. */
export function textCells(text: string, emoji: EmojiWidths): number {
  let n = 0;
  for (const c of cells(text, emoji)) n += c.w;
  return n;
}

/** A letter, digit or underscore: what a double-click takes as part of a word (as xterm does). */
const WORD = /[\p{L}\p{N}_]/u;

/** The cells of the word under cell `col` ([from, to)); off a word, the one cell (nothing past the row's end). */
export function wordAt(text: string, col: number, emoji: EmojiWidths): { from: number; to: number } {
  const cs = cells(text, emoji);
  const k = cs.findIndex((c) => col >= c.col && col < c.col + Math.max(1, c.w));
  if (k < 0) return { from: col, to: col };
  if (!WORD.test(cs[k].g)) return { from: cs[k].col, to: cs[k].col + cs[k].w };
  let a = k;
  let b = k;
  while (a > 0 && WORD.test(cs[a - 1].g)) a--;
  while (b < cs.length - 1 && WORD.test(cs[b + 1].g)) b++;
  return { from: cs[a].col, to: cs[b].col + cs[b].w };
}

/** Where the next or previous word starts from cell `col` on this row (null: none), as copy mode's w and b move. */
export function nextWord(text: string, col: number, emoji: EmojiWidths, dir: 1 | -1): number | null {
  const cs = cells(text, emoji);
  const starts = cs.filter((c, k) => WORD.test(c.g) && (k === 0 || !WORD.test(cs[k - 1].g))).map((c) => c.col);
  if (dir > 0) return starts.find((c) => c > col) ?? null;
  const back = starts.filter((c) => c < col);
  return back.length > 0 ? back[back.length - 1] : null;
}

/**
 * The text of a selection over `rows` (the rows from `sel.from` to `sel.to`, in order): each row's selected cells,
 * rows that continue a line joined by their separator, other rows by a newline; trailing blanks of each line dropped.
 */
export function selectedText(rows: readonly SelRow[], sel: Selected, emoji: EmojiWidths): string {
  let out = '';
  rows.forEach((row, k) => {
    const serial = sel.from.serial + k;
    const span = rowCells(sel, serial) ?? { from: 0, to: 0 };
    let piece = cellText(row.text, span.from, span.to, emoji);
    if (k > 0) {
      if (row.cont === undefined) out = out.trimEnd() + '\n';
      else if (row.cont === ' ' && span.from === 0) {
        piece = piece.trimStart();
        out = out.trimEnd() + ' ';
      } else out += row.cont;
    }
    out += piece;
  });
  return out.trimEnd();
}

/** The rows of the line row `k` of `rows` is part of (a soft-wrapped line's rows), as [first, last]. */
export function lineRows(rows: readonly SelRow[], k: number): [number, number] {
  let a = k;
  let b = k;
  while (a > 0 && rows[a].cont !== undefined) a--;
  while (b < rows.length - 1 && rows[b + 1].cont !== undefined) b++;
  return [a, b];
}

/** Presses this close in time and place are one double or triple click. */
export const CLICK_MS = 400;

export interface Click {
  readonly x: number;
  readonly y: number;
  readonly at: number;
  /** 1, 2 or 3: a single, double or triple click. */
  readonly count: number;
}

/** A press at (x, y) at `at`, after the click before it: which click of a run it is (a fourth starts over). */
export function click(prev: Click | null, x: number, y: number, at: number): Click {
  const again = prev !== null && prev.y === y && Math.abs(prev.x - x) <= 1 && at - prev.at <= CLICK_MS;
  return { x, y, at, count: again ? (prev.count % 3) + 1 : 1 };
}

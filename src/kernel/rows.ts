// What a screen area shows, as data: rows of styled spans, which the painter
// hands to blessed (tui/grid.ts) and which views make (the transcript, the
// status bar, the composer, and each modal's own: composer/views). Pure.

import { EmojiWidths, graphemeWidth, graphemes, stringWidth } from '../editor/width';
import type { Inert } from '../protocol/inert';

export type Style =
  | 'normal'
  | 'dim'
  | 'bold'
  | 'user'
  | 'error'
  | 'highlight'
  | 'paste'
  | 'status'
  | 'statusStrong'
  | 'warning'
  | 'force'
  | 'match'
  /** The match a search is at, and copy mode's cursor. */
  | 'current'
  | 'heading'
  | 'heading2'
  | 'heading3'
  | 'italic'
  | 'strike'
  | 'code'
  | 'link'
  | 'quote'
  | 'diffAdd'
  | 'diffDel'
  | 'codeBlock'
  | 'codeKeyword'
  | 'codeString'
  | 'codeComment'
  | 'codeNumber'
  | 'codeTitle'
  | 'codeType';

export interface Span {
  readonly text: Inert;
  readonly style: Style;
  /** The URL the text links to (a hyperlink where the terminal has them), already checked as safe. */
  readonly link?: string;
}

/** One row: its spans, left to right. */
export type GridRow = readonly Span[];

/**
 * Cuts text to `width` cells, ending in … when cut (whole graphemes: inert text stays inert). Linear: the search
 * prompt can hold a huge entry's line.
 */
export function fit(text: Inert, width: number, emoji: EmojiWidths): Inert;
export function fit(text: string, width: number, emoji: EmojiWidths): string;
export function fit(text: string, width: number, emoji: EmojiWidths): string {
  if (width <= 0) return '';
  if (text.length <= width && stringWidth(text, emoji) <= width) return text;
  // Only the head can be shown; a slice of it keeps a megabyte line from being segmented whole.
  const cut = text.length > width * 4;
  let out = '';
  let used = 0;
  for (const g of graphemes(cut ? text.slice(0, width * 4) : text)) {
    const w = graphemeWidth(g, emoji);
    if (used + w > width - 1) return out + '…';
    out += g;
    used += w;
  }
  return cut ? out + '…' : out;
}

/**
 * The row with cells [from, to) in `style` (a selection, a search's match): spans split where the range starts and
 * ends, a wide character or cluster partly inside taken whole; links kept.
 */
export function markCells(row: GridRow, from: number, to: number, style: Style, emoji: EmojiWidths): GridRow {
  if (to <= from) return row;
  const out: Span[] = [];
  let col = 0;
  for (const span of row) {
    const w = stringWidth(span.text, emoji);
    if (col + w <= from || col >= to) {
      out.push(span);
      col += w;
      continue;
    }
    let piece = '';
    let lit: boolean | null = null;
    const flush = (): void => {
      if (!piece) return;
      const s = lit ? style : span.style;
      // Whole graphemes of inert text.
      const text = piece as Inert;
      out.push(span.link === undefined ? { text, style: s } : { text, style: s, link: span.link });
      piece = '';
    };
    for (const g of graphemes(span.text)) {
      const gw = graphemeWidth(g, emoji);
      const inside = col + Math.max(1, gw) > from && col < to;
      if (inside !== lit) flush();
      lit = inside;
      piece += g;
      col += gw;
    }
    flush();
  }
  return out;
}

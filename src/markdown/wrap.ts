// Word wrap for rows of styled spans: greedy, breaking at blanks (dropped
// there) and inside a word only when it is longer than a row. Printable
// ASCII, nearly all text, is wrapped a row at a time with native scans;
// anything else a piece at a time by display width. Pure.

import { graphemes, graphemeWidth, stringWidth } from '../editor/width';
import type { MdRow, MdSpan, MdStyle } from './render';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Word-wraps spans to `width` cells: rows break at blanks (dropped there), and
 * inside a word only when it is longer than a row (between graphemes).
 */
export function wrapSpans(spans: readonly MdSpan[], width: number): MdRow[] {
  const w = Math.max(1, width);
  const rows: MdRow[] = [];
  let row: MdRow = [];
  let used = 0;
  const push = (text: string, style: MdStyle): void => {
    const last = row[row.length - 1];
    if (last && last.style === style) row[row.length - 1] = { text: last.text + text, style };
    else row.push({ text, style });
  };
  const newRow = (): void => {
    // Trailing blanks are dropped where a row breaks.
    while (row.length > 0 && row[row.length - 1].text.endsWith(' ')) {
      const last = row.pop() as MdSpan;
      const text = last.text.trimEnd();
      if (text) {
        row.push({ ...last, text });
        break;
      }
    }
    rows.push(row);
    row = [];
    used = 0;
  };
  for (const span of spans) {
    if (span.text === '\n') {
      newRow();
      continue;
    }
    // Printable ASCII, nearly all text: a row at a time, one cell per character.
    if (PRINTABLE_ASCII.test(span.text)) {
      wrapAscii(span.text, span.style);
      continue;
    }
    for (const piece of span.text.split(/( +)/)) {
      if (!piece) continue;
      const pw = stringWidth(piece);
      if (piece.startsWith(' ')) {
        if (used > 0 && used + pw <= w) {
          push(piece, span.style);
          used += pw;
        } else if (used > 0) {
          newRow();
        }
        continue;
      }
      if (used + pw > w && used > 0) newRow();
      if (pw <= w) {
        push(piece, span.style);
        used += pw;
        continue;
      }
      for (const g of graphemes(piece)) {
        const gw = graphemeWidth(g);
        if (used + gw > w && used > 0) newRow();
        push(g, span.style);
        used += gw;
      }
    }
  }
  if (row.length > 0 || rows.length === 0) newRow();
  return rows;

  // The same greedy wrap as the pieces above, found with native scans: a long
  // paragraph that is wrapped again on every frame while it streams costs rows, not words.
  function wrapAscii(text: string, style: MdStyle): void {
    let i = 0;
    while (i < text.length) {
      if (used === 0) {
        while (text.charCodeAt(i) === 32) i++;
        if (i >= text.length) return;
      }
      const room = w - used;
      if (text.length - i <= room) {
        push(text.slice(i), style);
        used += text.length - i;
        return;
      }
      // The row ends at the last blank that leaves what is before it inside the row.
      const cut = text.charCodeAt(i + room) === 32 ? i + room : text.lastIndexOf(' ', i + room - 1);
      if (cut > i) {
        push(text.slice(i, cut), style);
        i = cut;
        newRow();
        continue;
      }
      if (cut === i) {
        // Blanks first, then a word that does not fit after them: break at the blanks.
        newRow();
        continue;
      }
      // No blank in reach: the word goes to a new row, or is cut if it is longer than a row.
      if (used > 0) {
        newRow();
        continue;
      }
      push(text.slice(i, i + room), style);
      i += room;
      newRow();
    }
  }
}

// Word wrap for rows of styled spans: greedy, breaking at blanks (dropped
// there) and inside a word only when it is longer than a row. Printable
// ASCII, nearly all text, is wrapped a row at a time with native scans;
// anything else a piece at a time by display width. Pure.

import { EmojiWidths, graphemes, graphemeWidth, stringWidth } from '../editor/width';
import type { MdRow, MdSpan, MdStyle } from './inline';
import { type Inert, own } from '../protocol/inert';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Word-wraps spans to `width` cells: rows break at blanks (dropped there), and
 * inside a word only when it is longer than a row (between graphemes).
 */
export function wrapSpans(spans: readonly MdSpan[], width: number, emoji: EmojiWidths): MdRow[] {
  const wrap = new Wrapper(Math.max(1, width), emoji);
  for (const span of spans) {
    if (span.text === '\n') wrap.newRow();
    // Printable ASCII, nearly all text: a row at a time, one cell per character.
    else if (PRINTABLE_ASCII.test(span.text)) wrap.ascii(span.text, span.style, span.link);
    else wrap.anyText(span.text, span.style, span.link);
  }
  return wrap.finish();
}

/**
 * One wrap in progress: the rows so far, the row being filled and its cells used. Every piece it puts in a row is cut
 * from a span's inert text at a blank or between graphemes (or is printable ASCII), which keeps it inert.
 */
class Wrapper {
  private readonly rows: MdRow[] = [];
  private row: MdRow = [];
  private used = 0;

  constructor(
    private readonly w: number,
    private readonly emoji: EmojiWidths,
  ) {}

  private push(piece: string, style: MdStyle, link: string | undefined): void {
    const text = piece as Inert;
    const row = this.row;
    const last = row[row.length - 1];
    if (last && last.style === style && last.link === link)
      row[row.length - 1] =
        link === undefined
          ? { text: own`${last.text}${text}`, style }
          : { text: own`${last.text}${text}`, style, link };
    else row.push(link === undefined ? { text, style } : { text, style, link });
  }

  /** Ends the row; `soft`: the next goes on with the same line (a wrap), after what stood between them. */
  newRow(soft?: string): void {
    const row = this.row;
    // Trailing blanks are dropped where a row breaks.
    while (row.length > 0 && row[row.length - 1].text.endsWith(' ')) {
      const last = row.pop() as MdSpan;
      const text = last.text.trimEnd() as Inert;
      if (text) {
        row.push({ ...last, text });
        break;
      }
    }
    this.rows.push(row);
    this.row = [];
    if (soft !== undefined) this.row.soft = soft;
    this.used = 0;
  }

  finish(): MdRow[] {
    if (this.row.length > 0 || this.rows.length === 0) this.newRow();
    return this.rows;
  }

  /** Any text, a piece (a word, or a run of blanks) at a time, by display width. */
  anyText(text: string, style: MdStyle, link?: string): void {
    const w = this.w;
    for (const piece of text.split(/( +)/)) {
      if (!piece) continue;
      const pw = stringWidth(piece, this.emoji);
      if (piece.startsWith(' ')) {
        if (this.used > 0 && this.used + pw <= w) {
          this.push(piece, style, link);
          this.used += pw;
        } else if (this.used > 0) {
          this.newRow(' ');
        }
        continue;
      }
      if (this.used + pw > w && this.used > 0) this.newRow(' ');
      if (pw <= w) {
        this.push(piece, style, link);
        this.used += pw;
        continue;
      }
      for (const g of graphemes(piece)) {
        const gw = graphemeWidth(g, this.emoji);
        if (this.used + gw > w && this.used > 0) this.newRow('');
        this.push(g, style, link);
        this.used += gw;
      }
    }
  }

  /**
   * The same greedy wrap as anyText, found with native scans: a long
   * paragraph that is wrapped again on every frame while it streams costs
   * rows, not words.
   */
  ascii(text: string, style: MdStyle, link?: string): void {
    let i = 0;
    while (i < text.length) {
      if (this.used === 0) {
        while (text.charCodeAt(i) === 32) i++;
        if (i >= text.length) return;
      }
      const room = this.w - this.used;
      if (text.length - i <= room) {
        this.push(text.slice(i), style, link);
        this.used += text.length - i;
        return;
      }
      // The row ends at the last blank that leaves what is before it inside the row.
      // Searched within the row only: a word of a million characters must not be scanned back over on every row.
      const blank = text.charCodeAt(i + room) === 32 ? room : text.slice(i, i + room).lastIndexOf(' ');
      const cut = blank === -1 ? -1 : i + blank;
      let soft = ' ';
      if (cut > i) {
        this.push(text.slice(i, cut), style, link);
        i = cut;
      } else if (cut < i && this.used === 0) {
        // No blank in reach and the row is empty: the word is longer than a row and is cut.
        this.push(text.slice(i, i + room), style, link);
        i += room;
        soft = '';
      }
      // Otherwise blanks first and a word that does not fit after them, or a word for a new row: break here.
      this.newRow(soft);
    }
  }
}

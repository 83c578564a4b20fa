// Where copy mode's cursor goes on a move key: a cell left or right, a row up or down, a page, the line's ends, the
// transcript's ends, the next or previous word (on the nearest row that has one). Pure: the rows are read through
// `text`, by serial.

import type { CommandName } from '../composer/views/registry';
import type { EmojiWidths } from '../editor/width';
import { type Point, nextWord, textCells } from './selection';

/** The transcript's rows as the cursor sees them: the first and last serials, and a row's text. */
export interface CursorRows {
  readonly first: number;
  readonly last: number;
  text(serial: number): string;
}

/** Rows a word move looks through for the next word, at most. */
const WORD_REACH = 500;

/** The cursor after a move key (`page`: rows a page moves). */
export function cursorAfter(
  name: CommandName,
  at: Point,
  rows: CursorRows,
  o: { page: number; emoji: EmojiWidths },
): Point {
  const clampRow = (serial: number, col: number): Point => {
    const s = Math.max(rows.first, Math.min(rows.last, serial));
    const width = textCells(rows.text(s), o.emoji);
    return { serial: s, col: Math.max(0, Math.min(col, Math.max(0, width - 1))) };
  };
  switch (name) {
    case 'copy.left':
      return { serial: at.serial, col: Math.max(0, at.col - 1) };
    case 'copy.right':
      return clampRow(at.serial, at.col + 1);
    case 'copy.up':
      return clampRow(at.serial - 1, at.col);
    case 'copy.down':
      return clampRow(at.serial + 1, at.col);
    case 'copy.pageUp':
      return clampRow(at.serial - o.page, at.col);
    case 'copy.pageDown':
      return clampRow(at.serial + o.page, at.col);
    case 'copy.lineStart':
      return { serial: at.serial, col: 0 };
    case 'copy.lineEnd':
      return clampRow(at.serial, Infinity);
    case 'copy.top':
      return clampRow(rows.first, 0);
    case 'copy.bottom':
      return clampRow(rows.last, 0);
    case 'copy.wordNext':
      return wordMove(at, rows, o.emoji, 1);
    case 'copy.wordPrev':
      return wordMove(at, rows, o.emoji, -1);
    default:
      return at;
  }
}

/** The next (or previous) word's start, on this row or the nearest row with a word. */
function wordMove(at: Point, rows: CursorRows, emoji: EmojiWidths, dir: 1 | -1): Point {
  const here = nextWord(rows.text(at.serial), at.col, emoji, dir);
  if (here !== null) return { serial: at.serial, col: here };
  for (let s = at.serial + dir, n = 0; s >= rows.first && s <= rows.last && n < WORD_REACH; s += dir, n++) {
    const col = nextWord(rows.text(s), dir > 0 ? -1 : Infinity, emoji, dir);
    if (col !== null) return { serial: s, col };
  }
  return at;
}

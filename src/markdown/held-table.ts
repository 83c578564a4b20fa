// A table is held while it grows: its columns' widths depend on every row, so a grid drawn from the rows so far would
// change width under the reader as later rows came (or, with its widths fixed early, squeeze every later long cell
// into them). In its place a line counts its rows; the grid is drawn once, when the table is complete (a block after
// it began, or the answer ended). Pure.

import type Token from 'markdown-it/lib/token.mjs';
import { HELD_TABLE } from './render';

/**
 * The growing blocks' tokens with the growing table, if there is one, in place as a line that counts its rows. The
 * growing table is the last one, when nothing but the ends of what holds it (a list item, a quote) comes after it.
 */
export function holdGrowingTable(tokens: readonly Token[]): readonly Token[] {
  let close = tokens.length - 1;
  while (close >= 0 && tokens[close].nesting === -1 && tokens[close].type !== 'table_close') close--;
  if (tokens[close]?.type !== 'table_close') return tokens;
  let open = close;
  while (open > 0 && tokens[open].type !== 'table_open') open--;
  const table = tokens.slice(open, close + 1);
  // The header row is not counted.
  const rows = Math.max(0, table.filter((t) => t.type === 'tr_open').length - 1);
  const cols = table.filter((t) => t.type === 'th_open').length;
  const held = new (tokens[open].constructor as typeof Token)(HELD_TABLE, '', 0);
  held.level = tokens[open].level;
  held.block = true;
  held.content = `▎ a table, ${cols} column${cols === 1 ? '' : 's'}, ${rows} row${rows === 1 ? '' : 's'} so far…`;
  return [...tokens.slice(0, open), held, ...tokens.slice(close + 1)];
}

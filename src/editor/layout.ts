// Lays the editor's buffer out into screen rows of a given width: soft wrap,
// wide characters, tabs and collapsed pastes, and where the cursor lands.
// Pure: the composer view draws what this returns.

import { EditorState, PASTE_MARK, TAB_WIDTH, atomWidth, chipLabel } from './model';
import type { EmojiWidths } from './width';
import { graphemes, stringWidth } from './width';
import { EMPTY, type Inert, isInert, sanitize, spaces } from '../protocol/inert';

const TAB = spaces(TAB_WIDTH);

export interface Atom {
  /** What is drawn: the grapheme, spaces for a tab, or a paste label; inert (a control character pasted, a path's). */
  readonly display: Inert;
  readonly width: number;
  /** Buffer offsets this atom covers. */
  readonly start: number;
  readonly end: number;
  readonly paste: boolean;
}

export interface Row {
  readonly atoms: Atom[];
  readonly width: number;
}

export interface Layout {
  readonly rows: Row[];
  readonly cursorRow: number;
  readonly cursorCol: number;
}

/**
 * What a grapheme is drawn as, and its width: a paste's label (cut to the row), spaces for a tab; a character that is
 * not inert (a bidi override pasted) as sanitize names it, as wide as that is.
 */
function drawn(g: string, paste: string | null, w: number, emoji: EmojiWidths): { display: Inert; width: number } {
  if (paste !== null) {
    const label = sanitize(chipLabel(paste));
    const shown = label.length > w ? sanitize(truncateLabel(label, w)) : label;
    return { display: shown, width: shown.length };
  }
  if (g === '\t') return { display: TAB, width: TAB_WIDTH };
  if (isInert(g)) return { display: g, width: atomWidth(g, emoji) };
  const display = sanitize(g);
  return { display, width: stringWidth(display, emoji) };
}

function truncateLabel(label: string, width: number): string {
  return label.length <= width ? label : label.slice(0, Math.max(0, width - 1)) + '…';
}

export function layout(s: EditorState, width: number, emoji: EmojiWidths): Layout {
  const w = Math.max(1, width);
  const rows: Row[] = [];
  let atoms: Atom[] = [];
  let col = 0;
  let cursorRow = -1;
  let cursorCol = 0;
  let paste = 0;

  const breakRow = (): void => {
    rows.push({ atoms, width: col });
    atoms = [];
    col = 0;
  };

  let offset = 0;
  const lines = s.text.split('\n');
  lines.forEach((line, li) => {
    for (const g of graphemes(line)) {
      const isPaste = g === PASTE_MARK;
      const { display, width: aw } = drawn(g, isPaste ? (s.pastes[paste++] ?? '') : null, w, emoji);
      if (col + aw > w && col > 0) {
        if (g === ' ') {
          // The blank a soft wrap falls on hangs at the end of its row, drawn nowhere: the next row starts with the
          // next word.
          if (offset === s.cursor) {
            cursorRow = rows.length + 1;
            cursorCol = 0;
          }
          atoms.push({ display: EMPTY, width: 0, start: offset, end: offset + 1, paste: false });
          offset += 1;
          breakRow();
          continue;
        }
        breakRow();
      }
      if (offset === s.cursor) {
        cursorRow = rows.length;
        cursorCol = col;
      }
      atoms.push({ display, width: aw, start: offset, end: offset + g.length, paste: isPaste });
      col += aw;
      offset += g.length;
    }
    if (offset === s.cursor) {
      // A cursor after a full row sits at the start of the next one.
      if (col >= w) breakRow();
      cursorRow = rows.length;
      cursorCol = col;
    }
    breakRow();
    if (li < lines.length - 1) offset += 1;
  });
  return { rows, cursorRow: Math.max(0, cursorRow), cursorCol };
}

/** First row to show so that the cursor row stays visible, moving as little as possible. */
export function scrollTop(prevTop: number, cursorRow: number, rowCount: number, height: number): number {
  const h = Math.max(1, height);
  let top = Math.min(prevTop, Math.max(0, rowCount - h));
  if (cursorRow < top) top = cursorRow;
  if (cursorRow >= top + h) top = cursorRow - h + 1;
  return Math.max(0, top);
}

// A blessed box that paints rows of styled spans straight into the screen's
// cell buffer. Blessed's own content parser counts UTF-16 units as columns and
// re-wraps everything on each change; this paints exactly the cells each
// grapheme takes and only the rows it is given.

import type { Widgets } from 'blessed';
import { graphemes, graphemeWidth } from '../editor/width';

export type Style = 'normal' | 'dim' | 'bold' | 'user' | 'error' | 'highlight' | 'paste' | 'status' | 'statusStrong' | 'warning' | 'force' | 'match';

export interface Span {
  readonly text: string;
  readonly style: Style;
}

export type GridRow = readonly Span[];

// blessed attr: flags << 18 | fg << 9 | bg; 0x1ff is the terminal default colour.
const DEF = 0x1ff;
function attr(fg: number, bg: number, flags = 0): number {
  return (flags << 18) | (fg << 9) | bg;
}
const BOLD = 1;
const UNDERLINE = 2;
const INVERSE = 8;

const ATTRS: Record<Style, number> = {
  normal: attr(DEF, DEF),
  dim: attr(8, DEF),
  bold: attr(DEF, DEF, BOLD),
  user: attr(6, DEF, BOLD),
  error: attr(1, DEF),
  highlight: attr(DEF, DEF, INVERSE),
  paste: attr(5, DEF),
  status: attr(DEF, 236),
  statusStrong: attr(DEF, 236, BOLD),
  warning: attr(3, 236, BOLD),
  force: attr(15, 1, BOLD),
  match: attr(0, 3, UNDERLINE),
};

type Cell = [number, string];
interface ScreenLines {
  lines: Array<Cell[] & { dirty?: boolean }>;
}

export interface Grid {
  readonly box: Widgets.BoxElement;
  /** Sets the rows to paint at the next render. */
  setRows(rows: readonly GridRow[]): void;
  /** Inner size in cells. */
  size(): { width: number; height: number };
}

export function paintRow(line: Cell[] & { dirty?: boolean }, x0: number, x1: number, row: GridRow): void {
  let x = x0;
  const put = (a: number, ch: string): void => {
    const cell = line[x];
    if (cell[0] !== a || cell[1] !== ch) {
      cell[0] = a;
      cell[1] = ch;
      line.dirty = true;
    }
    x++;
  };
  outer: for (const span of row) {
    const a = ATTRS[span.style];
    for (const g of graphemes(span.text)) {
      const w = graphemeWidth(g);
      if (w === 0) continue;
      if (x + w > x1) break outer;
      put(a, g);
      // blessed's draw skips the cell after a wide character.
      if (w === 2) put(a, '\x03');
    }
  }
  while (x < x1) put(ATTRS.normal, ' ');
}

export function createGrid(box: Widgets.BoxElement): Grid {
  let rows: readonly GridRow[] = [];
  const base = box.render.bind(box);
  const el = box as unknown as { ileft: number; itop: number; iright: number; ibottom: number; screen: ScreenLines };
  (box as unknown as { render: () => unknown }).render = () => {
    const coords = base() as { xi: number; xl: number; yi: number; yl: number } | undefined;
    if (!coords) return coords;
    const x0 = coords.xi + el.ileft;
    const x1 = coords.xl - el.iright;
    const y0 = coords.yi + el.itop;
    const y1 = coords.yl - el.ibottom;
    const lines = el.screen.lines;
    for (let y = y0; y < y1; y++) {
      const line = lines[y];
      if (!line) break;
      paintRow(line, x0, Math.min(x1, line.length), rows[y - y0] ?? []);
    }
    return coords;
  };
  return {
    box,
    setRows(next) {
      rows = next;
    },
    size() {
      const width = Math.max(1, (box.width as number) - el.ileft - el.iright);
      const height = Math.max(1, (box.height as number) - el.itop - el.ibottom);
      return { width, height };
    },
  };
}

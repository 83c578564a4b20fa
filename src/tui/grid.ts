// A blessed box that paints rows of styled spans straight into the screen's
// cell buffer. Blessed's own content parser counts UTF-16 units as columns and
// re-wraps everything on each change; this paints exactly the cells each
// grapheme takes and only the rows it is given. An emoji sequence whose width
// terminals disagree on is drawn over blanks and followed by an absolute
// cursor move, and its row is rewritten whole, so a terminal that draws it
// wider or narrower than expected leaves no stale cell and no broken border.

import type { Widgets } from 'blessed';
import { ITALIC, LINK, STRIKE } from './draw';
import type { Background } from '../settings/theme';
import type { RoleColour, RoleColours } from '../settings/palette';
import {
  EmojiWidths,
  graphemes,
  graphemeWidth,
  isAmbiguous,
  standaloneCharWidth,
  standaloneWidth,
} from '../editor/width';
import type { GridRow, Span, Style } from '../kernel/rows';

export type { GridRow, Span, Style };

// blessed attr: flags << 18 | fg << 9 | bg; 0x1ff is the terminal default colour.
const DEF = 0x1ff;
function attr(fg: number, bg: number, flags = 0): number {
  return (flags << 18) | (fg << 9) | bg;
}
const BOLD = 1;
const UNDERLINE = 2;
const INVERSE = 8;

/**
 * The dark palette: the text in the terminal's own foreground, marks in the
 * eight base colours every theme adapts, greys from the 256-colour ramp
 * (reduced by blessed where the terminal has fewer). Each style means one
 * thing: emphasis is italic, a link blue and underlined, strike-through
 * struck; headings go from bold colour over a double rule (h1) through
 * bold (h2) to bold italic (h3 and below), so they stay apart without colour too.
 */
const DARK: Readonly<Record<Style, number>> = {
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
  current: attr(0, 6, BOLD),
  heading: attr(6, DEF, BOLD),
  heading2: attr(6, DEF, BOLD),
  heading3: attr(6, DEF, BOLD | ITALIC),
  italic: attr(DEF, DEF, ITALIC),
  strike: attr(DEF, DEF, STRIKE),
  code: attr(3, DEF),
  // Code in the terminal's own foreground (light or dark), its tokens in the eight base colours every theme adapts.
  codeBlock: attr(DEF, DEF),
  codeKeyword: attr(5, DEF),
  codeString: attr(2, DEF),
  codeComment: attr(8, DEF),
  codeNumber: attr(6, DEF),
  codeTitle: attr(4, DEF),
  codeType: attr(3, DEF),
  link: attr(4, DEF, UNDERLINE),
  quote: attr(DEF, DEF),
  diffAdd: attr(2, DEF),
  diffDel: attr(1, DEF),
};

/**
 * The light palette: what is yellow or cyan on a dark background (unreadable
 * on white) is dark orange, blue or teal, the greys are darker, and the status
 * bar is light grey, so the terminal's own (dark) foreground reads on it.
 */
const LIGHT: Readonly<Record<Style, number>> = {
  ...DARK,
  dim: attr(243, DEF),
  user: attr(25, DEF, BOLD),
  status: attr(DEF, 253),
  statusStrong: attr(DEF, 253, BOLD),
  warning: attr(130, 253, BOLD),
  heading: attr(25, DEF, BOLD),
  heading2: attr(25, DEF, BOLD),
  heading3: attr(25, DEF, BOLD | ITALIC),
  code: attr(130, DEF),
  codeKeyword: attr(90, DEF),
  codeString: attr(28, DEF),
  codeComment: attr(243, DEF),
  codeNumber: attr(30, DEF),
  codeTitle: attr(25, DEF),
  codeType: attr(130, DEF),
  link: attr(25, DEF, UNDERLINE),
  diffAdd: attr(28, DEF),
  diffDel: attr(124, DEF),
};

/** How rows are painted now: each style's attribute (themeAttrs), and whether links are OSC 8 hyperlinks. */
export interface Look {
  readonly attrs: Readonly<Record<Style, number>>;
  readonly hyperlinks: boolean;
}

/** What the terminal can draw, as the theme needs it. */
export interface ThemeOptions {
  colors: number;
  /** NO_COLOR: attributes only. */
  noColor: boolean;
  background: Background;
  /** The terminal draws italic (settings/theme.ts's italicFor); without it, underline stands in. */
  italic: boolean;
  /** The person's own colours (config `theme`), over the palette's; NO_COLOR still takes every colour away. */
  own?: RoleColours;
}

/**
 * Fits the styles to what the terminal can show. NO_COLOR (no-color.org):
 * every colour goes, the attributes stay. Below 256 colours the status bar's
 * grey background would become black (and vanish on a dark terminal), so the
 * bar and highlights are drawn in reverse video; below 16 there is no bright
 * black either, so what was dim grey takes the terminal's own foreground;
 * without colours at all (vt100) it is drawn as under NO_COLOR.
 */
export function themeAttrs(options: ThemeOptions): Record<Style, number> {
  const { colors } = options;
  // A terminal without colours (vt100) is drawn as NO_COLOR asks.
  const noColor = options.noColor || colors < 8;
  const fg = (a: number): number => (a >> 9) & 0x1ff;
  const reverse = (a: number): number => a | (INVERSE << 18);
  const plainFg = (a: number): number => (a & ~(0x1ff << 9)) | (DEF << 9);
  // The light palette's colours are from the 256 ramp: below it, the dark one's base colours read on both.
  const attrs: Record<Style, number> = {
    ...(options.background === 'light' && colors >= 256 && !noColor ? LIGHT : DARK),
  };
  for (const [style, c] of Object.entries(options.own ?? {}) as Array<[Style, RoleColour]>) {
    const bg = c.bg ?? attrs[style] & 0x1ff;
    attrs[style] = (attrs[style] & ~0x3ffff) | (c.fg << 9) | bg;
  }
  if (!options.italic) {
    for (const style of Object.keys(attrs) as Style[]) {
      if ((attrs[style] >> 18) & ITALIC) attrs[style] = (attrs[style] & ~(ITALIC << 18)) | (UNDERLINE << 18);
    }
  }
  if (noColor) {
    const keep = (a: number): number => (a & ~0x3ffff) | (DEF << 9) | DEF;
    for (const style of Object.keys(attrs) as Style[]) attrs[style] = keep(attrs[style]);
  }
  if (noColor || colors < 256) {
    for (const style of ['status', 'statusStrong', 'warning'] as const) attrs[style] = reverse(attrs[style] | DEF);
  }
  // Without colour these would look like plain text.
  if (noColor)
    for (const style of ['force', 'match', 'highlight', 'current'] as const) attrs[style] = reverse(attrs[style]);
  if (!noColor && colors < 16) {
    for (const style of Object.keys(attrs) as Style[]) if (fg(attrs[style]) === 8) attrs[style] = plainFg(attrs[style]);
  }
  return attrs;
}

type Cell = [number, string, string?];
interface ScreenLines {
  lines: Array<Cell[] & { dirty?: boolean }>;
  /** What blessed believes the terminal shows; a cell set to nothing is written again. */
  olines: Cell[][];
}

/**
 * The cell text for an ambiguous grapheme at (x, y): blank its cells, draw it, then put the cursor where the next cell
 * starts.
 */
function guarded(g: string, w: number, x: number, y: number): string {
  return `${' '.repeat(w)}\x1b[${w}D${g}\x1b[${y + 1};${x + w + 1}H`;
}

export interface Grid {
  readonly box: Widgets.BoxElement;
  /** Sets the rows to paint at the next render. */
  setRows(rows: readonly GridRow[]): void;
  /** Inner size in cells. */
  size(): { width: number; height: number };
}

/** Paints one row into blessed's line; returns whether it holds a grapheme of disputed width. */
export function paintRow(
  line: Cell[] & { dirty?: boolean },
  x0: number,
  x1: number,
  row: GridRow,
  emoji: EmojiWidths,
  look: Look,
  y = 0,
): boolean {
  const { attrs, hyperlinks } = look;
  let x = x0;
  let ambiguous = false;
  let link: string | undefined;
  const put = (a: number, ch: string): void => {
    const cell = line[x];
    if (cell[0] !== a || cell[1] !== ch || (link !== undefined && cell[2] !== link)) {
      cell[0] = a;
      cell[1] = ch;
      // Read by the draw only with the LINK flag: a cell without it may keep a stale one.
      if (link !== undefined) cell[2] = link;
      line.dirty = true;
    }
    x++;
  };
  outer: for (const span of row) {
    link = hyperlinks ? span.link : undefined;
    const a = link === undefined ? attrs[span.style] : attrs[span.style] | (LINK << 18);
    const text = span.text;
    // Text made only of standalone characters (nearly all of it) is painted a character at a
    // time, no segmenting; anything else (a combining mark may join the character before it) is segmented whole.
    if (standaloneWidth(text) >= 0) {
      for (let i = 0; i < text.length; i++) {
        const w = standaloneCharWidth(text.charCodeAt(i));
        if (x + w > x1) break outer;
        put(a, text[i]);
        // blessed's draw skips the cell after a wide character.
        if (w === 2) put(a, '\x03');
      }
      continue;
    }
    for (const g of graphemes(text)) {
      const w = graphemeWidth(g, emoji);
      if (w === 0) continue;
      if (x + w > x1) break outer;
      if (isAmbiguous(g)) {
        ambiguous = true;
        put(a, guarded(g, w, x, y));
        for (let k = 1; k < w; k++) put(a, '\x03');
        continue;
      }
      put(a, g);
      // blessed's draw skips the cell after a wide character.
      if (w === 2) put(a, '\x03');
    }
  }
  link = undefined;
  while (x < x1) put(attrs.normal, ' ');
  return ambiguous;
}

/** `emoji`: how the terminal draws emoji sequences, and `look`, the palette and links, both read at each paint. */
export function createGrid(box: Widgets.BoxElement, emoji: () => EmojiWidths, look: () => Look): Grid {
  let rows: readonly GridRow[] = [];
  const ambiguousRows = new Set<number>();
  const base = box.render.bind(box);
  const el = box as unknown as {
    ileft: number;
    itop: number;
    iright: number;
    ibottom: number;
    screen: ScreenLines;
    _noFill: boolean;
  };
  // Every inner cell is painted below: blessed filling them with blanks first, each frame, only
  // to have them painted back, was a tenth of a streaming frame. Borders are still blessed's.
  el._noFill = true;
  (box as unknown as { render: () => unknown }).render = () => {
    const coords = base() as { xi: number; xl: number; yi: number; yl: number } | undefined;
    if (!coords) return coords;
    const x0 = coords.xi + el.ileft;
    const x1 = coords.xl - el.iright;
    const y0 = coords.yi + el.itop;
    const y1 = coords.yl - el.ibottom;
    const { lines, olines } = el.screen;
    const widths = emoji();
    const now = look();
    for (let y = y0; y < y1; y++) {
      const line = lines[y];
      if (!line) break;
      const has = paintRow(line, x0, Math.min(x1, line.length), rows[y - y0] ?? [], widths, now, y);
      // A row that holds (or held) a disputed grapheme is rewritten whole when it changes,
      // borders included: the terminal may have drawn it wider or narrower than blessed believes.
      if (line.dirty && (has || ambiguousRows.has(y)) && olines[y]) {
        for (const cell of olines[y]) cell[1] = '';
      }
      if (has) ambiguousRows.add(y);
      else ambiguousRows.delete(y);
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

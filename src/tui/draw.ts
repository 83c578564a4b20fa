// milk's own version of blessed's Screen.draw: the cell-by-cell comparison of
// what the screen should show with what the terminal shows, written as one
// string. Blessed's knows five attributes; milk's styles also need italic
// and strike-through (SGR 3 and 9), and hyperlinks (OSC 8), which a
// cell carries as a third element when its attribute has the LINK flag.
// Otherwise it does what blessed's does, for the options milk gives blessed
// (UTF-8 always, no line-drawing set, no artificial cursor): the same skips
// over unchanged cells, the same handling of wide characters; the cursor is
// placed by milk's painter after the frame rather than saved and restored around it.

import type { Widgets } from 'blessed';

/** Attribute flags past blessed's own (bold 1, underline 2, blink 4, inverse 8, invisible 16). */
export const ITALIC = 32;
export const STRIKE = 64;
/** The cell's third element is the URL it links to. */
export const LINK = 128;

const LINK_BIT = LINK << 18;

/** A cell of blessed's buffers: attribute, text, and with LINK the URL. */
type Cell = [number, string, string?];
type Line = Cell[] & { dirty?: boolean };

interface DrawScreen {
  lines: Line[];
  olines: Line[];
  dattr: number;
  _buf: string;
  program: { _write(text: string): unknown };
  tput: {
    strings: Record<string, unknown>;
    cup(y: number, x: number): string;
    cuf(n: number): string;
  };
  _reduceColor(color: number): number;
  draw(start: number, end: number): void;
}

/** OSC 8: the text written after it links to `url` (empty: to nothing). */
export function hyperlink(url: string): string {
  return `\x1b]8;;${url}\x1b\\`;
}

function colour(c: number, base: number, bright: number, extended: string): string {
  if (c < 8) return `${c + base};`;
  if (c < 16) return `${c - 8 + bright};`;
  return `${extended}${c};`;
}

/** The SGR sequence for an attribute: flags, then background and foreground. */
export function sgr(data: number, reduce: (c: number) => number): string {
  const bg = data & 0x1ff;
  const fg = (data >> 9) & 0x1ff;
  const flags = data >> 18;
  let out = '';
  if (flags & 1) out += '1;';
  if (flags & ITALIC) out += '3;';
  if (flags & 2) out += '4;';
  if (flags & 4) out += '5;';
  if (flags & 8) out += '7;';
  if (flags & 16) out += '8;';
  if (flags & STRIKE) out += '9;';
  if (bg !== 0x1ff) out += colour(reduce(bg), 40, 100, '48;5;');
  if (fg !== 0x1ff) out += colour(reduce(fg), 30, 90, '38;5;');
  return `\x1b[${out.slice(0, -1)}m`;
}

/** The cells a cursor move costs as much as: writing up to this many again is no dearer. */
const REWRITE_CELLS = 4;

const BACKGROUND = 0x1ff;
const FOREGROUND = 0x1ff << 9;
/** Flags that show on a blank cell (underline, blink, inverse, strike): the others change nothing there. */
const SHOWN_ON_BLANK = (2 | 4 | 8 | STRIKE) << 18;
/** Flags that draw a blank in its foreground colour (an underline's or strike's line, inverse's fill). */
const FOREGROUND_ON_BLANK = (2 | 8 | STRIKE) << 18;

/**
 * Whether a cell of `ch` looks the same in attributes `a` and `b`: a blank shows only its background and a few flags.
 */
function looksAlike(a: number, b: number, ch: string): boolean {
  if (a === b) return true;
  if (ch !== ' ') return false;
  const mask = BACKGROUND | SHOWN_ON_BLANK | ((a | b) & FOREGROUND_ON_BLANK ? FOREGROUND : 0);
  return (a & mask) === (b & mask);
}

/**
 * The text of cells [from, to) when it is cheaper written than moved over:
 * few, one cell wide each, looking as they do in the attribute and link
 * set now (a blank between two coloured words is such a cell).
 */
function rewritable(line: Line, from: number, to: number, attr: number, link: string | undefined): string | null {
  if (to - from > REWRITE_CELLS) return null;
  let text = '';
  for (let x = from; x < to; x++) {
    const [data, ch] = line[x];
    const url = data & LINK_BIT ? line[x][2] : undefined;
    if (url !== link || ch.length !== 1 || ch < ' ' || ch > '~' || !looksAlike(data, attr, ch)) return null;
    text += ch;
  }
  return text;
}

/** From one attribute to another: the reset and the new style in one sequence. */
function restyle(from: number, to: number, plain: number, code: (data: number) => string): string {
  if (from === plain) return code(to);
  return to === plain ? '\x1b[m' : `\x1b[0;${code(to).slice(2)}`;
}

/**
 * One row's changed cells as terminal output, blessed's record of the screen brought up to date; '' when none changed.
 * `pen.attr`: the attribute the terminal has set as the row begins, and as it ends (a frame's rows carry it from one to
 * the next, which only moves the cursor between them: a row that goes on in the same style sets none).
 */
function drawLine(
  s: DrawScreen,
  y: number,
  code: (data: number) => string,
  wide: (ch: string) => number,
  pen: { attr: number },
): string {
  const { tput } = s;
  const line = s.lines[y];
  const o = s.olines[y];
  let out = '';
  let attr = pen.attr;
  let link: string | undefined;
  /** Where a run of unchanged cells began, or -1. */
  let skipped = -1;
  for (let x = 0; x < line.length; x++) {
    const cell = line[x];
    const data = cell[0];
    let ch = cell[1];
    const url = data & LINK_BIT ? cell[2] : undefined;
    const old = o[x];
    if (data === old[0] && ch === old[1] && url === old[2]) {
      if (skipped === -1) skipped = x;
      continue;
    }
    // The line's first change is reached by an absolute move; a later one past unchanged cells by a
    // relative one, or, past a few plain cells in the attribute already set, by writing them again:
    // cheaper than the move (the blanks between streamed words are such cells).
    if (out === '') out = tput.cup(y, x);
    else if (skipped !== -1) {
      let again = rewritable(line, skipped, x, attr, link);
      // The style changes at this cell anyway: changed before the gap, the gap may be written in it.
      if (again === null && data !== attr && url === link) {
        again = rewritable(line, skipped, x, data, link);
        if (again !== null) {
          out += restyle(attr, data, s.dattr, code);
          attr = data;
        }
      }
      out += again ?? (tput.strings.parm_right_cursor ? tput.cuf(x - skipped) : tput.cup(y, x));
    }
    skipped = -1;
    old[0] = data;
    old[1] = ch;
    old[2] = url;
    if (data !== attr) {
      out += restyle(attr, data, s.dattr, code);
      attr = data;
    }
    if (url !== link) {
      out += hyperlink(url ?? '');
      link = url;
    }
    // A wide character takes the next cell too, which is skipped; without room for it, a blank.
    // It is always written again, as blessed does, whatever the terminal made of it.
    if (wide(ch) === 2) {
      old[1] = '\0';
      if (x === line.length - 1) ch = ' ';
      else o[++x][1] = '\0';
    }
    out += ch;
  }
  pen.attr = attr;
  if (link !== undefined) out += hyperlink('');
  return out;
}

/** Replaces the screen's draw with milk's. `wide`: the cells a cell's text takes (blessed's patched charWidth). */
export function installDraw(screen: Widgets.Screen, wide: (ch: string) => number): void {
  const s = screen as unknown as DrawScreen;
  const codes = new Map<number, string>();
  const code = (data: number): string => {
    let c = codes.get(data);
    if (c === undefined) {
      c = sgr(data, (n) => s._reduceColor(n));
      codes.set(data, c);
    }
    return c;
  };
  s.draw = function draw(start: number, end: number): void {
    let main = s._buf;
    s._buf = '';
    const pen = { attr: s.dattr };
    for (let y = start; y <= end; y++) {
      const line = s.lines[y];
      if (!line.dirty) continue;
      line.dirty = false;
      main += drawLine(s, y, code, wide, pen);
    }
    // The frame leaves the terminal's attribute as it found it, for whatever writes after it.
    if (pen.attr !== s.dattr) main += '\x1b[m';
    if (!main) return;
    // No cursor save, hide, show and restore around the cells, as blessed wraps them: milk's painter
    // puts the cursor where the next character lands after every frame, and a frame is one write
    // inside DEC 2026 brackets, which a terminal shows whole. (One without them might show the
    // cursor crossing the frame for as long as it takes to read one write.)
    s.program._write(main);
  };
}

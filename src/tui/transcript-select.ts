// Selecting in the transcript: with the mouse (press and drag, a double click
// for a word, a triple click for a line; dragging past an edge scrolls) and
// in copy mode (Ctrl+X [: a cursor moved by keys, a selection started at it),
// copied on release or on y to the clipboard (tui/copy.ts). Also holds what a
// transcript search lights up. The geometry and the text are pure
// (selection.ts, the transcript model); this is the shell that keeps the
// state between events, owns the edge-scroll timer and asks for frames.

import type { CommandName } from '../composer/views/registry';
import type { EmojiWidths } from '../editor/width';
import type { MouseEvent } from './input';
import { Click, Point, Selected, SelRow, between, click, lineRows, selectedText, textCells, wordAt } from './selection';
import { PREFIX_WIDTH } from './transcript-entry';
import { cursorAfter } from './copy-cursor';
import { occurrences } from '../search/transcript-search';
import type { TranscriptModel, TranscriptRow } from './transcript-model';
import type { TranscriptMarks } from './views';

export interface SelectDeps {
  model: TranscriptModel;
  emoji: () => EmojiWidths;
  /** Where the transcript's rows are on the screen; null while a view is painted in its place. */
  area: () => { top: number; left: number; height: number } | null;
  /** Copies the text; what the status bar says of it. */
  copy: (text: string) => string;
  /** Says something in the status bar. */
  hint: (text: string) => void;
  render: () => void;
}

/** How often a drag held past the top or bottom edge scrolls a row. */
const EDGE_SCROLL_MS = 50;
/** Rows a triple click looks at, up and down, for the rest of a wrapped line. */
const LINE_REACH = 500;

export class TranscriptSelect {
  private sel: { anchor: Point; head: Point; epoch: number } | null = null;
  private dragging = false;
  /** Whether the drag moved off the cell it began on (a click alone selects nothing). */
  private moved = false;
  private last: Click | null = null;
  private edge: { timer: NodeJS.Timeout; dir: -1 | 1 } | null = null;
  /** Copy mode's cursor, while it is on; and where its selection began (v), if it did. */
  private cursor: Point | null = null;
  private mark: Point | null = null;
  private found: { query: string; serial: number | null; nth: number } | null = null;

  constructor(private readonly deps: SelectDeps) {}

  /** What the transcript lights up now. */
  marks(): TranscriptMarks | null {
    const { model } = this.deps;
    if (this.sel && this.sel.epoch !== model.epoch) this.sel = null;
    // Rows moved above the bottom (a new width, an entry laid out again): the cursor starts again on the last row.
    if (this.cursor && this.cursorEpoch !== model.epoch) {
      this.cursorEpoch = model.epoch;
      this.mark = null;
      this.cursor = model.rowCount === 0 ? null : { serial: model.serialOf(model.below), col: 0 };
    }
    const selection = this.selected();
    if (!selection && !this.cursor && !this.found) return null;
    const current = this.found?.serial != null ? { serial: this.found.serial, nth: this.found.nth } : null;
    return { query: this.found?.query ?? '', current, selection, cursor: this.cursor };
  }

  private selected(): Selected | null {
    if (this.cursor) return this.mark ? between(this.mark, this.cursor) : null;
    if (!this.sel || (!this.moved && this.dragging)) return null;
    return between(this.sel.anchor, this.sel.head);
  }

  // ------------------------------------------------------------------ the mouse

  mouse(event: MouseEvent, x: number, y: number, now: number): void {
    if (event === 'press') return this.press(x, y, now);
    if (!this.dragging) return;
    if (event === 'drag') return this.drag(x, y);
    this.stopEdge();
    this.dragging = false;
    if (this.moved && this.sel) this.copyNow(between(this.sel.anchor, this.sel.head));
    else this.sel = null;
    this.deps.render();
  }

  private press(x: number, y: number, now: number): void {
    const at = this.pointAt(x, y);
    this.stopEdge();
    if (!at || this.cursor) {
      // Off the transcript's rows (or in copy mode, which the keys drive): no selection.
      this.sel = null;
      this.dragging = false;
      return this.deps.render();
    }
    this.last = click(this.last, x, y, now);
    const epoch = this.deps.model.epoch;
    if (this.last.count === 1) {
      this.sel = { anchor: at, head: at, epoch };
      this.dragging = true;
      this.moved = false;
      return this.deps.render();
    }
    const range = this.last.count === 2 ? this.wordRange(at) : this.lineRange(at);
    this.sel = range ? { anchor: range.from, head: range.to, epoch } : null;
    this.dragging = false;
    if (range) this.copyNow(range);
    this.deps.render();
  }

  private drag(x: number, y: number): void {
    const area = this.deps.area();
    if (!area || !this.sel) return;
    const { model } = this.deps;
    const shown = this.shownRows(area.height);
    // On the first row with more above, or below the last with more below, the transcript scrolls under the drag.
    const dir = y <= area.top && model.below + shown < model.rowCount ? -1 : y >= area.top + shown ? 1 : 0;
    if (dir !== 0 && (dir < 0 || model.below > 0)) {
      if (!this.edge || this.edge.dir !== dir) this.startEdge(dir, x);
      return;
    }
    this.stopEdge();
    const at = this.pointAt(x, Math.min(y, area.top + shown - 1));
    if (!at) return;
    if (at.serial !== this.sel.anchor.serial || at.col !== this.sel.anchor.col) this.moved = true;
    this.sel = { ...this.sel, head: at };
    this.deps.render();
  }

  /** Scrolls a row now and every EDGE_SCROLL_MS while the drag stays past the edge, the selection following. */
  private startEdge(dir: -1 | 1, x: number): void {
    this.stopEdge();
    const step = (): void => {
      const area = this.deps.area();
      if (!area || !this.sel) return this.stopEdge();
      const { model } = this.deps;
      model.scroll(dir, area.height);
      const shown = this.shownRows(area.height);
      const at = this.pointAt(x, dir < 0 ? area.top : area.top + shown - 1);
      if (at) {
        this.sel = { ...this.sel, head: at };
        this.moved = true;
      }
      this.deps.render();
    };
    step();
    const timer = setInterval(step, EDGE_SCROLL_MS);
    timer.unref();
    this.edge = { timer, dir };
  }

  private stopEdge(): void {
    if (this.edge) clearInterval(this.edge.timer);
    this.edge = null;
  }

  /** The rows the transcript shows in a box this tall (fewer than the box while the transcript is short). */
  private shownRows(height: number): number {
    return Math.min(height, this.deps.model.rowCount);
  }

  /** The transcript row and cell under the screen cell (x, y); null off its rows. */
  private pointAt(x: number, y: number): Point | null {
    const area = this.deps.area();
    if (!area) return null;
    const shown = this.shownRows(area.height);
    const k = y - area.top;
    if (k < 0 || k >= shown) return null;
    const { model } = this.deps;
    const serial = model.serialOf(model.below + shown - 1 - k);
    return { serial, col: Math.max(0, x - area.left - PREFIX_WIDTH) };
  }

  // ------------------------------------------------------------------ rows by serial

  /** The rows from serial `from` to `to`, in order. */
  private rows(from: number, to: number): TranscriptRow[] {
    const { model } = this.deps;
    return model.rowsAbove(model.fromBottom(to), to - from + 1);
  }

  private row(serial: number): TranscriptRow | null {
    return this.rows(serial, serial)[0] ?? null;
  }

  private wordRange(at: Point): Selected | null {
    const row = this.row(at.serial);
    if (!row) return null;
    const w = wordAt(row.text, at.col, this.deps.emoji());
    if (w.to <= w.from) return null;
    return { from: { serial: at.serial, col: w.from }, to: { serial: at.serial, col: w.to - 1 } };
  }

  /** The whole line under a point: the rows a soft wrap made of it. */
  private lineRange(at: Point): Selected | null {
    const { model } = this.deps;
    const top = Math.max(model.serialOf(model.rowCount - 1), at.serial - LINE_REACH);
    const rows = this.rows(top, at.serial + Math.min(LINE_REACH, model.fromBottom(at.serial)));
    const k = at.serial - top;
    if (!rows[k]) return null;
    const [a, b] = lineRows(rows, k);
    const end = textCells(rows[b].text, this.deps.emoji());
    return { from: { serial: top + a, col: 0 }, to: { serial: top + b, col: Math.max(0, end - 1) } };
  }

  /** The text of a selection, copied; the status bar says so. */
  private copyNow(sel: Selected): void {
    const rows: SelRow[] = this.rows(sel.from.serial, sel.to.serial);
    const text = selectedText(rows, sel, this.deps.emoji());
    if (text) this.deps.hint(this.deps.copy(text));
  }

  // ------------------------------------------------------------------ copy mode

  private cursorEpoch = 0;

  /** Copy mode begins: the cursor on the view's last row. */
  enterCopyMode(): void {
    const { model } = this.deps;
    this.sel = null;
    this.cursorEpoch = model.epoch;
    this.cursor = model.rowCount === 0 ? null : { serial: model.serialOf(model.below), col: 0 };
    this.deps.render();
  }

  get inCopyMode(): boolean {
    return this.cursor !== null;
  }

  leaveCopyMode(): void {
    this.cursor = this.mark = null;
    this.deps.render();
  }

  /** A copy-mode key: the cursor moves, a selection starts or ends, or is copied (then copy mode ends: true). */
  copyKey(name: CommandName): boolean {
    const cursor = this.cursor;
    if (!cursor) return true;
    if (name === 'copy.yank') {
      const sel = this.mark ? between(this.mark, cursor) : this.lineRange(cursor);
      if (sel) this.copyNow(sel);
      this.leaveCopyMode();
      return true;
    }
    if (name === 'copy.exit') {
      this.leaveCopyMode();
      return true;
    }
    if (name === 'copy.mark') this.mark = this.mark ? null : cursor;
    else this.cursor = this.moveCursor(name, cursor);
    this.follow();
    this.deps.render();
    return false;
  }

  /** The cursor after a move key (tui/copy-cursor.ts). */
  private moveCursor(name: CommandName, at: Point): Point {
    const { model } = this.deps;
    const rows = {
      first: model.serialOf(model.rowCount - 1),
      last: model.serialOf(0),
      text: (serial: number) => this.row(serial)?.text ?? '',
    };
    const page = Math.max(1, (this.deps.area()?.height ?? 2) - 1);
    return cursorAfter(name, at, rows, { page, emoji: this.deps.emoji() });
  }

  /** The view scrolled so the cursor is in it. */
  private follow(): void {
    const area = this.deps.area();
    if (!area || !this.cursor) return;
    const { model } = this.deps;
    const fb = model.fromBottom(this.cursor.serial);
    const below = model.below;
    if (fb < below) model.scroll(below - fb, area.height);
    else if (fb >= below + area.height) model.scroll(-(fb - below - area.height + 1), area.height);
  }

  /** Copy mode's cursor goes to a search's match: the `nth` of `query` along the line that starts at row `serial`. */
  cursorTo(serial: number, query: string, nth: number): void {
    if (!this.cursor) return;
    const emoji = this.deps.emoji();
    const { model } = this.deps;
    const rows = this.rows(serial, serial + Math.min(LINE_REACH, model.fromBottom(serial)));
    let seen = 0;
    this.cursor = { serial, col: 0 };
    for (let k = 0; k < rows.length && (k === 0 || rows[k].cont !== undefined); k++) {
      const hits = occurrences(rows[k].text, query);
      if (seen + hits.length > nth) {
        const at = hits[nth - seen][0];
        this.cursor = { serial: serial + k, col: textCells(rows[k].text.slice(0, at), emoji) };
        break;
      }
      seen += hits.length;
    }
    this.deps.render();
  }

  /** Copy mode's cursor (null outside copy mode): a search from it starts there, and puts it back when left. */
  get cursorAt(): Point | null {
    return this.cursor;
  }

  set cursorAt(at: Point | null) {
    if (this.cursor && at) this.cursor = at;
    this.deps.render();
  }

  // ------------------------------------------------------------------ a search's marks

  /** A transcript search lights up `query`'s matches, the one at `serial` (its line's `nth`) apart; null: none now. */
  setFound(found: { query: string; serial: number | null; nth: number } | null): void {
    this.found = found;
    this.deps.render();
  }

  /** Ends whatever is going on (a new conversation, the screen given away). */
  reset(): void {
    this.stopEdge();
    this.sel = null;
    this.dragging = false;
    this.cursor = this.mark = null;
    this.found = null;
  }
}

// Markdown that arrives in chunks. Only the last top-level block can still
// change, so each update parses and renders just the text from where that
// block starts; the blocks before it are rendered once and frozen, their rows
// never touched again. The result equals rendering the whole text at once.
// Rendering waits until rows are asked for, so a burst of chunks costs one
// parse per paint, not one per chunk. Pure.

import type Token from 'markdown-it/lib/token.mjs';
import { MdOptions, MdRow, blockStarts, renderBlocks } from './render';
import { markdown } from './parsers';
import type { EmojiWidths } from '../editor/width';
import { wrapSpans } from './wrap';
import { pushAll } from '../arrays';

function offsetOfLine(text: string, line: number): number {
  let at = 0;
  for (let k = 0; k < line; k++) {
    const nl = text.indexOf('\n', at);
    if (nl === -1) return text.length;
    at = nl + 1;
  }
  return at;
}

const LARGE_BLOCK = 64 * 1024;
const WINDOW = 16 * 1024;
/** Windows one streaming frame renders at most (see update): about 15 ms of parsing and layout here. */
const WINDOWS_PER_FRAME = 1;
/**
 * An unfinished block past this is no longer Markdown to milk: it is shown
 * as plain text, wrapped as it comes, and every row but the last is frozen
 * at once. Parsing it again as it grows (and holding its tokens) would cost
 * the keyboard seconds and the heap several times the block's size.
 */
export const HUGE_BLOCK = 128 * 1024;

export class MarkdownStream {
  /** Everything pushed, as it came (joined only when all of it must be rendered again). */
  private parts: string[] = [];
  private length = 0;
  /** The text not yet frozen: kept apart so a frame never copies the whole answer. */
  private rest = '';
  private frozen: MdRow[] = [];
  private tail: MdRow[] = [];
  private dirty = true;
  /** How much text the last render saw. */
  private renderedAt = 0;
  /** The block being shown as plain text (see HUGE_BLOCK), until a blank line ends it. */
  private plain = false;

  /** A burst was cut off at WINDOWS_PER_FRAME: the rest of it waits for the next frame. */
  private behind = false;
  /** This frame's windows are spent (see nextFrame). */
  private spent = false;
  /** No more text will come (settle()): a table still growing is drawn, not held. */
  private complete = false;

  constructor(private width: number, private emoji: EmojiWidths, private readonly options: MdOptions = {}) {}

  get text(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join('')];
    return this.parts[0] ?? '';
  }

  push(text: string): void {
    if (!text) return;
    this.parts.push(text);
    this.complete = false;
    this.length += text.length;
    this.rest += text;
    this.dirty = true;
  }

  /** Renders everything again at a new width, or for a terminal that draws emoji sequences otherwise. */
  setLayout(width: number, emoji: EmojiWidths): void {
    if (width === this.width && emoji === this.emoji) return;
    this.width = width;
    this.emoji = emoji;
    this.invalidate();
    // All of it at once, as before the change: shown a window a frame, the view would start at the answer's top.
    this.update(true, true);
  }

  /** Renders everything again (how wide some characters are changed). */
  private invalidate(): void {
    this.frozen = [];
    this.rest = this.text;
    this.dirty = true;
    this.renderedAt = 0;
    this.plain = false;
  }

  /** A new frame: a burst half rendered may take its next windows (the rows asked for within one frame take them once). */
  nextFrame(): void {
    this.spent = false;
  }

  /** A burst bigger than a frame takes is half rendered: another frame would show more without more text. */
  get pending(): boolean {
    return this.behind;
  }

  /** Rows that will never change again (grows only). */
  frozenRows(): readonly MdRow[] {
    this.update();
    return this.frozen;
  }

  /** Rows of the block still growing, with the blank row that separates it from the frozen ones. */
  tailRows(): readonly MdRow[] {
    this.update();
    return this.frozen.length && this.tail.length && !this.plain ? [[], ...this.tail] : this.tail;
  }

  /** Every row, the whole answer rendered now however much of a burst was left. */
  rows(): MdRow[] {
    this.settleAll();
    return [...this.frozenRows(), ...this.tailRows()];
  }

  /** The answer is complete and is rendered whole now (an answer added at once: a resumed one). */
  settleAll(): void {
    this.settle();
    if (this.dirty) this.update(true, true);
  }

  /**
   * The answer is complete: whatever arrived is rendered, however little (a
   * table held is drawn). What is left of a burst still takes a window a
   * frame: the end of an answer does not hold the keys for all of it.
   */
  settle(): void {
    if (!this.complete) {
      this.complete = true;
      this.dirty = true;
    }
    if (this.dirty) this.update(true);
  }

  /** `force`: render what arrived even if little (see LARGE_BLOCK); `all`: every window of a burst at once. */
  private update(force = false, all = false): void {
    if (!this.dirty || (this.spent && !all)) return;
    if (this.plain) {
      this.updatePlain();
      if (this.plain) return;
    }
    // A block that keeps growing past LARGE_BLOCK (one huge paragraph) is rendered again only
    // after it grew by a quarter: otherwise each paint would parse it all again.
    const growing = this.rest.length;
    if (!force && !this.behind && growing > LARGE_BLOCK && this.length - this.renderedAt < growing / 4) return;
    this.dirty = false;
    this.renderedAt = this.length;
    // Much text at once (a burst that came between two paints) is taken a window at a time, as
    // if it had streamed in: the tokens of each window die young, which keeps the collector cheap.
    // A window holding one unfinished block means a block bigger than it: the rest is taken whole.
    // While the answer streams, one frame takes at most WINDOWS_PER_FRAME of them and the rows shown
    // catch up over the next frames: a frame never holds the keys for the whole burst.
    for (let windows = 0; this.rest.length > WINDOW; windows++) {
      if (!all && windows === WINDOWS_PER_FRAME) {
        // The tail shown so far may be frozen now: nothing shows below the frozen rows until the rest is rendered.
        this.tail = [];
        this.dirty = true;
        this.behind = true;
        this.spent = true;
        return;
      }
      const cut = this.rest.lastIndexOf('\n', WINDOW);
      if (cut <= 0 || !this.freeze(this.rest.slice(0, cut + 1), false)) break;
    }
    this.behind = false;
    // One block (no blank line) past HUGE_BLOCK: plain text from here to its end.
    if (this.rest.length > HUGE_BLOCK && this.rest.lastIndexOf('\n\n', HUGE_BLOCK) === -1) this.updatePlain();
    if (this.plain) return;
    this.freeze(this.rest, true);
  }

  /**
   * The huge block, as plain text: the lines up to a blank line (which ends
   * it) are wrapped, every row but the last frozen and its text dropped from
   * `rest`; the last row's text stays there for the next update. Rows before
   * the last never change as text is appended to a greedy wrap.
   */
  private updatePlain(): void {
    this.dirty = false;
    this.renderedAt = this.length;
    const end = this.rest.indexOf('\n\n');
    const block = end === -1 ? this.rest : this.rest.slice(0, end + 1);
    const rows: MdRow[] = [];
    for (const line of block.split('\n')) pushAll(rows, wrapSpans([{ text: line, style: 'normal' }], this.width, this.emoji));
    if (!this.plain && this.frozen.length) this.frozen.push([]);
    this.plain = true;
    if (end !== -1) {
      // The block is over: all of it is frozen, and what follows is Markdown again.
      pushAll(this.frozen, rows.slice(0, -1));
      this.rest = this.rest.slice(end + 2);
      this.plain = false;
      this.tail = [];
      this.dirty = true;
      return;
    }
    // The last row, and the text it holds, stays open.
    const last = rows[rows.length - 1] ?? [];
    pushAll(this.frozen, rows.slice(0, -1));
    const lastText = last.map((span) => span.text).join('');
    const lastLineStart = block.lastIndexOf('\n') + 1;
    const at = Math.max(lastLineStart, block.lastIndexOf(lastText));
    this.rest = lastText ? block.slice(at) : '';
    this.tail = last.length ? [last] : [];
  }

  /**
   * Renders the complete blocks of `text` (the start of `rest`) into frozen rows and drops them
   * from `rest`; with `last`, renders the final block as the tail. False when nothing was frozen.
   */
  private freeze(text: string, last: boolean): boolean {
    const tokens = markdown().parse(text, {});
    const starts = blockStarts(tokens);
    const lastAt = starts[starts.length - 1] ?? 0;
    const start = tokens[lastAt]?.map?.[0];
    if (starts.length < 2 || start === undefined) {
      if (last) this.tail = this.renderTail(tokens);
      return false;
    }
    const done = renderBlocks(tokens.slice(0, lastAt), this.width, this.emoji, false, this.options);
    if (done.length) {
      if (this.frozen.length) this.frozen.push([]);
      for (const row of done) this.frozen.push(row);
    }
    this.rest = this.rest.slice(offsetOfLine(text, start));
    if (last) this.tail = this.renderTail(tokens.slice(lastAt));
    return true;
  }

  /**
   * The block still growing. A table is held while it grows: its columns'
   * widths depend on every row, so a grid drawn from the rows so far would
   * change width under the reader as later rows came (or, with its widths
   * fixed early, squeeze every later long cell into them). In its place a
   * line counts its rows; the grid is drawn once, when the table is complete
   * (a block after it began, or the answer ended).
   */
  private renderTail(tokens: readonly Token[]): MdRow[] {
    if (this.complete || tokens[0]?.type !== 'table_open') return renderBlocks(tokens, this.width, this.emoji, false, this.options);
    // The header row is not counted.
    const rows = Math.max(0, tokens.filter((t) => t.type === 'tr_open').length - 1);
    const cols = tokens.filter((t) => t.type === 'th_open').length;
    return [[{ text: `▎ a table, ${cols} column${cols === 1 ? '' : 's'}, ${rows} row${rows === 1 ? '' : 's'} so far…`, style: 'dim' }]];
  }
}

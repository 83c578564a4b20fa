// Markdown that arrives in chunks. Only the last top-level block can still
// change, so each update parses and renders just the text from where that
// block starts; the blocks before it are frozen, cut into segments of their
// source, and never change again. A segment is rendered when its rows are
// first asked for, so the part of a long answer that scrolled past unseen
// costs a scan for where its blocks start, not a render. The rows equal
// rendering the whole text at once. Work waits until rows are asked for, so
// a burst of chunks costs one parse per paint, not one per chunk. Pure.

import type Token from 'markdown-it/lib/token.mjs';
import { renderBlocks, renderMarkdown } from './render';
import { holdGrowingTable } from './held-table';
import type { MdOptions, MdRow } from './inline';
import { markdown } from './parsers';
import { blockCuts } from './cuts';
import { Backlog } from './backlog';
import type { EmojiWidths } from '../editor/width';
import { wrapSpans } from './wrap';
import { pushAll } from '../kernel/arrays';
import { sanitize } from '../protocol/inert';

const LARGE_BLOCK = 64 * 1024;
const WINDOW = 16 * 1024;
/** Windows one streaming frame scans at most (see update): about 3 ms of finding where blocks start here. */
const WINDOWS_PER_FRAME = 4;
/** The most of a burst one frame takes. */
export const BURST_PER_FRAME = WINDOW * WINDOWS_PER_FRAME;
/** Complete blocks are kept together in segments of about this much source: fewer parses when they are rendered. */
const SEGMENT = 2048;
/**
 * An unfinished block past this is no longer Markdown to milk: it is shown
 * as plain text, wrapped as it comes, and every row but the last is frozen
 * at once. Parsing it again as it grows (and holding its tokens) would cost
 * the keyboard seconds and the heap several times the block's size.
 */
export const HUGE_BLOCK = 128 * 1024;

/** Complete blocks of an answer, rendered when first asked for. */
interface Segment {
  /** Their source; empty for rows of a huge block shown as plain text (rendered as they came). */
  readonly text: string;
  /** Its rows once rendered, after the blank row that separates it from the segment before. */
  rows: MdRow[] | null;
  /** A guess at its rows before it is rendered: its source's lines. */
  readonly lines: number;
}

function linesOf(text: string): number {
  let n = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < text.length - 1; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

export class MarkdownStream {
  /** Everything pushed, as it came (joined only when all of it must be rendered again). */
  private parts: string[] = [];
  private length = 0;
  /** The text not yet frozen: kept apart so a frame never copies the whole answer. */
  private readonly rest = new Backlog();
  private segments: Segment[] = [];
  private tail: MdRow[] = [];
  private dirty = true;
  /** How much text the last render saw. */
  private renderedAt = 0;
  /** The block being shown as plain text (see HUGE_BLOCK), until a blank line ends it. */
  private plain = false;
  /** Some segment holds rows of a plain block, which only a render from the start can lay out again. */
  private hasPlain = false;
  /** The plain block has a segment already: its next rows join it. */
  private plainOpen = false;

  /** A burst was cut off at WINDOWS_PER_FRAME: the rest of it waits for the next frame. */
  private behind = false;
  /** This frame's windows are spent (see nextFrame). */
  private spent = false;
  /** No more text will come (settle()): a table still growing is drawn, not held. */
  private complete = false;

  constructor(
    private width: number,
    private emoji: EmojiWidths,
    private readonly options: MdOptions = {},
  ) {}

  get text(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join('')];
    return this.parts[0] ?? '';
  }

  push(text: string): void {
    if (!text) return;
    this.parts.push(text);
    this.complete = false;
    this.length += text.length;
    this.rest.push(text);
    this.dirty = true;
  }

  /** Lays everything out again at a new width, or for a terminal that draws emoji sequences otherwise. */
  setLayout(width: number, emoji: EmojiWidths): void {
    if (width === this.width && emoji === this.emoji) return;
    this.width = width;
    this.emoji = emoji;
    this.invalidate();
    // All of it at once, as before the change: shown a window a frame, the view would start at the answer's top.
    this.update(true, true);
  }

  /** Everything is rendered again when next asked for (how wide some characters are changed). */
  private invalidate(): void {
    this.dirty = true;
    this.renderedAt = 0;
    if (!this.hasPlain && !this.plain) {
      // Where blocks start does not depend on the width: the segments stay, their rows go.
      for (const segment of this.segments) segment.rows = null;
      return;
    }
    this.segments = [];
    this.rest.set(this.text);
    this.plain = false;
    this.hasPlain = false;
  }

  /**
   * A new frame: a burst half rendered may take its next windows (the rows asked for within one frame take them once).
   */
  nextFrame(): void {
    this.spent = false;
  }

  /** A burst bigger than a frame takes is half rendered: another frame would show more without more text. */
  get pending(): boolean {
    return this.behind;
  }

  /** How many segments are frozen (grows only). */
  segmentCount(): number {
    this.update();
    return this.segments.length;
  }

  /** A frozen segment's rows (rendered now if they were not), with the blank row before it. */
  segmentRows(i: number): readonly MdRow[] {
    const segment = this.segments[i];
    if (!segment) return [];
    if (!segment.rows) {
      const rows = renderMarkdown(segment.text, this.width, this.emoji, this.options);
      segment.rows = i > 0 && rows.length ? [[], ...rows] : rows;
    }
    return segment.rows;
  }

  /** A segment's rows if rendered, or a guess at them: for a scroll bar's length, never for a row shown. */
  segmentGuess(i: number): number {
    const segment = this.segments[i];
    return segment ? (segment.rows?.length ?? segment.lines + (i > 0 ? 1 : 0)) : 0;
  }

  /** Rows that will never change again (grows only): every segment rendered. */
  frozenRows(): readonly MdRow[] {
    const rows: MdRow[] = [];
    for (let i = 0; i < this.segmentCount(); i++) pushAll(rows, this.segmentRows(i));
    return rows;
  }

  /** Rows of the block still growing, with the blank row that separates it from the frozen ones. */
  tailRows(): readonly MdRow[] {
    this.update();
    return this.segments.length && this.tail.length && !this.plain ? [[], ...this.tail] : this.tail;
  }

  /** Every row, the whole answer rendered now however much of a burst was left. */
  rows(): MdRow[] {
    this.settleAll();
    return [...this.frozenRows(), ...this.tailRows()];
  }

  /** The answer is complete and is laid out whole now (an answer added at once: a resumed one). */
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
    // if it had streamed in: where its blocks start is found a window at a time, and only the rest
    // after the last is parsed. A window without a place to cut means a block bigger than it: the
    // rest is taken whole. While the answer streams, one frame takes at most WINDOWS_PER_FRAME of
    // them and the rows shown catch up over the next frames: a frame never holds the keys for the whole burst.
    for (let windows = 0; this.rest.length > WINDOW; windows++) {
      if (!all && windows === WINDOWS_PER_FRAME) {
        // The tail shown so far may be frozen now: nothing shows below the frozen rows until the rest is scanned.
        this.tail = [];
        this.dirty = true;
        this.behind = true;
        this.spent = true;
        return;
      }
      const front = this.rest.front(WINDOW + 1);
      const cut = front.lastIndexOf('\n', WINDOW);
      if (cut <= 0 || !this.freeze(front.slice(0, cut + 1), false)) break;
    }
    this.behind = false;
    // One block (no blank line) past HUGE_BLOCK: plain text from here to its end.
    if (this.rest.length > HUGE_BLOCK && this.rest.front(HUGE_BLOCK + 2).lastIndexOf('\n\n', HUGE_BLOCK) === -1)
      this.updatePlain();
    if (this.plain) return;
    this.freeze(this.rest.all(), true);
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
    const rest = this.rest.all();
    const end = rest.indexOf('\n\n');
    const block = end === -1 ? rest : rest.slice(0, end + 1);
    const rows: MdRow[] = [];
    for (const line of block.split('\n'))
      pushAll(rows, wrapSpans([{ text: sanitize(line), style: 'normal' }], this.width, this.emoji));
    if (!this.plain) this.plainOpen = false;
    this.plain = true;
    if (end !== -1) {
      // The block is over: all of it is frozen, and what follows is Markdown again.
      this.freezePlain(rows.slice(0, -1));
      this.rest.drop(end + 2);
      this.plain = false;
      this.tail = [];
      this.dirty = true;
      return;
    }
    // The last row, and the text it holds, stays open.
    const last = rows[rows.length - 1] ?? [];
    this.freezePlain(rows.slice(0, -1));
    const lastText = last.map((span) => span.text).join('');
    const lastLineStart = block.lastIndexOf('\n') + 1;
    const at = Math.max(lastLineStart, block.lastIndexOf(lastText));
    this.rest.set(lastText ? block.slice(at) : '');
    this.tail = last.length ? [last] : [];
  }

  /** Rows of the plain block as a segment: the block's first, after a blank row, or more of it. */
  private freezePlain(rows: MdRow[]): void {
    if (!rows.length) return;
    this.hasPlain = true;
    // A blank row before the block's first rows; its later rows continue it.
    const separate = !this.plainOpen && this.segments.length > 0;
    this.plainOpen = true;
    this.segments.push({ text: '', rows: separate ? [[], ...rows] : rows, lines: rows.length });
  }

  /**
   * Freezes the complete blocks of `text` (the start of `rest`) as segments and drops them from
   * `rest`; with `last`, renders the blocks after the last cut as the tail. False when nothing was
   * frozen. Only where blocks start is found here: the frozen blocks are parsed when their rows
   * are first asked for.
   */
  private freeze(text: string, last: boolean): boolean {
    const cuts = blockCuts(text);
    const end = cuts[cuts.length - 1];
    if (end === undefined) {
      if (last) this.tail = this.renderTail(markdown().parse(text, {}));
      return false;
    }
    let from = 0;
    for (const at of cuts) {
      if (at - from < SEGMENT && at !== end) continue;
      this.pushSegment(text.slice(from, at));
      from = at;
    }
    this.rest.drop(end);
    if (last) this.tail = this.renderTail(markdown().parse(text.slice(end), {}));
    return true;
  }

  private pushSegment(text: string): void {
    this.segments.push({ text, rows: null, lines: linesOf(text) });
  }

  /** The blocks still growing; a table among them held until it is complete (held-table.ts). */
  private renderTail(tokens: readonly Token[]): MdRow[] {
    const shown = this.complete ? tokens : holdGrowingTable(tokens);
    return renderBlocks(shown, this.width, this.emoji, false, this.options);
  }
}

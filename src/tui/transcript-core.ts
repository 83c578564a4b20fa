// The transcript as data: entries and their rows wrapped to the screen width (the view over them and the search's side
// of it are transcript-model.ts's). The model's answers
// are Markdown, rendered as they stream: only the block still growing is rendered again, when rows are next asked for.
// Other appends re-wrap only the growing line, and the view asks for just the visible rows, so a long transcript never
// slows a keystroke. Once the view's height is known (setHeight), an answer's complete blocks are rendered only when
// the view reaches them: a burst that scrolls past while the view follows the bottom costs a scan, not a render, and so
// does laying a long transcript out again at a new width. Pure: no blessed, no I/O.

import { MarkdownStream } from '../markdown/stream';
import type { MdOptions } from '../markdown/inline';
import { CLUSTERING, EmojiWidths } from '../editor/width';
import {
  Entry,
  EntryKind,
  PREFIX_WIDTH,
  TranscriptRow,
  fillHole,
  foldable,
  folds,
  layoutEntry,
  syncAnswer,
} from './transcript-entry';
import { pushAll } from '../kernel/arrays';
import { type Inert, linesOf, own } from '../protocol/inert';
import { ViewPosition } from './view-position';
import { scrollbackOf, wrapAppended } from './transcript-rows';

export type { EntryKind, TranscriptRow };

export class TranscriptCore {
  protected entries: Entry[] = [];
  /** Markdown entries that received text since their rows were last brought up to date. */
  private readonly dirty = new Set<number>();
  /** The entries' rows laid out, all together (an answer's hole not counted: see AnswerRows). */
  protected count = 0;
  private width: number;
  /** The view's rows; 0 until told, and then every row is laid out as it comes. */
  protected height = 0;
  /** How the terminal draws emoji sequences: text is laid out that way. */
  private emoji: EmojiWidths = CLUSTERING;
  /** See beginFrame(). */
  private paced = false;
  /** Where the view is, and the serials of its rows. */
  protected readonly view = new ViewPosition();
  /** Changes with every change of text or layout: the search's corpus is made again after one. */
  protected changes = 0;

  /** `markdown`: how answers are drawn beyond their width (strike-through's marks kept without colour). */
  /** `foldKey`: the key that unfolds a long tool output, as bound (the fold's marker names it). */
  constructor(
    width: number,
    private readonly markdown: MdOptions = {},
    private readonly foldKey = 'Ctrl+O',
  ) {
    this.width = Math.max(PREFIX_WIDTH + 1, width);
  }

  /** Rows of the whole transcript, the ones of answers not laid out yet guessed (see AnswerRows). */
  get rowCount(): number {
    this.sync();
    let guess = 0;
    for (const e of this.entries) guess += e.md?.guess ?? 0;
    return this.count + guess;
  }

  /** Adds an entry; returns its index for later appends. */
  add(kind: EntryKind, text: Inert, options: { markdown?: boolean } = {}): number {
    this.sync();
    const entry: Entry = { kind, lines: linesOf(text), rows: [], tailRows: 0 };
    if (kind === 'assistant' && options.markdown !== false) {
      // An answer added whole (a resumed one) is complete; one that streams starts empty.
      entry.md = this.answerRows(text, text !== '');
    }
    this.entries.push(entry);
    const index = this.entries.length - 1;
    layoutEntry(entry, index, this.width, this.emoji, this.foldKey);
    this.count += entry.rows.length;
    const filled = this.laidOut(index);
    this.view.keepStill(entry.rows.length);
    this.moved(index, entry.rows.length + filled);
    return index;
  }

  /** The conversation as plain lines for the terminal's scrollback once milk has quit (transcript-rows.ts). */
  scrollback(which: 'all' | 'last'): Array<{ kind: EntryKind | 'gap'; text: string }> {
    return scrollbackOf(this.entries, which);
  }

  /** Appends streamed text to an entry. */
  append(index: number, text: Inert): void {
    const entry = this.entries[index];
    if (!entry || !text) return;
    this.changes++;
    if (entry.md) {
      // Rendered when rows are next asked for: one parse per paint, however many chunks came.
      entry.md.stream.push(text);
      entry.md.dirty = true;
      this.dirty.add(index);
      return;
    }
    const before = entry.rows.length;
    const parts = linesOf(text);
    entry.lines[entry.lines.length - 1] = own`${entry.lines[entry.lines.length - 1]}${parts[0]}`;
    pushAll(entry.lines, parts.slice(1));
    if (folds(entry)) {
      // Folded: only the head, the count and the tail are laid out, however long the output grows.
      return this.relayoutEntry(index);
    }
    if (index === this.entries.length - 1) wrapAppended(entry, parts, this.width, this.emoji);
    else layoutEntry(entry, index, this.width, this.emoji, this.foldKey);
    this.count += entry.rows.length - before;
    this.view.keepStill(entry.rows.length - before);
    this.moved(index, entry.rows.length - before);
  }

  /**
   * Renders answers added as plain text (older parts of a resumed conversation) as Markdown, all at once: rows above
   * the view change, the view does not.
   */
  renderMarkdown(indices: readonly number[]): void {
    this.sync();
    for (const i of indices) {
      const entry = this.entries[i];
      if (!entry || entry.kind !== 'assistant' || entry.md) continue;
      entry.md = this.answerRows(entry.lines.join('\n'), true);
      this.relayoutEntry(i);
    }
  }

  /** An answer's Markdown, `text` pushed into it; `whole`: it is complete. */
  private answerRows(text: string, whole: boolean): NonNullable<Entry['md']> {
    const stream = new MarkdownStream(this.width - PREFIX_WIDTH, this.emoji, this.markdown);
    stream.push(text);
    if (whole) stream.settleAll();
    return { stream, lo: 0, hi: 0, seen: 0, holeAt: 0, guess: 0, tail: 0, dirty: false };
  }

  /**
   * An answer's hole may wait for the view only while the view follows the bottom: scrolled back, rows laid out later
   * below the view would move it, so the entry at `index` is laid out whole now. Returns the rows added.
   */
  private laidOut(index: number): number {
    const entry = this.entries[index];
    if (!entry?.md || (this.height > 0 && this.view.following)) return 0;
    const added = fillHole(entry, Infinity);
    this.count += added;
    return added;
  }

  /** An answer is complete: whatever of it is not rendered yet is rendered now. */
  settle(index: number): void {
    const md = this.entries[index]?.md;
    if (!md) return;
    md.stream.settle();
    md.dirty = true;
    this.dirty.add(index);
  }

  /** Replaces an entry's text (a tool block's status changing in place); `kind`: what it becomes (a thought). */
  replace(index: number, text: Inert, kind?: EntryKind): void {
    const entry = this.entries[index];
    if (!entry || entry.md) return;
    if (kind) entry.kind = kind;
    entry.lines = linesOf(text);
    this.relayoutEntry(index);
  }

  /** Expands the newest foldable entry (a long output or result, a thought), or folds it again; false: none. */
  toggleLastFold(): boolean {
    this.sync();
    let i = this.entries.length - 1;
    while (i >= 0 && !foldable(this.entries[i])) i--;
    if (i < 0) return false;
    this.entries[i].expanded = !this.entries[i].expanded;
    this.relayoutEntry(i);
    return true;
  }

  protected relayoutEntry(index: number): void {
    const entry = this.entries[index];
    const before = entry.rows.length;
    layoutEntry(entry, index, this.width, this.emoji, this.foldKey);
    this.count += entry.rows.length - before;
    const filled = this.laidOut(index);
    this.view.keepStill(entry.rows.length - before + filled);
    this.moved(index, entry.rows.length - before + filled);
  }

  /**
   * Rows of entry `index` changed by `delta`: at the bottom (the last entry) the transcript grew there; anywhere else
   * the rows above it moved, and serials lapse.
   */
  private moved(index: number, delta: number): void {
    this.changes++;
    this.view.moved(index === this.entries.length - 1, delta);
  }

  setWidth(width: number): void {
    this.sync();
    const w = Math.max(PREFIX_WIDTH + 1, width);
    if (w === this.width) return;
    this.width = w;
    this.relayout();
  }

  /** The view's height: from now on, rows of answers are laid out only as the view reaches them. */
  setHeight(height: number): void {
    this.height = Math.max(1, height);
  }

  /** Empties the view (a new or resumed conversation). */
  clear(): void {
    this.dirty.clear();
    this.entries = [];
    this.count = 0;
    this.view.cleared();
    this.changes++;
  }

  /** Lays everything out again for a terminal that draws emoji sequences this way (the width probe's answer). */
  setEmoji(emoji: EmojiWidths): void {
    this.sync();
    if (emoji === this.emoji) return;
    this.emoji = emoji;
    this.relayout();
  }

  /** Wraps every entry again (the width changed, or how wide some characters are). */
  private relayout(): void {
    this.changes++;
    this.count = 0;
    this.entries.forEach((e, i) => {
      layoutEntry(e, i, this.width, this.emoji, this.foldKey);
      this.count += e.rows.length;
      this.laidOut(i);
    });
    this.view.relaidOut(this.count);
  }

  /** Brings Markdown entries that received text up to date; for the last entry only its changing rows move. */
  protected sync(): void {
    if (this.dirty.size === 0) return;
    const lastIndex = this.entries.length - 1;
    const indices = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    for (const i of indices) {
      const entry = this.entries[i];
      const md = entry?.md;
      if (!md?.dirty) continue;
      md.dirty = false;
      if (!this.paced) md.stream.nextFrame();
      if (i !== lastIndex) {
        this.relayoutEntry(i);
        continue;
      }
      // Following the bottom, only the newest rows that fill the view are rendered; scrolled back, all of them (see
      // laidOut).
      const added = syncAnswer(entry, this.height > 0 && this.view.following ? this.height : null);
      this.count += added;
      this.moved(i, added);
      this.view.keepStill(added);
      // A burst is rendered over several frames: the next one takes up where this one stopped.
      if (md.stream.pending) {
        md.dirty = true;
        this.dirty.add(i);
      }
    }
  }

  /**
   * A frame begins: with `render`, each answer may render its next window of a burst, once, however often the frame
   * asks for rows; without it (a key's frame right after one that did), the rows stay as they are and the frame costs
   * only its paint. The painter decides, by the clock. Until this is first called, every request for rows may take a
   * window.
   */
  beginFrame(render: boolean): void {
    this.paced = true;
    if (!render) return;
    for (const i of this.dirty) this.entries[i]?.md?.stream.nextFrame();
  }

  /** Some answer has text not yet rendered: another frame is wanted. */
  get pending(): boolean {
    return this.dirty.size > 0;
  }
}

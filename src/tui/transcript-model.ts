// The transcript as data (transcript-core.ts) seen through a view: the rows a box shows, scrolling (answers' rows laid
// out only as the view reaches them), the serials a selection keeps to; and the search's side of it: every line as
// one corpus, made again only after the transcript changed; a match's line brought into view, its entry unfolded to
// show it and folded again when the search is left. Pure: no blessed, no I/O.

import { type TranscriptRow, folds } from './transcript-entry';
import type { LineRef } from '../search/transcript-search';
import type { SavedView } from './view-position';
import { revealHoles, rowOf, rowsAbove, searchCorpus } from './transcript-rows';
import { TranscriptCore } from './transcript-core';

export type { EntryKind, TranscriptRow } from './transcript-entry';

export class TranscriptModel extends TranscriptCore {
  /** The corpus as last made, and the changes count it was made at. */
  private corpus: { at: number; lines: string[]; refs: LineRef[] } | null = null;
  /** Entries a search unfolded to show a match (folded again when it is left with Esc). */
  private unfolded = new Set<number>();

  /**
   * Every line of the transcript for a search, each with its entry and line: an entry's lines whole (folded or not),
   * an answer's as its rendered rows (all of them laid out now). Made again only after the transcript changed.
   */
  searchLines(): { lines: readonly string[]; refs: readonly LineRef[] } {
    this.sync();
    if (this.corpus && this.corpus.at === this.changes) return this.corpus;
    const { lines, refs, filled } = searchCorpus(this.entries);
    this.count += filled;
    this.corpus = { at: this.changes, lines, refs };
    return this.corpus;
  }

  /** Where the view is, for a search to go back to (restoreView). */
  saveView(): SavedView {
    this.sync();
    return this.view.save();
  }

  /** The view as it was saved, and the entries the search unfolded folded again. */
  restoreView(saved: SavedView): void {
    for (const i of this.unfolded) {
      const e = this.entries[i];
      if (!e?.expanded) continue;
      e.expanded = false;
      this.relayoutEntry(i);
    }
    this.unfolded.clear();
    this.view.restore(saved, this.count, this.height);
  }

  /**
   * Brings line `line` of entry `entry` (as searchLines numbers it) into a view `height` rows tall: the entry unfolded
   * if the line is folded away, the view moved only when the line is out of it (then to its middle). Returns the row's
   * serial, or null when there is no such line.
   */
  showLine(entry: number, line: number, height: number): number | null {
    this.sync();
    const e = this.entries[entry];
    if (!e) return null;
    if (folds(e)) {
      e.expanded = true;
      this.unfolded.add(entry);
      this.relayoutEntry(entry);
    }
    const found = rowOf(e, line);
    this.count += found.filled;
    const row = found.row;
    if (row < 0) return null;
    let fromBottom = e.rows.length - 1 - row;
    for (let j = entry + 1; j < this.entries.length; j++) fromBottom += this.entries[j].rows.length;
    this.view.show(fromBottom, this.count, height);
    return this.serialOf(fromBottom);
  }

  get following(): boolean {
    this.sync();
    return this.view.following;
  }

  /** Serials are good while this stays the same (tui/view-position.ts). */
  get epoch(): number {
    return this.view.epoch;
  }

  /** The serial of the row `fromBottom` rows above the bottom one. */
  serialOf(fromBottom: number): number {
    return this.view.serialOf(fromBottom);
  }

  /** How many rows are below the row with this serial. */
  fromBottom(serial: number): number {
    return this.view.fromBottom(serial);
  }

  /** Rows hidden below the view. */
  get below(): number {
    this.sync();
    return this.view.below;
  }

  /** The rows a box of `height` shows now, oldest first; `entries` gets the entry of each. */
  visible(height: number, entries?: number[]): TranscriptRow[] {
    this.sync();
    return this.rowsAbove(this.view.below, height, entries);
  }

  /** The `count` rows (or fewer, at the top) whose last is `skip` rows above the bottom one, oldest first. */
  rowsAbove(skip: number, count: number, entries?: number[]): TranscriptRow[] {
    this.reveal(skip + count);
    return rowsAbove(this.entries, skip, count, entries);
  }

  /** Scrolls by `delta` rows (negative: back in time). */
  scroll(delta: number, height: number): void {
    this.sync();
    if (delta < 0) this.reveal(this.view.below - delta + height);
    this.view.scroll(delta, this.count, height);
  }

  scrollToBottom(): void {
    this.view.toBottom();
  }

  /** Lays out the answers' holes within the bottom `want` rows (all of them before the view's height is known). */
  private reveal(want: number): void {
    this.count += revealHoles(this.entries, this.height === 0 ? Infinity : want);
  }

  /** Empties the view (a new or resumed conversation). */
  override clear(): void {
    super.clear();
    this.unfolded.clear();
  }
}

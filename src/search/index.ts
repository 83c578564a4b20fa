// A history list as a few strings per case: entries' texts joined with a NUL
// between them, in chunks of CHUNK entries, and where each entry starts (one
// offset space across chunks). A search is then a native indexOf over each
// chunk instead of one call per entry, so even a full miss over 100,000
// entries costs well under a millisecond or two; and since no string ever
// holds the whole list, taking in new entries never copies megabytes. Lists
// grow in place (an entry recorded, another process's entries read): the
// index takes in only the new tail; anything else (a cap that dropped the
// oldest, a deletion) builds it again. Pure.

import { segmentsText } from '../editor/model';
import type { HistoryEntry } from '../history/rules';

const SEP = '\u0000';
/** Entries per chunk: small enough to join in an idle slice, large enough that a search makes few calls. */
const CHUNK = 2000;

interface Chunk {
  /** Offset of the chunk's first character in the list's offset space. */
  readonly base: number;
  exact: string;
  lower: string;
}

const FIRST_WINDOW = 1 << 11;
const MAX_WINDOW = 1 << 20;

/**
 * hay.lastIndexOf(q, pos), found by forward scans of windows going back:
 * V8's indexOf skips through text many times faster than its lastIndexOf, so
 * a window without the query costs little and only one with it is scanned
 * backwards. Windows start small (matches close together cost little) and
 * double while they come up empty (a long miss costs one forward pass).
 */
export function lastIndexBefore(hay: string, q: string, pos: number): number {
  let size = Math.max(FIRST_WINDOW, q.length * 2);
  let end = Math.min(hay.length, pos + q.length);
  while (end >= q.length) {
    const start = Math.max(0, end - size);
    const window = hay.slice(start, end);
    if (window.indexOf(q) !== -1) return start + window.lastIndexOf(q);
    if (start === 0) return -1;
    // Overlapping by all but one character: a match across the edge is in the next window.
    end = start + q.length - 1;
    size = Math.min(MAX_WINDOW, size * 2);
  }
  return -1;
}

export class SearchIndex {
  /** Each entry's full text (pastes expanded). */
  readonly texts: string[] = [];
  /** Offset of each entry's text. */
  readonly starts: number[] = [];
  private readonly chunks: Chunk[] = [];
  /** Entries taken in but not yet joined into the last chunk. */
  private exactParts: string[] = [];
  private lowerParts: string[] = [];
  private length = 0;
  private first: HistoryEntry | undefined;
  private last: HistoryEntry | undefined;

  /** Whether this index still describes `entries`, perhaps without their newest ones. */
  describes(entries: readonly HistoryEntry[]): boolean {
    const n = this.texts.length;
    return entries.length >= n && entries[0] === this.first && entries[n - 1] === this.last;
  }

  /** Takes in entries [texts.length, upTo). */
  extend(entries: readonly HistoryEntry[], upTo = entries.length): void {
    for (let i = this.texts.length; i < upTo; i++) {
      const text = segmentsText(entries[i].segments);
      const lower = text.toLowerCase();
      if (i % CHUNK === 0) {
        this.seal();
        this.chunks.push({ base: this.length, exact: '', lower: '' });
      }
      this.texts.push(text);
      this.starts.push(this.length);
      this.exactParts.push(text);
      // A few characters change length when lower-cased (İ): such an entry is matched by its exact text only.
      this.lowerParts.push(lower.length === text.length ? lower : text);
      this.length += text.length + 1;
    }
    if (upTo > 0) {
      this.first = entries[0];
      this.last = entries[upTo - 1];
    }
  }

  /** Joins what was taken in into the last chunk (a chunk holds at most CHUNK entries, so this copies little). */
  private seal(): void {
    const chunk = this.chunks[this.chunks.length - 1];
    if (!chunk || this.exactParts.length === 0) return;
    chunk.exact += this.exactParts.join(SEP) + SEP;
    chunk.lower += this.lowerParts.join(SEP) + SEP;
    this.exactParts = [];
    this.lowerParts = [];
  }

  /** The first occurrence of `q` at or after offset `from`, or -1. */
  indexOf(q: string, lower: boolean, from: number): number {
    this.seal();
    for (let c = this.chunkAt(from); c < this.chunks.length; c++) {
      const { base } = this.chunks[c];
      const hay = lower ? this.chunks[c].lower : this.chunks[c].exact;
      const at = hay.indexOf(q, Math.max(0, from - base));
      if (at !== -1) return base + at;
    }
    return -1;
  }

  /** The last occurrence of `q` starting at or before offset `pos`, or -1. */
  lastIndexOf(q: string, lower: boolean, pos: number): number {
    this.seal();
    if (pos < 0 || this.chunks.length === 0) return -1;
    for (let c = this.chunkAt(pos); c >= 0; c--) {
      const { base } = this.chunks[c];
      const hay = lower ? this.chunks[c].lower : this.chunks[c].exact;
      const at = lastIndexBefore(hay, q, Math.min(pos - base, hay.length));
      if (at !== -1) return base + at;
    }
    return -1;
  }

  /** The total length of the joined texts. */
  get size(): number {
    return this.length;
  }

  /** The entry whose text holds offset `at`. */
  entryAt(at: number): number {
    return lastAtMost(this.starts, at);
  }

  // The same search as lastAtMost, over chunk bases: kept apart on purpose, since one shared
  // search through an accessor made the overlay's count walk (entryAt per match) measurably slower.
  private chunkAt(at: number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.chunks[mid].base <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

function lastAtMost(sorted: readonly number[], at: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const indexes = new WeakMap<readonly HistoryEntry[], SearchIndex>();

/** The index of `entries`, brought up to date (new entries taken in, rebuilt when the list changed otherwise). */
export function indexFor(entries: readonly HistoryEntry[], upTo = entries.length): SearchIndex {
  let index = indexes.get(entries);
  if (!index || !index.describes(entries)) {
    index = new SearchIndex();
    indexes.set(entries, index);
  }
  if (index.texts.length < upTo) index.extend(entries, upTo);
  return index;
}

/** One entry's full text, through the index. */
export function entryText(entries: readonly HistoryEntry[], i: number): string {
  return indexFor(entries).texts[i];
}

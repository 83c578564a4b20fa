// A history list as one string per case: every entry's text joined with a NUL
// between them, and where each entry starts. A search is then one native
// indexOf / lastIndexOf over the whole list instead of one call per entry, so
// even a full miss over 100,000 entries takes about a millisecond. Lists
// grow in place (an entry recorded, another process's entries read): the
// index takes in only the new tail; anything else (a cap that dropped the
// oldest, a deletion) builds it again. Pure.

import { segmentsText } from '../editor/model';
import type { HistoryEntry } from '../history/rules';

const SEP = '\u0000';

export class SearchIndex {
  /** Each entry's full text (pastes expanded). */
  readonly texts: string[] = [];
  /** Offset of each entry's text in the joined strings. */
  readonly starts: number[] = [];
  private exactJoined = '';
  private lowerJoined = '';
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

  /** The joined texts, exact or lower-cased. */
  haystack(lower: boolean): string {
    if (this.exactParts.length) {
      this.exactJoined += this.exactParts.join(SEP) + SEP;
      this.lowerJoined += this.lowerParts.join(SEP) + SEP;
      this.exactParts = [];
      this.lowerParts = [];
    }
    return lower ? this.lowerJoined : this.exactJoined;
  }

  /** The entry whose text holds offset `at`. */
  entryAt(at: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
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

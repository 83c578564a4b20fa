// Incremental history search (Ctrl+R / Ctrl+S) as a pure state machine:
// the query, the direction, the current match, the Backspace stack and the
// texts already shown. It never touches the composer itself; the composer
// shows `match` and restores the saved draft on cancel.

import { Segment, segmentsText } from '../editor/model';
import type { HistoryEntry } from '../history/rules';

export type Direction = 'reverse' | 'forward';

export interface Match {
  /** Index of the entry in the list searched. */
  readonly index: number;
  /** Where the query matched in the entry's full text (pastes expanded). */
  readonly start: number;
  readonly end: number;
}

interface Frame {
  readonly query: string;
  readonly match: Match | null;
  readonly failing: boolean;
  readonly direction: Direction;
  readonly seen: readonly string[];
}

export interface SearchState {
  readonly direction: Direction;
  readonly query: string;
  readonly match: Match | null;
  readonly failing: boolean;
  /** Entry texts shown in this search; others equal to them are skipped. */
  readonly seen: readonly string[];
  /** One frame per typed character, for Backspace. */
  readonly stack: readonly Frame[];
}

/** Smart case: a query with an upper-case letter matches case exactly. */
export function caseSensitive(query: string): boolean {
  return query !== query.toLowerCase();
}

// Each entry's full text and its lower-case form, computed once per entry:
// entries never change, and a search over 100k of them must not redo this
// work on every keystroke.
const textCache = new WeakMap<HistoryEntry, { text: string; lower: string | null }>();

function textsOf(e: HistoryEntry): { text: string; lower: string | null } {
  let t = textCache.get(e);
  if (!t) {
    const text = segmentsText(e.segments);
    const lower = text.toLowerCase();
    // toLowerCase can change lengths for a few characters; match exactly then.
    t = { text, lower: lower.length === text.length ? lower : null };
    textCache.set(e, t);
  }
  return t;
}

/**
 * Prepares entries [from, from + count) for searching; returns where to go on.
 * The app calls this in idle slices after start-up, so the first Ctrl+R over a
 * huge history doesn't pay for all of it at once.
 */
export function prepareSearch(entries: readonly HistoryEntry[], from: number, count: number): number {
  const end = Math.min(entries.length, from + count);
  for (let i = from; i < end; i++) textsOf(entries[i]);
  return end;
}

interface Needle {
  readonly exact: string;
  readonly lower: string;
  readonly sensitive: boolean;
}

function needleOf(query: string): Needle {
  return { exact: query, lower: query.toLowerCase(), sensitive: caseSensitive(query) };
}

function find(e: HistoryEntry, needle: Needle, direction: Direction): number {
  const { text, lower } = textsOf(e);
  const useExact = needle.sensitive || lower === null;
  const hay = useExact ? text : lower;
  const q = useExact ? needle.exact : needle.lower;
  return direction === 'reverse' ? hay.lastIndexOf(q) : hay.indexOf(q);
}

/** Decides, by entry text, which matching entries a search passes over. */
export type Skip = (text: string) => boolean;

const skipNone: Skip = () => false;

/** The newest entry at or before `from` that contains `query` (and is not skipped). */
export function searchBack(entries: readonly HistoryEntry[], query: string, from: number, skip: Skip = skipNone): Match | null {
  const needle = needleOf(query);
  for (let i = Math.min(from, entries.length - 1); i >= 0; i--) {
    const at = find(entries[i], needle, 'reverse');
    if (at !== -1 && !skip(textsOf(entries[i]).text)) return { index: i, start: at, end: at + query.length };
  }
  return null;
}

/** The oldest entry at or after `from` that contains `query` (and is not skipped). */
export function searchForward(entries: readonly HistoryEntry[], query: string, from: number, skip: Skip = skipNone): Match | null {
  const needle = needleOf(query);
  for (let i = Math.max(from, 0); i < entries.length; i++) {
    const at = find(entries[i], needle, 'forward');
    if (at !== -1 && !skip(textsOf(entries[i]).text)) return { index: i, start: at, end: at + query.length };
  }
  return null;
}

const SEARCH = { reverse: searchBack, forward: searchForward } as const;

export function startSearch(direction: Direction): SearchState {
  return { direction, query: '', match: null, failing: false, seen: [], stack: [] };
}

/** The search moved to `match`, or failed and keeps showing the last match. */
function withMatch(s: SearchState, entries: readonly HistoryEntry[], match: Match | null): SearchState {
  if (!match) return { ...s, failing: true };
  const t = textsOf(entries[match.index]).text;
  return { ...s, match, failing: false, seen: s.seen.includes(t) ? s.seen : [...s.seen, t] };
}

function currentText(s: SearchState, entries: readonly HistoryEntry[]): string | null {
  return s.match ? textsOf(entries[s.match.index]).text : null;
}

/** A printable character (or pasted text) extends the query. */
export function typeQuery(s: SearchState, entries: readonly HistoryEntry[], text: string): SearchState {
  if (!text) return s;
  const frame: Frame = { query: s.query, match: s.match, failing: s.failing, direction: s.direction, seen: s.seen };
  const next = { ...s, query: s.query + text, stack: [...s.stack, frame] };
  // Nothing matched the shorter query from here on, so nothing can match a longer one.
  if (s.failing) return next;
  // From the current entry, included: the search stays on it while it still matches.
  const from = s.match ? s.match.index : s.direction === 'reverse' ? entries.length - 1 : 0;
  const current = currentText(s, entries);
  return withMatch(next, entries, SEARCH[s.direction](entries, next.query, from, (t) => t !== current && s.seen.includes(t)));
}

/**
 * Ctrl+R / Ctrl+S during a search: the next match in that direction with the
 * same query. On an empty query, the last accepted search's query is reused.
 */
export function searchAgain(s: SearchState, entries: readonly HistoryEntry[], direction: Direction, lastQuery: string | null): SearchState {
  const turned = { ...s, direction };
  // Reused character by character, so Backspace still takes off one at a time.
  if (s.query === '') return [...(lastQuery ?? '')].reduce((st, ch) => typeQuery(st, entries, ch), turned);
  const from = s.match ? s.match.index + (direction === 'reverse' ? -1 : 1) : direction === 'reverse' ? entries.length - 1 : 0;
  const current = currentText(s, entries);
  return withMatch(turned, entries, SEARCH[direction](entries, s.query, from, (t) => t === current || s.seen.includes(t)));
}

/** Backspace: back to where the shorter query stood. Nothing on an empty query. */
export function backspaceQuery(s: SearchState): SearchState {
  const frame = s.stack[s.stack.length - 1];
  if (!frame || s.query === '') return s;
  return { ...s, ...frame, stack: s.stack.slice(0, -1) };
}

/**
 * Where a match in an entry's full text falls in the composer's buffer, where
 * each paste segment is one character: the whole paste lights up if the match
 * touches it.
 */
export function bufferRange(segments: readonly Segment[], start: number, end: number): { start: number; end: number } {
  let textPos = 0;
  let bufPos = 0;
  let from = -1;
  let to = -1;
  for (const seg of segments) {
    const len = seg.text.length;
    const segEnd = textPos + len;
    const width = seg.type === 'paste' ? 1 : len;
    if (from === -1 && start < segEnd) from = bufPos + (seg.type === 'paste' ? 0 : start - textPos);
    if (to === -1 && end <= segEnd) {
      to = bufPos + (seg.type === 'paste' ? 1 : end - textPos);
      break;
    }
    textPos = segEnd;
    bufPos += width;
  }
  if (from === -1) from = bufPos;
  if (to === -1) to = bufPos;
  return { start: from, end: Math.max(from, to) };
}

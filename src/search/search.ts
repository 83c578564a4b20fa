// Incremental history search (Ctrl+R / Ctrl+S) as a pure state machine:
// the query, the direction, the current match, the Backspace stack and the
// texts already shown. It never touches the composer itself; the composer
// shows `match` and restores the saved draft on cancel.

import type { Segment } from '../protocol/segments';
import type { HistoryEntry } from '../history/rules';
import { entryText, indexFor } from './index';

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
  /** The entry being browsed when the search began: as in bash, the search starts there (itself included). */
  readonly origin?: number;
}

/** Smart case: a query with an upper-case letter matches case exactly. */
export function caseSensitive(query: string): boolean {
  return query !== query.toLowerCase();
}

/**
 * Takes up to `count` more entries into the search index; returns how many
 * are in. The app calls this in idle slices after start-up, so the first
 * Ctrl+R over a huge history doesn't pay for all of it at once.
 */
export function prepareSearch(entries: readonly HistoryEntry[], count: number): number {
  const index = indexFor(entries, 0);
  const upTo = Math.min(entries.length, index.texts.length + count);
  index.extend(entries, upTo);
  return upTo;
}

/** Decides, by entry text, which matching entries a search passes over. */
export type Skip = (text: string) => boolean;

const skipNone: Skip = () => false;

export interface Needle {
  /** Search the lower-cased texts. */
  readonly lower: boolean;
  readonly q: string;
}

/** How `query` is searched: lower-cased against lower-cased texts, unless it has a capital. */
export function needleOf(query: string): Needle {
  const sensitive = caseSensitive(query);
  return { lower: !sensitive, q: sensitive ? query : query.toLowerCase() };
}

/**
 * Every entry that contains `query`, one match each, from entry `from` (itself
 * included) going older (each entry's last occurrence) or newer (its first):
 * one scan of the joined texts, jumping from a match to the next entry.
 */
export function* matchesFrom(
  entries: readonly HistoryEntry[],
  query: string,
  from: number,
  older: boolean,
): Generator<Match> {
  const start = older ? Math.min(from, entries.length - 1) : Math.max(from, 0);
  if (start < 0 || start >= entries.length || query.includes('\u0000')) return;
  const index = indexFor(entries);
  const { lower, q } = needleOf(query);
  // Going older, an entry's text ends one separator before the next one starts.
  let pos = older ? index.starts[start] + index.texts[start].length - q.length : index.starts[start];
  while (older ? pos >= 0 : pos < index.size) {
    const at = older ? index.lastIndexOf(q, lower, pos) : index.indexOf(q, lower, pos);
    if (at === -1) return;
    const i = index.entryAt(at);
    yield { index: i, start: at - index.starts[i], end: at - index.starts[i] + query.length };
    pos = older ? index.starts[i] - 1 - q.length : index.starts[i] + index.texts[i].length + 1;
  }
}

function firstNotSkipped(entries: readonly HistoryEntry[], matches: Iterable<Match>, skip: Skip): Match | null {
  for (const m of matches) if (!skip(entryText(entries, m.index))) return m;
  return null;
}

/**
 * The newest entry at or before `from` that contains `query` (and is not skipped); the match is its last occurrence.
 */
export function searchBack(
  entries: readonly HistoryEntry[],
  query: string,
  from: number,
  skip: Skip = skipNone,
): Match | null {
  return firstNotSkipped(entries, matchesFrom(entries, query, from, true), skip);
}

/**
 * The oldest entry at or after `from` that contains `query` (and is not skipped); the match is its first occurrence.
 */
export function searchForward(
  entries: readonly HistoryEntry[],
  query: string,
  from: number,
  skip: Skip = skipNone,
): Match | null {
  return firstNotSkipped(entries, matchesFrom(entries, query, from, false), skip);
}

/**
 * Another occurrence of `query` in entry `i`: the last one starting before
 * `pos` (reverse) or the first one starting after it (forward). A repeated
 * Ctrl+R walks the occurrences of a long entry before leaving it, as readline does.
 */
export function searchWithin(
  entries: readonly HistoryEntry[],
  query: string,
  i: number,
  pos: number,
  direction: Direction,
): Match | null {
  if (!query || query.includes('\u0000')) return null;
  const index = indexFor(entries);
  const { lower, q } = needleOf(query);
  const base = index.starts[i];
  const at =
    direction === 'reverse'
      ? pos > 0
        ? index.lastIndexOf(q, lower, base + pos - 1)
        : -1
      : index.indexOf(q, lower, base + pos + 1);
  if (at < base || at + q.length > base + index.texts[i].length) return null;
  return { index: i, start: at - base, end: at - base + query.length };
}

/** The line of a (multi-line) entry that offset `at` falls on, and where that line starts. */
export function lineAt(text: string, at: number): { from: number; line: string } {
  const from = at > 0 ? text.lastIndexOf('\n', at - 1) + 1 : 0;
  const nl = text.indexOf('\n', at);
  return { from, line: text.slice(from, nl === -1 ? text.length : nl) };
}

const SEARCH = { reverse: searchBack, forward: searchForward } as const;

export function startSearch(direction: Direction, origin?: number): SearchState {
  return {
    direction,
    query: '',
    match: null,
    failing: false,
    seen: [],
    stack: [],
    ...(origin === undefined ? {} : { origin }),
  };
}

/** Where a search with no match yet starts: the browsed entry, else the newest (reverse) or the oldest (forward). */
function startOf(s: SearchState, direction: Direction, entries: readonly HistoryEntry[]): number {
  if (s.origin !== undefined) return s.origin;
  return direction === 'reverse' ? entries.length - 1 : 0;
}

/** The search moved to `match`, or failed and keeps showing the last match. */
function withMatch(s: SearchState, entries: readonly HistoryEntry[], match: Match | null): SearchState {
  if (!match) return { ...s, failing: true };
  const t = entryText(entries, match.index);
  return { ...s, match, failing: false, seen: s.seen.includes(t) ? s.seen : [...s.seen, t] };
}

function currentText(s: SearchState, entries: readonly HistoryEntry[]): string | null {
  return s.match ? entryText(entries, s.match.index) : null;
}

/** A printable character (or pasted text) extends the query. */
export function typeQuery(s: SearchState, entries: readonly HistoryEntry[], text: string): SearchState {
  if (!text) return s;
  const frame: Frame = { query: s.query, match: s.match, failing: s.failing, direction: s.direction, seen: s.seen };
  const next = { ...s, query: s.query + text, stack: [...s.stack, frame] };
  // Nothing matched the shorter query from here on, so nothing can match a longer one.
  if (s.failing) return next;
  // From the current entry, included: the search stays on it while it still matches.
  const from = s.match ? s.match.index : startOf(s, s.direction, entries);
  const current = currentText(s, entries);
  return withMatch(
    next,
    entries,
    SEARCH[s.direction](entries, next.query, from, (t) => t !== current && s.seen.includes(t)),
  );
}

/**
 * Ctrl+R / Ctrl+S during a search: the next match in that direction with the
 * same query. On an empty query, the last accepted search's query is reused.
 * As in bash, the first press against the current direction only turns
 * around on the current match; the next one moves, and may return to entries
 * shown on the way here (only the current text is passed over). A move goes
 * to the entry's next occurrence first, then on to other entries.
 */
export function searchAgain(
  s: SearchState,
  entries: readonly HistoryEntry[],
  direction: Direction,
  lastQuery: string | null,
): SearchState {
  const turned = { ...s, direction };
  // Reused character by character, so Backspace still takes off one at a time.
  if (s.query === '') return [...(lastQuery ?? '')].reduce((st, ch) => typeQuery(st, entries, ch), turned);
  const current = currentText(s, entries);
  if (direction !== s.direction && current !== null && s.match) {
    if (!s.failing) return { ...turned, failing: false, seen: [current] };
    return turnFailing(s, turned, entries, current, s.match);
  }
  const within = s.match && !s.failing ? searchWithin(entries, s.query, s.match.index, s.match.start, direction) : null;
  if (within) return withMatch(turned, entries, within);
  const from = s.match ? s.match.index + (direction === 'reverse' ? -1 : 1) : startOf(s, direction, entries);
  return withMatch(
    turned,
    entries,
    SEARCH[direction](entries, s.query, from, (t) => t === current || s.seen.includes(t)),
  );
}

/**
 * A failing search turned around, as readline's does: its scan stopped past
 * the oldest entry (reverse) or on the line being edited (forward), and goes
 * on from there. Past the oldest, an oldest entry holding the query is where
 * the search turns, on the match it kept; otherwise, and always going older
 * from a forward failure, it moves on from the kept match, or fails again
 * (a query no entry holds, such as `makez`, stays failing either way).
 */
function turnFailing(
  s: SearchState,
  turned: SearchState,
  entries: readonly HistoryEntry[],
  current: string,
  match: Match,
): SearchState {
  if (turned.direction === 'forward' && searchForward(entries, s.query, 0)?.index === 0)
    return { ...turned, failing: false, seen: [current] };
  const from = match.index + (turned.direction === 'reverse' ? -1 : 1);
  return withMatch(
    { ...turned, seen: [current] },
    entries,
    SEARCH[turned.direction](entries, s.query, from, (t) => t === current),
  );
}

/**
 * Backspace: the query one character shorter. As in readline, the search stays on the entry it shows while that entry
 * still holds the shorter query where its match began (after ^R ^R, on the older match it moved to); only otherwise,
 * and for an empty query, it goes back to where the shorter query stood. Nothing on an empty query.
 */
export function backspaceQuery(s: SearchState, entries: readonly HistoryEntry[]): SearchState {
  const frame = s.stack[s.stack.length - 1];
  if (!frame || s.query === '') return s;
  const popped = { ...s, ...frame, stack: s.stack.slice(0, -1) };
  const m = s.match;
  if (!m || m.index >= entries.length) return popped;
  // Down to no query, the entry last matched stays shown (bash's), its match empty: a key typed next searches on
  // from it.
  if (frame.query === '') return { ...popped, failing: false, match: { ...m, end: m.start } };
  const { lower, q } = needleOf(frame.query);
  const at = entryText(entries, m.index).slice(m.start, m.start + frame.query.length);
  if ((lower ? at.toLowerCase() : at) !== q) return popped;
  return { ...popped, direction: s.direction, seen: s.seen, failing: false, match: { ...m, end: m.start + at.length } };
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
    const width = seg.type !== 'text' ? 1 : len;
    if (from === -1 && start < segEnd) from = bufPos + (seg.type !== 'text' ? 0 : start - textPos);
    if (to === -1 && end <= segEnd) {
      to = bufPos + (seg.type !== 'text' ? 1 : end - textPos);
      break;
    }
    textPos = segEnd;
    bufPos += width;
  }
  if (from === -1) from = bufPos;
  if (to === -1) to = bufPos;
  return { start: from, end: Math.max(from, to) };
}

// What the search overlay lists: the matches around the current one, older
// above and newer below, as Ctrl+R and Ctrl+S would reach them (one row per
// distinct text), and where the current one stands among all of them. A
// count walks from the current match at most COUNT_CAP distinct texts each
// way, so a query that matches everything costs no more than one that matches
// nothing. A walk that reached both ends saw every match: that list is kept,
// and a longer query (or a repeat) only filters it. Pure.

import type { HistoryEntry } from '../history/rules';
import { SearchIndex, entryText, indexFor } from './index';
import { Match, SearchState, caseSensitive, matchesFrom, searchBack, searchForward, searchWithin } from './search';

export interface OverlayRow extends Match {
  readonly current: boolean;
}

export interface Overlay {
  /** Oldest first. */
  readonly rows: readonly OverlayRow[];
  /** The current match's place counting from the newest (1 = newest), and how many distinct texts match. */
  readonly position: number;
  readonly total: number;
  /** The count stopped at COUNT_CAP on a side: there are more. */
  readonly more: boolean;
  /** No query yet: the rows are the most recent entries, none of them a match. */
  readonly recent?: boolean;
}

export const COUNT_CAP = 500;
export const LIST_CAP = 2000;

interface Listed {
  readonly index: SearchIndex;
  readonly length: number;
  readonly query: string;
  readonly matches: readonly number[];
}

const lists = new WeakMap<readonly HistoryEntry[], Listed>();

/**
 * All entries matching `query`, oldest first, when the last complete list still holds them (same list, a shorter query
 * of the same case rule).
 */
function listedMatches(entries: readonly HistoryEntry[], query: string): readonly number[] | null {
  const last = lists.get(entries);
  if (!last || last.index !== indexFor(entries) || last.length !== entries.length) return null;
  if (!query.startsWith(last.query) || caseSensitive(query) !== caseSensitive(last.query)) return null;
  return last.query === query
    ? last.matches
    : last.matches.filter((i) => searchWithin(entries, query, i, -1, 'forward') !== null);
}

function keep(entries: readonly HistoryEntry[], query: string, matches: readonly number[]): void {
  lists.set(entries, { index: indexFor(entries), length: entries.length, query, matches });
}

function forget(entries: readonly HistoryEntry[]): void {
  lists.delete(entries);
}

interface Side {
  rows: Match[];
  count: number;
  capped: boolean;
}

/**
 * One side of the current match, from its candidates in the order the keys
 * would reach them: distinct texts not in `exclude` (which it then claims),
 * counted up to COUNT_CAP, the first `limit` not passed over kept as rows.
 * Every candidate looked at goes into `visited`.
 */
function side(
  entries: readonly HistoryEntry[],
  query: string,
  candidates: Iterable<number>,
  older: boolean,
  exclude: Set<string>,
  limit: number,
  rowSkip: (t: string) => boolean,
  visited: number[],
): Side {
  const out: Side = { rows: [], count: 0, capped: false };
  for (const i of candidates) {
    visited.push(i);
    const text = entryText(entries, i);
    if (exclude.has(text)) continue;
    exclude.add(text);
    if (out.rows.length < limit && !rowSkip(text)) {
      // Where the row's match is: its last occurrence going back, its first going forward.
      const m = older ? searchBack(entries, query, i) : searchForward(entries, query, i);
      if (m) out.rows.push(m);
    }
    if (++out.count >= COUNT_CAP) {
      out.capped = true;
      break;
    }
  }
  return out;
}

function* indicesOf(matches: Iterable<Match>): Generator<number> {
  for (const m of matches) yield m.index;
}

/** How far back an empty search looks for distinct recent texts (a history of one line repeated stays cheap). */
const RECENT_SCAN = 1000;

/** Before anything is typed: the newest distinct entries, oldest first, so an empty Ctrl+R shows where it starts. */
function recentOverlay(entries: readonly HistoryEntry[], max: number): Overlay {
  const rows: OverlayRow[] = [];
  const texts = new Set<string>();
  for (let i = entries.length - 1; i >= 0 && i >= entries.length - RECENT_SCAN && rows.length < max; i--) {
    const text = entryText(entries, i);
    if (texts.has(text)) continue;
    texts.add(text);
    rows.push({ index: i, start: 0, end: 0, current: false });
  }
  return { rows: rows.reverse(), position: 0, total: 0, more: false, recent: true };
}

/** The way ahead gets most of the rows; a couple stay for the way back. */
function rowsShown(
  ahead: 'older' | 'newer',
  olders: number,
  newers: number,
  max: number,
): { olderShown: number; newerShown: number } {
  const [front, back] = ahead === 'older' ? [olders, newers] : [newers, olders];
  const room = Math.max(0, max - 1);
  const backShown = Math.min(back, Math.max(room - front, Math.min(2, Math.floor(room / 3))));
  const frontShown = Math.min(front, room - backShown);
  return ahead === 'older'
    ? { olderShown: frontShown, newerShown: backShown }
    : { olderShown: backShown, newerShown: frontShown };
}

/** The overlay for a search over `entries`, with at most `max` rows. */
export function searchOverlay(s: SearchState, entries: readonly HistoryEntry[], max = 8): Overlay {
  const match = s.match;
  if (!s.query && !match) return recentOverlay(entries, max - 1);
  if (!match || !s.query) return { rows: [], position: 0, total: 0, more: false };
  const current = entryText(entries, match.index);
  // Failing on a query the shown entry no longer holds: that entry alone, and nothing matches.
  if (s.failing && searchBack(entries, s.query, match.index)?.index !== match.index) {
    return { rows: [{ ...match, current: true }], position: 0, total: 0, more: false };
  }
  const seen = new Set(s.seen);
  // Ahead is where the next press of the same key goes; it passes over texts already shown.
  const ahead = s.direction === 'reverse' ? 'older' : 'newer';
  const rowSkip = (t: string, isOlder: boolean): boolean =>
    (isOlder ? ahead === 'older' : ahead === 'newer') && seen.has(t);
  const listed = listedMatches(entries, s.query);
  let k = 0;
  while (listed && k < listed.length && listed[k] <= match.index) k++;
  // Newer texts are claimed first, so a text on both sides counts once, as the newer.
  const exclude = new Set([current]);
  const newerSeen: number[] = [];
  const olderSeen: number[] = [];
  const newer = side(
    entries,
    s.query,
    listed ? listed.slice(k) : indicesOf(matchesFrom(entries, s.query, match.index + 1, false)),
    false,
    exclude,
    max - 1,
    (t) => rowSkip(t, false),
    newerSeen,
  );
  const older = side(
    entries,
    s.query,
    listed
      ? listed
          .slice(0, k)
          .filter((i) => i !== match.index)
          .reverse()
      : indicesOf(matchesFrom(entries, s.query, match.index - 1, true)),
    true,
    exclude,
    max - 1,
    (t) => rowSkip(t, true),
    olderSeen,
  );
  // Both sides reached the ends: every match was seen, and a longer query need only filter them.
  if (listed) keep(entries, s.query, listed);
  else if (!newer.capped && !older.capped && newerSeen.length + olderSeen.length < LIST_CAP)
    keep(entries, s.query, [...olderSeen.reverse(), match.index, ...newerSeen]);
  else forget(entries);
  const { olderShown, newerShown } = rowsShown(ahead, older.rows.length, newer.rows.length, max);
  const rows: OverlayRow[] = [
    ...older.rows
      .slice(0, olderShown)
      .reverse()
      .map((m) => ({ ...m, current: false })),
    { ...match, current: true },
    ...newer.rows.slice(0, newerShown).map((m) => ({ ...m, current: false })),
  ];
  return { rows, position: newer.count + 1, total: newer.count + 1 + older.count, more: newer.capped || older.capped };
}

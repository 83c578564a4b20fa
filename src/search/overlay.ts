// What the search overlay lists: the matches around the current one, older
// above and newer below, as Ctrl+R and Ctrl+S would reach them (one row per
// distinct text), and where the current one stands among all of them. A
// count walks from the current match at most COUNT_CAP distinct texts each
// way, so a query that matches everything costs no more than one that matches
// nothing. A walk that reached both ends saw every match: that list is kept,
// and a longer query (or a repeat) only filters it. Pure.

import type { HistoryEntry } from '../history/rules';
import { SearchIndex, entryText, indexFor } from './index';
import { Match, SearchState, caseSensitive, needleOf, searchBack, searchForward, searchWithin } from './search';

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
}

export const COUNT_CAP = 500;
export const LIST_CAP = 2000;

interface Listed {
  readonly index: SearchIndex;
  readonly length: number;
  readonly query: string;
  readonly matches: readonly number[];
}

const listed = new WeakMap<readonly HistoryEntry[], Listed>();

/** All entries matching `query`, oldest first, when the last complete list still holds them (same list, a shorter query of the same case rule). */
function listedMatches(entries: readonly HistoryEntry[], query: string): readonly number[] | null {
  const last = listed.get(entries);
  if (!last || last.index !== indexFor(entries) || last.length !== entries.length) return null;
  if (!query.startsWith(last.query) || caseSensitive(query) !== caseSensitive(last.query)) return null;
  const matches = last.query === query ? last.matches : last.matches.filter((i) => searchWithin(entries, query, i, -1, 'forward') !== null);
  keep(entries, query, matches);
  return matches;
}

function keep(entries: readonly HistoryEntry[], query: string, matches: readonly number[]): void {
  listed.set(entries, { index: indexFor(entries), length: entries.length, query, matches });
}

interface Side {
  rows: Match[];
  count: number;
  capped: boolean;
}

/**
 * Walks matches from entry `from` one way: distinct texts not in `exclude`,
 * the first `limit` kept as rows, counting up to COUNT_CAP. One scan of the
 * joined texts, jumping from each match to the next entry.
 */
function walk(entries: readonly HistoryEntry[], query: string, from: number, older: boolean, exclude: Set<string>, limit: number, rowSkip: (t: string) => boolean, all: number[]): Side {
  const side: Side = { rows: [], count: 0, capped: false };
  if (from < 0 || from >= entries.length || query.includes('\u0000')) return side;
  const index = indexFor(entries);
  const { lower, q } = needleOf(query);
  let pos = older ? index.starts[from] + index.texts[from].length - q.length : index.starts[from];
  while (older ? pos >= 0 : pos < index.size) {
    const at = older ? index.lastIndexOf(q, lower, pos) : index.indexOf(q, lower, pos);
    if (at === -1) break;
    const i = index.entryAt(at);
    const text = index.texts[i];
    pos = older ? index.starts[i] - 1 - q.length : index.starts[i] + text.length + 1;
    all.push(i);
    if (exclude.has(text)) continue;
    exclude.add(text);
    if (side.rows.length < limit && !rowSkip(text)) side.rows.push({ index: i, start: at - index.starts[i], end: at - index.starts[i] + query.length });
    if (++side.count >= COUNT_CAP) {
      side.capped = true;
      break;
    }
  }
  return side;
}

/**
 * Both sides from the full list, as the walk would find them: distinct texts,
 * those newer than the current one claimed first, rows where a match is.
 */
function fromList(entries: readonly HistoryEntry[], query: string, matches: readonly number[], at: number, current: string, limit: number, rowSkip: (t: string, older: boolean) => boolean): { newer: Side; older: Side } {
  const exclude = new Set([current]);
  const side = (indices: readonly number[], older: boolean): Side => {
    const out: Side = { rows: [], count: 0, capped: false };
    for (const i of indices) {
      const text = entryText(entries, i);
      if (exclude.has(text)) continue;
      exclude.add(text);
      out.count++;
      if (out.rows.length < limit && !rowSkip(text, older)) {
        const m = older ? searchBack(entries, query, i) : searchForward(entries, query, i);
        if (m) out.rows.push(m);
      }
    }
    return out;
  };
  let k = 0;
  while (k < matches.length && matches[k] <= at) k++;
  const newer = side(matches.slice(k), false);
  const older = side(matches.slice(0, k).filter((i) => i !== at).reverse(), true);
  return { newer, older };
}

/** The overlay for a search over `entries`, with at most `max` rows. */
export function searchOverlay(s: SearchState, entries: readonly HistoryEntry[], max = 8): Overlay {
  const match = s.match;
  if (!match || !s.query) return { rows: [], position: 0, total: 0, more: false };
  const current = entryText(entries, match.index);
  // Failing on a query the shown entry no longer holds: that entry alone, and nothing matches.
  if (s.failing && searchBack(entries, s.query, match.index)?.index !== match.index) {
    return { rows: [{ ...match, current: true }], position: 0, total: 0, more: false };
  }
  const seen = new Set(s.seen);
  // Ahead is where the next press of the same key goes; it passes over texts already shown.
  const ahead = s.direction === 'reverse' ? 'older' : 'newer';
  const rowSkip = (t: string, isOlder: boolean): boolean => (isOlder ? ahead === 'older' : ahead === 'newer') && seen.has(t);
  const matches = listedMatches(entries, s.query);
  let newer: Side;
  let older: Side;
  if (matches) ({ newer, older } = fromList(entries, s.query, matches, match.index, current, max - 1, rowSkip));
  else {
    const exclude = new Set([current]);
    const newerAll: number[] = [];
    const olderAll: number[] = [];
    newer = walk(entries, s.query, match.index + 1, false, exclude, max - 1, (t) => rowSkip(t, false), newerAll);
    older = walk(entries, s.query, match.index - 1, true, exclude, max - 1, (t) => rowSkip(t, true), olderAll);
    // Both walks reached the ends: every match was seen, and a longer query need only filter them.
    if (!newer.capped && !older.capped && newerAll.length + olderAll.length < LIST_CAP) keep(entries, s.query, [...olderAll.reverse(), match.index, ...newerAll]);
    else listed.delete(entries);
  }
  // The way ahead gets most of the rows; a couple stay for the way back.
  const [front, back] = ahead === 'older' ? [older.rows, newer.rows] : [newer.rows, older.rows];
  const room = Math.max(0, max - 1);
  const backShown = Math.min(back.length, Math.max(room - front.length, Math.min(2, Math.floor(room / 3))));
  const frontShown = Math.min(front.length, room - backShown);
  const olderShown = ahead === 'older' ? frontShown : backShown;
  const newerShown = ahead === 'older' ? backShown : frontShown;
  const rows: OverlayRow[] = [
    ...older.rows.slice(0, olderShown).reverse().map((m) => ({ ...m, current: false })),
    { ...match, current: true },
    ...newer.rows.slice(0, newerShown).map((m) => ({ ...m, current: false })),
  ];
  return { rows, position: newer.count + 1, total: newer.count + 1 + older.count, more: newer.capped || older.capped };
}

// What the search overlay lists: the matches around the current one, older
// above and newer below, as Ctrl+R and Ctrl+S would reach them (one row per
// distinct text), and where the current one stands among all of them. The
// count walks at most COUNT_CAP distinct texts each way, so a query that
// matches everything costs no more than one that matches nothing. Pure.

import type { HistoryEntry } from '../history/rules';
import { entryText } from './index';
import { Match, SearchState, searchBack, searchForward } from './search';

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

export const COUNT_CAP = 1000;

interface Side {
  rows: Match[];
  count: number;
  capped: boolean;
}

/** Walks matches from `from` one way: distinct texts not in `exclude`, the first `limit` kept as rows. */
function walk(entries: readonly HistoryEntry[], query: string, from: number, older: boolean, exclude: Set<string>, limit: number, rowSkip: (t: string) => boolean): Side {
  const side: Side = { rows: [], count: 0, capped: false };
  const skip = (t: string): boolean => exclude.has(t);
  for (let at = from; at >= 0 && at < entries.length;) {
    const m = older ? searchBack(entries, query, at, skip) : searchForward(entries, query, at, skip);
    if (!m) break;
    const text = entryText(entries, m.index);
    exclude.add(text);
    if (side.rows.length < limit && !rowSkip(text)) side.rows.push(m);
    if (++side.count >= COUNT_CAP) {
      side.capped = true;
      break;
    }
    at = m.index + (older ? -1 : 1);
  }
  return side;
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
  const exclude = new Set([current]);
  const newer = walk(entries, s.query, match.index + 1, false, exclude, max - 1, (t) => ahead === 'newer' && seen.has(t));
  const older = walk(entries, s.query, match.index - 1, true, exclude, max - 1, (t) => ahead === 'older' && seen.has(t));
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

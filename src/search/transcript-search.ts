// Search over the transcript (Ctrl+X Ctrl+F, or / in copy mode), as `less`
// searches: the whole text once as one string (every line of every entry,
// folded or not, an answer as its rendered rows), each query a scan of it
// from the bottom up, a match stepped to by n and N. Matches are numbered
// from the newest (1 is the one nearest the bottom): the transcript is read
// from the bottom, as history is. Smart case as in history search. Pure.

import { caseSensitive } from './search';

/** Which line of which transcript entry a line of the corpus is. */
export interface LineRef {
  readonly entry: number;
  readonly line: number;
}

export interface TranscriptCorpus {
  /** Every line, joined by `\n`. */
  readonly text: string;
  /** The same, lower-cased (null: lower-casing changed some character's length, so a pattern is used instead). */
  readonly lower: string | null;
  /** Where each line starts in `text`. */
  readonly starts: readonly number[];
  readonly entries: Int32Array;
  readonly lines: Int32Array;
}

/**
 * The most matches a query collects, from the bottom up: the count then says "10000+". A query of one common letter in
 * a long transcript has hundreds of thousands; counting them all would cost a keystroke its frame.
 */
export const MAX_MATCHES = 10_000;

/** The corpus of `lines`, each with the entry and line it is. */
export function buildCorpus(lines: readonly string[], refs: readonly LineRef[]): TranscriptCorpus {
  const text = lines.join('\n');
  const lower = text.toLowerCase();
  const starts = new Array<number>(lines.length);
  const entries = new Int32Array(lines.length);
  const lineNos = new Int32Array(lines.length);
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    starts[i] = at;
    at += lines[i].length + 1;
    entries[i] = refs[i].entry;
    lineNos[i] = refs[i].line;
  }
  return { text, lower: lower.length === text.length ? lower : null, starts, entries, lines: lineNos };
}

export interface Found {
  readonly query: string;
  /** Where each match starts in the corpus's text, newest (highest) first; at most MAX_MATCHES. */
  readonly matches: readonly number[];
  /** More matched than were collected. */
  readonly more: boolean;
}

/** Where `query` occurs in the corpus, from the bottom up (smart case); `before`: the search it extends, if any. */
export function findAll(corpus: TranscriptCorpus, query: string, before?: Found): Found {
  if (!query || query.includes('\n')) return { query, matches: [], more: false };
  const exact = caseSensitive(query);
  // Extending the query narrows the matches: each new one is an old one that goes on to match the rest.
  if (before && !before.more && query.startsWith(before.query) && caseSensitive(before.query) === exact && before.query)
    return { query, matches: before.matches.filter((at) => matchesAt(corpus, query, at, exact)), more: false };
  if (!exact && corpus.lower === null) return findByPattern(corpus, query);
  const hay = exact ? corpus.text : (corpus.lower as string);
  const needle = exact ? query : query.toLowerCase();
  const matches: number[] = [];
  let at = hay.lastIndexOf(needle);
  while (at !== -1 && matches.length < MAX_MATCHES) {
    matches.push(at);
    at = at === 0 ? -1 : hay.lastIndexOf(needle, at - 1);
  }
  return { query, matches, more: at !== -1 };
}

function matchesAt(corpus: TranscriptCorpus, query: string, at: number, exact: boolean): boolean {
  if (exact) return corpus.text.startsWith(query, at);
  if (corpus.lower !== null) return corpus.lower.startsWith(query.toLowerCase(), at);
  return corpus.text
    .slice(at, at + query.length * 2)
    .toLowerCase()
    .startsWith(query.toLowerCase());
}

/** Case-blind matching where lower-casing moves offsets (a dotted İ): a pattern over the text itself. */
function findByPattern(corpus: TranscriptCorpus, query: string): Found {
  const pattern = new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
  const all: number[] = [];
  for (const m of corpus.text.matchAll(pattern)) all.push(m.index ?? 0);
  all.reverse();
  return { query, matches: all.slice(0, MAX_MATCHES), more: all.length > MAX_MATCHES };
}

/** The corpus line a position is on. */
export function lineAt(corpus: TranscriptCorpus, at: number): number {
  const starts = corpus.starts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Where the line `line` of entry `entry` is in the corpus (the first line of a later entry when it has none). */
export function positionOf(corpus: TranscriptCorpus, entry: number, line: number): number {
  const { entries, lines, starts } = corpus;
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid] < entry || (entries[mid] === entry && lines[mid] < line)) lo = mid + 1;
    else hi = mid;
  }
  return lo < starts.length ? starts[lo] : corpus.text.length;
}

/** The first match at or above `origin` (a corpus position): the search starts where the view is. -1: none. */
export function firstFrom(found: Found, origin: number): number {
  const k = found.matches.findIndex((at) => at <= origin);
  if (k >= 0) return k;
  // None above: the newest match below, as `less` wraps.
  return found.matches.length > 0 ? 0 : -1;
}

/** A match as the view shows it: its entry and line, and which of the line's matches it is (0: the first). */
export interface MatchRef extends LineRef {
  readonly nth: number;
}

export function matchRef(corpus: TranscriptCorpus, found: Found, k: number): MatchRef | null {
  const at = found.matches[k];
  if (at === undefined) return null;
  const line = lineAt(corpus, at);
  const start = corpus.starts[line];
  // Matches on the same line before this one (they are further on in the list: it runs upwards).
  let nth = 0;
  for (let j = k + 1; j < found.matches.length && found.matches[j] >= start; j++) nth++;
  return { entry: corpus.entries[line], line: corpus.lines[line], nth };
}

/** The count as the status bar says it: `3/17`, `3/10000+`. */
export function countText(found: Found, k: number): string {
  const total = `${found.matches.length}${found.more ? '+' : ''}`;
  return k < 0 ? `0/${total}` : `${k + 1}/${total}`;
}

/**
 * Where `query` occurs in one row of text, as [start, end) index pairs (smart case), for the view to light up. A row is
 * at most a screen wide: a plain scan.
 */
export function occurrences(text: string, query: string): Array<[number, number]> {
  if (!query) return [];
  const exact = caseSensitive(query);
  const hay = exact ? text : text.toLowerCase();
  const needle = exact ? query : query.toLowerCase();
  if (hay.length !== text.length) return [];
  const out: Array<[number, number]> = [];
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + needle.length))
    out.push([at, at + needle.length]);
  return out;
}

// The transcript's rows read off its entries, for the model (transcript-model.ts), which keeps the count and the
// view: the rows above a point, an answer's holes laid out within the bottom rows, a streamed line wrapped again
// where it grew, every line for a search, the row that shows a line, and what is left in the scrollback at quit.
// Each returns the rows it laid out, for the model's count. Pure: no blessed, no I/O.

import type { EmojiWidths } from '../editor/width';
import { pushAll } from '../kernel/arrays';
import type { LineRef } from '../search/transcript-search';
import { type Inert, own } from '../protocol/inert';
import {
  type Entry,
  type EntryKind,
  PREFIX_WIDTH,
  type TranscriptRow,
  fillHole,
  plainRow,
  wrapLine,
  wrapLines,
} from './transcript-entry';

/**
 * The conversation as plain lines for the terminal's scrollback once milk has quit: inputs, answers, notes and
 * errors whole, a tool call as its line (its output and result left out), thoughts left out; `last`: from the last
 * input on. Entries are apart by an empty line.
 */
export function scrollbackOf(
  entries: readonly Entry[],
  which: 'all' | 'last',
): Array<{ kind: EntryKind | 'gap'; text: string }> {
  let from = 0;
  if (which === 'last')
    for (let i = entries.length - 1; i >= 0 && from === 0; i--) if (entries[i].kind === 'user') from = i;
  const out: Array<{ kind: EntryKind | 'gap'; text: string }> = [];
  for (const e of entries.slice(from)) {
    if (e.kind === 'output' || e.kind === 'result' || e.kind === 'thought') continue;
    const text = e.md ? e.md.stream.text : e.lines.join('\n');
    const lines = e.kind === 'tool' || e.kind === 'call' ? [text.split('\n')[0]] : text.replace(/\n+$/, '').split('\n');
    if (out.length > 0) out.push({ kind: 'gap', text: '' });
    for (const line of lines) out.push({ kind: e.kind, text: line });
  }
  return out;
}

/**
 * The last entry's rows after `parts` were appended to its lines (the first part to its last line). Greedy wrapping
 * never revisits a finished row, so only the last row of the growing line is wrapped again, with the new text:
 * streaming a megabyte onto one line stays linear.
 */
export function wrapAppended(entry: Entry, parts: readonly Inert[], width: number, emoji: EmojiWidths): void {
  const inner = width - PREFIX_WIDTH;
  const last = entry.rows[entry.rows.length - 1];
  const joins: string[] = [];
  const line = entry.lines.length - parts.length;
  const continued = wrapLine(own`${last.text}${parts[0]}`, inner, emoji, joins).map((t, k): TranscriptRow =>
    plainRow(t, entry.kind, k === 0 && last.head, line, k === 0 ? last.cont : joins[k - 1]),
  );
  const fresh = wrapLines(entry, entry.lines.length - parts.length + 1, false, width, emoji);
  entry.rows.pop();
  pushAll(entry.rows, continued);
  pushAll(entry.rows, fresh.rows);
  entry.tailRows = parts.length === 1 ? entry.tailRows - 1 + continued.length : fresh.tail;
}

/**
 * The `count` rows (or fewer, at the top) whose last is `skip` rows above the bottom one, oldest first; `owners`
 * gets the entry of each.
 */
export function rowsAbove(entries: readonly Entry[], skip: number, count: number, owners?: number[]): TranscriptRow[] {
  const out: TranscriptRow[][] = [];
  const whose: number[] = [];
  let need = count;
  for (let e = entries.length - 1; e >= 0 && need > 0; e--) {
    const rows = entries[e].rows;
    if (skip >= rows.length) {
      skip -= rows.length;
      continue;
    }
    const end = rows.length - skip;
    const start = Math.max(0, end - need);
    out.push(rows.slice(start, end));
    for (let k = start; k < end; k++) whose.push(e);
    need -= end - start;
    skip = 0;
  }
  if (owners) pushAll(owners, whose.reverse());
  return out.reverse().flat();
}

/**
 * Lays out the answers' holes within the bottom `want` rows, from the bottom up. Holes are only ever above the rows
 * shown (the model lays an answer out whole while the view is scrolled back), so this never moves the view.
 */
export function revealHoles(entries: readonly Entry[], want: number): number {
  let below = 0;
  let filled = 0;
  for (let e = entries.length - 1; e >= 0 && below < want; e--) {
    const entry = entries[e];
    const md = entry.md;
    if (md && md.hi > md.lo) {
      const under = entry.rows.length - md.holeAt;
      if (below + under < want) filled += fillHole(entry, want - below - under);
    }
    below += entry.rows.length;
  }
  return filled;
}

/**
 * Every line of the transcript for a search, each with its entry and line: an entry's lines whole (folded or not),
 * an answer's as its rendered rows (all of them laid out now).
 */
export function searchCorpus(entries: readonly Entry[]): { lines: string[]; refs: LineRef[]; filled: number } {
  const lines: string[] = [];
  const refs: LineRef[] = [];
  let filled = 0;
  entries.forEach((e, entry) => {
    if (e.md) {
      filled += fillHole(e, Infinity);
      const gap = e.rows[0]?.kind === 'gap' ? 1 : 0;
      for (let k = gap; k < e.rows.length; k++) {
        lines.push(e.rows[k].text);
        refs.push({ entry, line: k - gap });
      }
      return;
    }
    e.lines.forEach((text, line) => {
      lines.push(text);
      refs.push({ entry, line });
    });
  });
  return { lines, refs, filled };
}

/** The row of the entry that shows its `line` (as searchCorpus numbers it; an answer's hole laid out first), or -1. */
export function rowOf(e: Entry, line: number): { row: number; filled: number } {
  if (e.md) {
    const filled = fillHole(e, Infinity);
    const gap = e.rows[0]?.kind === 'gap' ? 1 : 0;
    return { row: gap + line < e.rows.length ? gap + line : -1, filled };
  }
  return { row: rowOfLine(e.rows, line), filled: 0 };
}

/** The first row showing line `line` of a plain entry (rows carry their line, in order), or -1. */
function rowOfLine(rows: readonly TranscriptRow[], line: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const at = rows[mid].line ?? -1;
    if (at < line) lo = mid + 1;
    else hi = mid;
  }
  return lo < rows.length && rows[lo].line === line ? lo : -1;
}

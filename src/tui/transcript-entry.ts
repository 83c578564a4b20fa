// One transcript entry laid out at a width: plain lines wrapped at spaces,
// long tool output folded to its head and tail, a tool's long result to its
// first lines, a finished thought to one line, an answer as its Markdown
// stream's rows (those the view has reached, at least). The model
// (transcript-model.ts) keeps the entries and the scroll position. Pure: no
// blessed, no I/O.

import { EmojiWidths, graphemes, graphemeWidth, stringWidth } from '../editor/width';
import type { MdRow, MdSpan } from '../markdown/inline';
import type { MarkdownStream } from '../markdown/stream';
import { pushAll } from '../kernel/arrays';
import { EMPTY, type Inert, joinInert, own, sanitize } from '../protocol/inert';

/**
 * `output`: a command's output as it streams; `result`: what another tool answered (a read's lines, grep's matches);
 * `thought`: the model's reasoning, its first line what it folds to.
 */
/** `tool`: a call that runs a command (marked `$`); `call`: any other tool's call (marked `•`). */
export type EntryKind = 'user' | 'assistant' | 'note' | 'error' | 'tool' | 'call' | 'output' | 'result' | 'thought';

export interface TranscriptRow {
  readonly text: Inert;
  readonly kind: EntryKind | 'gap';
  /** First row of an entry (it carries the entry's marker). */
  readonly head: boolean;
  /** Styled pieces of a rendered Markdown row; absent for plain rows. */
  readonly spans?: readonly MdSpan[];
  /** Which of its entry's lines a plain row shows (a line wrapped takes several rows). */
  readonly line?: number;
  /** The row continues the line of the row above (a soft wrap): what stood between them (a blank, or nothing). */
  readonly cont?: string;
}

export interface Entry {
  /** Changes only when a thinking note becomes the thought it folds to. */
  kind: EntryKind;
  /** Logical lines of the entry. */
  lines: Inert[];
  /** Rows of all lines but the last, then of the last one. */
  rows: TranscriptRow[];
  tailRows: number;
  /** A long output or result, or a thought, is folded (see `foldable`) until expanded. */
  expanded?: boolean;
  /** An answer rendered as Markdown (see AnswerRows). */
  md?: AnswerRows;
}

/**
 * Which of an answer's segments (markdown/stream.ts) are laid out in its
 * entry's rows: those before `lo` and from `hi` to `seen`, then its growing
 * tail's rows. The segments between `lo` and `hi` (the hole) are not
 * rendered yet: they scrolled past unseen, or were never shown, and are laid
 * out when the view reaches them.
 */
export interface AnswerRows {
  stream: MarkdownStream;
  lo: number;
  hi: number;
  seen: number;
  /** Where the hole is in the entry's rows. */
  holeAt: number;
  /** The rows the hole's segments are guessed to take. */
  guess: number;
  /** How many of the entry's last rows are the growing tail's. */
  tail: number;
  /** Text came since the rows were brought up to date. */
  dirty: boolean;
}

function segmentRows(md: AnswerRows, i: number): TranscriptRow[] {
  return md.stream.segmentRows(i).map((r, k) => mdRow(r, i === 0 && k === 0));
}

/**
 * Lays out the hole's last segments, from its bottom up, until at least `want` rows were added (or it is empty);
 * returns the rows added.
 */
export function fillHole(entry: Entry, want: number): number {
  const md = entry.md;
  if (!md || md.hi <= md.lo || want <= 0) return 0;
  const taken: TranscriptRow[][] = [];
  let added = 0;
  while (md.hi > md.lo && added < want) {
    const i = --md.hi;
    md.guess -= md.stream.segmentGuess(i);
    const rows = segmentRows(md, i);
    taken.push(rows);
    added += rows.length;
  }
  if (md.hi === md.lo) md.guess = 0;
  const rows = entry.rows.slice(0, md.holeAt);
  for (const part of taken.reverse()) pushAll(rows, part);
  pushAll(rows, entry.rows.slice(md.holeAt));
  entry.rows = rows;
  return added;
}

/**
 * Brings the last answer's rows up to date with its stream: new segments and
 * the tail. With `room` (the view follows the bottom and shows that many
 * rows), only the newest segments that fill it are laid out; the ones above
 * them, and any laid out after the hole, join the hole. Returns the change
 * in rows laid out.
 */
export function syncAnswer(entry: Entry, room: number | null): number {
  const md = entry.md as AnswerRows;
  const stream = md.stream;
  const n = stream.segmentCount();
  const tail = stream.tailRows();
  const before = entry.rows.length;
  entry.rows.length -= md.tail;
  let from = md.seen;
  if (room !== null) {
    from = n;
    for (let need = room - tail.length; from > md.seen && need > 0;) need -= stream.segmentRows(--from).length;
    if (from > md.seen) {
      if (md.hi > md.lo) {
        for (let i = md.hi; i < md.seen; i++) md.guess += stream.segmentGuess(i);
        entry.rows.length = md.holeAt;
      } else {
        md.lo = md.seen;
        md.holeAt = entry.rows.length;
      }
      for (let i = md.seen; i < from; i++) md.guess += stream.segmentGuess(i);
      md.hi = from;
    }
  }
  for (let i = from; i < n; i++) for (const r of segmentRows(md, i)) entry.rows.push(r);
  tail.forEach((r, k) => entry.rows.push(mdRow(r, n === 0 && k === 0)));
  md.seen = n;
  md.tail = tail.length;
  return entry.rows.length - before;
}

export function mdRow(r: MdRow, head: boolean): TranscriptRow {
  const text = joinInert(
    r.map((s) => s.text),
    EMPTY,
  );
  return r.soft === undefined
    ? { text, kind: 'assistant', head, spans: r }
    : { text, kind: 'assistant', head, spans: r, cont: r.soft };
}

/** Cells before each row's text (the entry's marker). */
export const PREFIX_WIDTH = 2;
/** Tool output longer than this many lines is folded to its first and last FOLD_KEEP. */
export const FOLD_LINES = 20;
const FOLD_KEEP = 10;
/** A tool's result longer than this many lines shows its first RESULT_KEEP: enough to see what it found. */
export const RESULT_LINES = 8;
const RESULT_KEEP = 6;

/** Lines of output, not counting the empty one after a final newline. */
export const outputLines = (e: Entry): number => e.lines.length - (e.lines[e.lines.length - 1] === '' ? 1 : 0);

/** Whether an entry has more to show than it does folded: what the fold key expands. */
export function foldable(e: Entry): boolean {
  if (e.kind === 'output') return outputLines(e) > FOLD_LINES;
  if (e.kind === 'result') return outputLines(e) > RESULT_LINES;
  return e.kind === 'thought' && e.lines.length > 1;
}

export const folds = (e: Entry): boolean => !e.expanded && foldable(e);

/**
 * Wraps one line to `width` cells: at spaces when it can, inside a word when it must. `joins`, when given, gets for
 * each row after the first what stood between it and the row before (the blank dropped, or nothing).
 */
export function wrapLine(line: Inert, width: number, emoji: EmojiWidths, joins?: string[]): Inert[] {
  const w = Math.max(1, width);
  if (line.length <= w && stringWidth(line, emoji) <= w) return [line];
  const out: string[] = [];
  let row = '';
  let rowWidth = 0;
  let lastSpace = -1;
  for (const g of graphemes(line)) {
    const gw = graphemeWidth(g, emoji);
    if (rowWidth + gw > w) {
      if (lastSpace > 0 && g !== ' ') {
        out.push(row.slice(0, lastSpace));
        row = row.slice(lastSpace + 1);
        rowWidth = stringWidth(row, emoji);
        joins?.push(' ');
      } else {
        out.push(row);
        row = '';
        rowWidth = 0;
        joins?.push(g === ' ' ? ' ' : '');
      }
      lastSpace = -1;
      if (g === ' ' && row === '') continue;
    }
    if (g === ' ') lastSpace = row.length;
    row += g;
    rowWidth += gw;
  }
  out.push(row);
  // Rows cut from inert text between graphemes or at a blank are inert.
  return out as Inert[];
}

/**
 * Lays one entry out at a width: its rows; for an answer only its tail's, every segment left in the hole for the view
 * to reach.
 */
/** `foldKey`: the key that shows a folded output whole, as bound (its marker says it). */
export function layoutEntry(entry: Entry, index: number, width: number, emoji: EmojiWidths, foldKey: string): void {
  const gap: TranscriptRow[] = index > 0 ? [{ text: EMPTY, kind: 'gap', head: false }] : [];
  const md = entry.md;
  if (md) {
    md.stream.setLayout(width - PREFIX_WIDTH, emoji);
    const n = md.stream.segmentCount();
    const tail = md.stream.tailRows();
    entry.rows = [...gap, ...tail.map((r, k) => mdRow(r, n === 0 && k === 0))];
    Object.assign(md, { lo: 0, hi: n, seen: n, holeAt: gap.length, guess: 0, tail: tail.length, dirty: false });
    for (let i = 0; i < n; i++) md.guess += md.stream.segmentGuess(i);
    return;
  }
  if (folds(entry)) {
    const folded = foldedRows(entry, width, emoji, foldKey);
    entry.rows = [...gap, ...folded.rows];
    entry.tailRows = folded.tail;
    return;
  }
  const lastLine = entry.lines.length - 1;
  const body = wrapLines(entry, 0, true, width, emoji, lastLine);
  const tail = wrapLines(entry, lastLine, lastLine === 0, width, emoji);
  entry.rows = [...gap, ...body.rows, ...tail.rows];
  entry.tailRows = tail.rows.length;
}

/** A folded entry's rows: an output's head and tail, a result's first lines, a thought's first line; and the key. */
function foldedRows(
  entry: Entry,
  width: number,
  emoji: EmojiWidths,
  foldKey: string,
): { rows: TranscriptRow[]; tail: number } {
  const key = sanitize(foldKey);
  const shows = (what: Inert): Inert => (foldKey ? own` (${key} shows ${what})` : EMPTY);
  if (entry.kind === 'thought') {
    const line = wrapLines({ ...entry, lines: [own`${entry.lines[0]}${shows(own`it`)}`] }, 0, true, width, emoji);
    return { rows: line.rows, tail: line.rows.length };
  }
  const n = outputLines(entry);
  const keep = entry.kind === 'result' ? RESULT_KEEP : FOLD_KEEP;
  const head = wrapLines(entry, 0, true, width, emoji, keep).rows;
  const hidden = entry.kind === 'result' ? n - keep : n - 2 * keep;
  const marker: TranscriptRow = {
    text: own`… ${hidden} ${entry.kind === 'result' ? own`more lines` : own`lines hidden`}${shows(own`them`)}`,
    kind: 'note',
    head: false,
  };
  if (entry.kind === 'result') return { rows: [...head, marker], tail: 1 };
  const tail = wrapLines(entry, n - keep, false, width, emoji, n);
  return { rows: [...head, marker, ...tail.rows], tail: tail.tail };
}

/** Rows of lines `from` to `to` of an entry; `tail` is how many the last line took. */
export function wrapLines(
  entry: Entry,
  from: number,
  headFirst: boolean,
  width: number,
  emoji: EmojiWidths,
  to = entry.lines.length,
): { rows: TranscriptRow[]; tail: number } {
  const rows: TranscriptRow[] = [];
  let tail = 0;
  const inner = width - PREFIX_WIDTH;
  for (let i = from; i < to; i++) {
    const joins: string[] = [];
    const wrapped = wrapLine(entry.lines[i], inner, emoji, joins);
    wrapped.forEach((text, k) =>
      rows.push(plainRow(text, entry.kind, headFirst && i === from && k === 0, i, k > 0 ? joins[k - 1] : undefined)),
    );
    tail = wrapped.length;
  }
  return { rows, tail };
}

/** A plain row: line `line` of its entry, or of it the part after a soft wrap (`cont`: what stood between). */
export function plainRow(text: Inert, kind: EntryKind, head: boolean, line: number, cont?: string): TranscriptRow {
  return cont === undefined ? { text, kind, head, line } : { text, kind, head, line, cont };
}

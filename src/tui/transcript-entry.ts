// One transcript entry laid out at a width: plain lines wrapped at spaces,
// long tool output folded to its head and tail, an answer as its Markdown
// stream's rows. The model (transcript-model.ts) keeps the entries and the
// scroll position. Pure: no blessed, no I/O.

import { EmojiWidths, graphemes, graphemeWidth, stringWidth } from '../editor/width';
import type { MdRow, MdSpan } from '../markdown/render';
import type { MarkdownStream } from '../markdown/stream';

export type EntryKind = 'user' | 'assistant' | 'note' | 'error' | 'tool' | 'output';

export interface TranscriptRow {
  readonly text: string;
  readonly kind: EntryKind | 'gap';
  /** First row of an entry (it carries the entry's marker). */
  readonly head: boolean;
  /** Styled pieces of a rendered Markdown row; absent for plain rows. */
  readonly spans?: readonly MdSpan[];
}

export interface Entry {
  readonly kind: EntryKind;
  /** Logical lines of the entry. */
  lines: string[];
  /** Rows of all lines but the last, then of the last one. */
  rows: TranscriptRow[];
  tailRows: number;
  /** Tool output longer than FOLD_LINES shows its head and tail until expanded. */
  expanded?: boolean;
  /** An answer rendered as Markdown; `frozen` of its rows are final, the last `tail` may change. */
  md?: { stream: MarkdownStream; frozen: number; tail: number; dirty: boolean };
}

export function mdRow(r: MdRow, head: boolean): TranscriptRow {
  return { text: r.map((s) => s.text).join(''), kind: 'assistant', head, spans: r };
}

/** Cells before each row's text (the entry's marker). */
export const PREFIX_WIDTH = 2;
/** Tool output longer than this many lines is folded to its first and last FOLD_KEEP. */
export const FOLD_LINES = 20;
const FOLD_KEEP = 10;

/** Lines of output, not counting the empty one after a final newline. */
export const outputLines = (e: Entry): number => e.lines.length - (e.lines[e.lines.length - 1] === '' ? 1 : 0);
export const folds = (e: Entry): boolean => e.kind === 'output' && !e.expanded && outputLines(e) > FOLD_LINES;

/** Wraps one line to `width` cells: at spaces when it can, inside a word when it must. */
export function wrapLine(line: string, width: number, emoji: EmojiWidths): string[] {
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
      } else {
        out.push(row);
        row = '';
        rowWidth = 0;
      }
      lastSpace = -1;
      if (g === ' ' && row === '') continue;
    }
    if (g === ' ') lastSpace = row.length;
    row += g;
    rowWidth += gw;
  }
  out.push(row);
  return out;
}

/** Lays one entry out at a width: its rows, and for an answer how many of them are final. */
export function layoutEntry(entry: Entry, index: number, width: number, emoji: EmojiWidths): void {
  const gap: TranscriptRow[] = index > 0 ? [{ text: '', kind: 'gap', head: false }] : [];
  if (entry.md) {
    entry.md.stream.setLayout(width - PREFIX_WIDTH, emoji);
    const frozen = entry.md.stream.frozenRows();
    const tail = entry.md.stream.tailRows();
    entry.rows = [...gap, ...[...frozen, ...tail].map((r, k) => mdRow(r, k === 0))];
    entry.md.frozen = frozen.length;
    entry.md.tail = tail.length;
    entry.md.dirty = false;
    return;
  }
  if (folds(entry)) {
    const n = outputLines(entry);
    const head = wrapLines(entry, 0, true, width, emoji, FOLD_KEEP).rows;
    const marker: TranscriptRow = { text: `… ${n - 2 * FOLD_KEEP} lines hidden (Ctrl+O shows them)`, kind: 'note', head: false };
    const tail = wrapLines(entry, n - FOLD_KEEP, false, width, emoji, n);
    entry.rows = [...gap, ...head, marker, ...tail.rows];
    entry.tailRows = tail.tail;
    return;
  }
  const lastLine = entry.lines.length - 1;
  const body = wrapLines(entry, 0, true, width, emoji, lastLine);
  const tail = wrapLines(entry, lastLine, lastLine === 0, width, emoji);
  entry.rows = [...gap, ...body.rows, ...tail.rows];
  entry.tailRows = tail.rows.length;
}

/** Rows of lines `from` to `to` of an entry; `tail` is how many the last line took. */
export function wrapLines(entry: Entry, from: number, headFirst: boolean, width: number, emoji: EmojiWidths, to = entry.lines.length): { rows: TranscriptRow[]; tail: number } {
  const rows: TranscriptRow[] = [];
  let tail = 0;
  const inner = width - PREFIX_WIDTH;
  for (let i = from; i < to; i++) {
    const wrapped = wrapLine(entry.lines[i], inner, emoji);
    wrapped.forEach((text, k) => rows.push({ text, kind: entry.kind, head: headFirst && i === from && k === 0 }));
    tail = wrapped.length;
  }
  return { rows, tail };
}

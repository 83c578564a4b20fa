// Turns state into rows of styled spans for two of the three areas: the
// transcript and the composer (status-row.ts draws the status bar; a modal view
// paints its own rows: composer/views). Pure functions of their inputs: the views hold no state of their own
// beyond the composer's scroll position, which the caller keeps.

import type { EditorState } from '../editor/model';
import { layout, scrollTop } from '../editor/layout';
import { CLUSTERING, EmojiWidths, stringWidth } from '../editor/width';
import { GridRow, Span, Style, markCells } from '../kernel/rows';
import type { TranscriptModel, TranscriptRow } from './transcript-model';
import { PREFIX_WIDTH } from './transcript-entry';
import { Point, Selected, rowCells, textCells } from './selection';
import { occurrences } from '../search/transcript-search';
import { coloured } from '../markdown/render';
import { own, spaces } from '../protocol/inert';

const ROW_STYLE: Record<TranscriptRow['kind'], Style> = {
  user: 'bold',
  assistant: 'normal',
  note: 'dim',
  error: 'error',
  gap: 'normal',
  tool: 'paste',
  call: 'paste',
  output: 'dim',
  result: 'dim',
  thought: 'dim',
};

/** A numbered diff line: `  12 +text`, `  12 -text`, `  12  text`. */
const DIFF_LINE = /^ *\d+ ([+ -])/;

/** What the transcript lights up over its text: a search's matches (the one it is at apart), a selection, a cursor. */
export interface TranscriptMarks {
  readonly query: string;
  /** The match the search is at: the row its line starts on (a serial) and which of the line's matches it is. */
  readonly current: { readonly serial: number; readonly nth: number } | null;
  readonly selection: Selected | null;
  /** Copy mode's cursor. */
  readonly cursor: Point | null;
}

export function transcriptRows(
  model: TranscriptModel,
  height: number,
  marks?: TranscriptMarks | null,
  emoji: EmojiWidths = CLUSTERING,
): GridRow[] {
  const rows = model.visible(height);
  const painted = rows.map(paintRow);
  if (!marks) return painted;
  const top = model.serialOf(model.below + rows.length - 1);
  return markRows(rows, painted, top, marks, emoji);
}

function paintRow(row: TranscriptRow): GridRow {
  if (row.kind === 'gap') return [];
  const marker: Span =
    row.head && row.kind === 'user'
      ? { text: own`› `, style: 'user' }
      : row.head && row.kind === 'error'
        ? { text: own`! `, style: 'error' }
        : row.head && row.kind === 'tool'
          ? { text: own`$ `, style: 'paste' }
          : row.head && row.kind === 'call'
            ? { text: own`• `, style: 'paste' }
            : { text: own`  `, style: 'normal' };
  if (row.spans) return [marker, ...coloured(row.spans)];
  // A change's diff in its tool block (tools/files.ts numbers its lines): additions and removals in their colours,
  // the lines around them plain.
  if ((row.kind === 'tool' || row.kind === 'call') && !row.head) {
    const sign = DIFF_LINE.exec(row.text)?.[1];
    const style: Style =
      sign === '+' ? 'diffAdd' : sign === '-' ? 'diffDel' : row.text.startsWith('@@') ? 'dim' : 'normal';
    return [marker, { text: row.text, style }];
  }
  return [marker, { text: row.text, style: ROW_STYLE[row.kind] }];
}

/** The rows with the marks lit: every match in view, the current one, the selection, the cursor (in that order). */
function markRows(
  rows: readonly TranscriptRow[],
  painted: GridRow[],
  top: number,
  marks: TranscriptMarks,
  emoji: EmojiWidths,
): GridRow[] {
  const cellsOf = (text: string, [a, b]: [number, number]): [number, number] => {
    const from = stringWidth(text.slice(0, a), emoji);
    return [PREFIX_WIDTH + from, PREFIX_WIDTH + from + stringWidth(text.slice(a, b), emoji)];
  };
  // Matches counted along the current match's line, which may wrap over several rows.
  let nth = -1;
  return painted.map((row, k) => {
    const serial = top + k;
    const text = rows[k].text;
    let out = row;
    if (marks.query) {
      if (marks.current && serial === marks.current.serial) nth = 0;
      else if (nth >= 0 && rows[k].cont === undefined) nth = -1;
      for (const hit of occurrences(text, marks.query)) {
        const [a, b] = cellsOf(text, hit);
        out = markCells(out, a, b, nth === marks.current?.nth ? 'current' : 'match', emoji);
        if (nth >= 0) nth++;
      }
    }
    const sel = marks.selection && rowCells(marks.selection, serial);
    if (sel) {
      const end = sel.to === Infinity ? Math.max(textCells(text, emoji), 1) : sel.to;
      out = markCells(out, PREFIX_WIDTH + sel.from, PREFIX_WIDTH + end, 'highlight', emoji);
    }
    if (marks.cursor && marks.cursor.serial === serial) {
      const col = PREFIX_WIDTH + marks.cursor.col;
      // Past the text's end the cursor is a blank cell.
      const used = stringWidth(plainText(out), emoji);
      if (col >= used) out = [...out, { text: spaces(col - used + 1), style: 'normal' }];
      out = markCells(out, col, col + 1, 'current', emoji);
    }
    return out;
  });
}

const plainText = (row: GridRow): string => row.map((s) => s.text).join('');

export interface ComposerView {
  rows: GridRow[];
  /** Total rows the content needs (the composer grows up to its maximum). */
  contentRows: number;
  cursorRow: number;
  cursorCol: number;
  top: number;
}

/** Lays out the composer; `highlight` marks a buffer range (a search match). */
export function composerView(
  s: EditorState,
  width: number,
  height: number,
  prevTop: number,
  emoji: EmojiWidths,
  highlight?: { start: number; end: number },
): ComposerView {
  const l = layout(s, width, emoji);
  const top = scrollTop(prevTop, l.cursorRow, l.rows.length, height);
  const rows = l.rows.slice(top, top + height).map((row): GridRow => {
    const spans: Span[] = [];
    for (const atom of row.atoms) {
      const lit = highlight && atom.start < highlight.end && atom.end > highlight.start;
      const style: Style = lit ? 'match' : atom.paste ? 'paste' : 'normal';
      const last = spans[spans.length - 1];
      if (last && last.style === style) spans[spans.length - 1] = { text: own`${last.text}${atom.display}`, style };
      else spans.push({ text: atom.display, style });
    }
    return spans;
  });
  return { rows, contentRows: l.rows.length, cursorRow: l.cursorRow - top, cursorCol: l.cursorCol, top };
}

// Turns state into rows of styled spans for the three areas: the transcript,
// the composer and the status bar (a modal view paints its own rows: composer/
// views). Pure functions of their inputs: the views hold no state of their own
// beyond the composer's scroll position, which the caller keeps.

import type { EditorState } from '../editor/model';
import { layout, scrollTop } from '../editor/layout';
import { CLUSTERING, EmojiWidths, stringWidth } from '../editor/width';
import { GridRow, Span, Style, fit, markCells } from '../kernel/rows';
import type { TranscriptModel, TranscriptRow } from './transcript-model';
import { PREFIX_WIDTH } from './transcript-entry';
import { Point, Selected, rowCells, textCells } from './selection';
import { occurrences } from '../search/transcript-search';
import { coloured } from '../markdown/render';
import type { HistoryMode } from '../settings/store';

const ROW_STYLE: Record<TranscriptRow['kind'], Style> = {
  user: 'bold',
  assistant: 'normal',
  note: 'dim',
  error: 'error',
  gap: 'normal',
  tool: 'paste',
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
      ? { text: '› ', style: 'user' }
      : row.head && row.kind === 'error'
        ? { text: '! ', style: 'error' }
        : row.head && row.kind === 'tool'
          ? { text: '$ ', style: 'paste' }
          : { text: '  ', style: 'normal' };
  if (row.spans) return [marker, ...coloured(row.spans)];
  // A change's diff in its tool block (tools/files.ts numbers its lines): additions and removals in their colours,
  // the lines around them plain.
  if (row.kind === 'tool' && !row.head) {
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
      if (col >= used) out = [...out, { text: ' '.repeat(col - used + 1), style: 'normal' }];
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
      if (last && last.style === style) spans[spans.length - 1] = { text: last.text + atom.display, style };
      else spans.push({ text: atom.display, style });
    }
    return spans;
  });
  return { rows, contentRows: l.rows.length, cursorRow: l.cursorRow - top, cursorCol: l.cursorCol, top };
}

export interface StatusState {
  sessionId: string;
  historyMode: HistoryMode;
  busySince: number | null;
  now: number;
  queued: number;
  warning: string | null;
  hint: string | null;
  /** A short-lived line (e.g. completion candidates); shown before the busy hint. */
  notice?: string | null;
  /** Replaces the left side, e.g. the search prompt. */
  prompt: string | null;
  /** The keys that answer the prompt: kept on screen whatever else is cut. */
  legend?: string | null;
  /** The key that interrupts a turn, as bound (said while one runs). */
  interruptKey?: string;
  force: boolean;
  /** The approval mode, when not force; shown unless it is ask. */
  approval?: string;
  /** Tools that run without asking this session. */
  always?: string[];
  /**
   * Tokens of the last turn (in, of which cached, out) and the conversation's total, when the server reports them.
   */
  usage?: { input: number; output: number; cached?: number; total: number } | null;
  /** The reasoning effort asked, where one is. */
  effort?: string | null;
  /** The conversation's cost in money, where a price is known. */
  money?: string | null;
  /** How many MCP servers are ready of those configured ("mcp 2/3"). */
  mcp?: string | null;
  /**
   * The share of the model's context window the conversation takes (0-1), once a turn has ended, and the share past
   * which it is compacted.
   */
  context?: { share: number; compactAt: number } | null;
}

/** 1234 → 1.2k, for the status bar. */
export function tokens(n: number): string {
  return n < 1000 ? String(n) : n < 1_000_000 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1_000_000).toFixed(1)}M`;
}

/** What the left side keeps at least: " milk │ " and a few letters of the session. */
const MIN_LEFT = 16;

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A right-hand part: `cut` ones shrink to the room left rather than leave;
 * `late` ones are fitted after the others (whole or not at all) but drawn
 * where they stand; `yields` ones (the hint, "Esc to interrupt") take only
 * what the left side leaves, where the others make the session id give way.
 */
type Part = Span & { cut?: boolean; late?: boolean; yields?: boolean };

/** The right-hand parts, in the order they are drawn. */
function rightParts(st: StatusState): Part[] {
  const parts: Part[] = [];
  if (st.legend) parts.push({ text: ` ${st.legend} `, style: 'statusStrong' });
  // Each mode by its one name, as --approval and /approval spell it.
  if (st.force) parts.push({ text: ' full-auto ', style: 'force' });
  else if (st.approval && st.approval !== 'ask') parts.push({ text: ` ${st.approval} `, style: 'force' });
  if (st.effort) parts.push({ text: ` effort ${st.effort} `, style: 'status', yields: true });
  if (!st.force && st.always?.length) parts.push({ text: ` always: ${st.always.join(', ')} `, style: 'force' });
  if (st.queued > 0) parts.push({ text: ` ${st.queued} queued `, style: 'statusStrong' });
  if (st.busySince !== null) {
    const secs = Math.floor((st.now - st.busySince) / 1000);
    const frame = SPINNER[Math.floor(st.now / 100) % SPINNER.length];
    parts.push({ text: ` ${frame} working ${secs}s `, style: 'statusStrong' });
  }
  // What the last turn cost: tokens in (and how many of them the server's cache had) and out, and the conversation's
  // total so far, in tokens and money.
  if (st.usage && st.busySince === null) {
    const u = st.usage;
    const cached = u.cached ? ` (${tokens(u.cached)} cached)` : '';
    const money = st.money ? ` ${st.money}` : '';
    parts.push({
      text: ` ↑${tokens(u.input)}${cached} ↓${tokens(u.output)} Σ${tokens(u.total)}${money} `,
      style: 'statusStrong',
    });
  }
  // The context gauge: the share of the model's window in use; near compaction it says so, in the warning colour.
  if (st.context && st.busySince === null && st.prompt === null) {
    const pct = Math.round(st.context.share * 100);
    // Within ten points of compaction.
    if (st.context.share >= st.context.compactAt - 0.1)
      parts.push({ text: ` ctx ${pct}% · compacts at ${Math.round(st.context.compactAt * 100)}% `, style: 'warning' });
    else parts.push({ text: ` ctx ${pct}% `, style: 'status', yields: true });
  }
  if (st.mcp) parts.push({ text: ` ${st.mcp} `, style: 'status', yields: true });
  if (st.warning) parts.push({ text: ` ⚠ ${st.warning} `, style: 'warning', cut: true });
  else if (st.notice) parts.push({ text: ` ${st.notice} `, style: 'status', cut: true });
  // Under a question, Esc answers it: the question's legend says what each key does.
  if (st.busySince !== null && st.prompt === null) {
    if (!st.warning && !st.notice && st.interruptKey !== '')
      parts.push({ text: ` ${st.interruptKey ?? 'Esc'} to interrupt `, style: 'status', cut: true, yields: true });
  } else if (st.hint && st.prompt === null) {
    // The provider and model stay beside a notice (the Tab-completion list after /model) when both fit.
    parts.push(
      st.warning || st.notice
        ? { text: ` ${st.hint} `, style: 'status', late: true, yields: true }
        : { text: ` ${st.hint} `, style: 'status', cut: true, yields: true },
    );
  }
  return parts;
}

/**
 * The left side: milk, the session id and the history mode. The mode is
 * what a key (Up, Ctrl+R) acts on, so the session id gives way first: it is
 * cut, then left out, before the mode is.
 */
function leftSpans(st: StatusState, room: number, emoji: EmojiWidths): Span[] {
  if (st.prompt !== null) return [{ text: fit(' ' + st.prompt + ' ', room, emoji), style: 'statusStrong' }];
  const milk = ' milk ';
  const mode = `│ history: ${st.historyMode} `;
  const sidRoom = room - stringWidth(milk + mode, emoji) - 3;
  if (sidRoom >= Math.min(8, stringWidth(st.sessionId, emoji))) {
    return [
      { text: milk, style: 'statusStrong' },
      { text: `│ ${fit(st.sessionId, sidRoom, emoji)} ${mode}`, style: 'status' },
    ];
  }
  const out: Span[] = [{ text: fit(milk, room, emoji), style: 'statusStrong' }];
  const left = room - stringWidth(out[0].text, emoji);
  if (left > 1) out.push({ text: fit(mode, left, emoji), style: 'status' });
  return out;
}

export function statusRow(st: StatusState, width: number, emoji: EmojiWidths): GridRow {
  const parts = rightParts(st);
  // The left side shrinks to make room for the right-hand parts that matter more than the session id.
  const essential = parts.filter((p) => !p.yields).reduce((n, p) => n + stringWidth(p.text, emoji), 0);
  // A prompt (search, approval) is what the person is reading: it keeps at least half; else milk and the history mode
  // stay.
  const minLeft =
    st.prompt !== null
      ? Math.min(Math.floor(width / 2), stringWidth(` ${st.prompt} `, emoji))
      : Math.max(MIN_LEFT, stringWidth(` milk │ history: ${st.historyMode} `, emoji));
  const leftRoom = Math.max(Math.min(minLeft, width), width - essential);
  const leftOut = leftSpans(st, leftRoom, emoji).filter((sp) => sp.text);
  let room = width - leftOut.reduce((n, sp) => n + stringWidth(sp.text, emoji), 0);
  // Whole parts first in order, then cut ones in what is left, then late ones whole if they still fit.
  const shown = new Map<Part, string>();
  const passOf = (p: Part): 'whole' | 'cut' | 'late' => (p.late ? 'late' : p.cut ? 'cut' : 'whole');
  for (const pass of ['whole', 'cut', 'late'] as const) {
    for (const part of parts) {
      if (passOf(part) !== pass) continue;
      const w = stringWidth(part.text, emoji);
      if (w <= room) {
        shown.set(part, part.text);
        room -= w;
      } else if (pass === 'cut' && room > 4) {
        const text = fit(part.text, room, emoji);
        shown.set(part, text);
        room -= stringWidth(text, emoji);
      }
    }
  }
  const right = parts.filter((p) => shown.has(p)).map((p): Span => ({ text: shown.get(p) as string, style: p.style }));
  return [...leftOut, { text: ' '.repeat(Math.max(0, room)), style: 'status' }, ...right];
}

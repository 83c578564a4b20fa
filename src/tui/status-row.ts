// The status bar's one row, drawn from its state (status-model.ts keeps it): milk, the session and the history mode
// on the left, giving way to a prompt; on the right what is going on (the mode, a turn's spinner, what it cost, the
// context gauge, a warning or a hint), each part whole, cut or left out as the width allows. Pure.

import { EmojiWidths, stringWidth } from '../editor/width';
import { GridRow, Span, fit } from '../kernel/rows';
import type { HistoryMode } from '../settings/store';
import { EMPTY, type Inert, joinInert, own, sanitize, spaces } from '../protocol/inert';

/** What the status bar shows; every word of it inert (StatusModel makes what comes from elsewhere so). */
export interface StatusState {
  sessionId: Inert;
  historyMode: HistoryMode;
  busySince: number | null;
  now: number;
  queued: number;
  warning: Inert | null;
  hint: Inert | null;
  /** A short-lived line (e.g. completion candidates); shown before the busy hint. */
  notice?: Inert | null;
  /** Replaces the left side, e.g. the search prompt. */
  prompt: Inert | null;
  /** The keys that answer the prompt: kept on screen whatever else is cut. */
  legend?: Inert | null;
  /** The key that interrupts a turn, as bound (said while one runs). */
  interruptKey?: Inert;
  force: boolean;
  /** The approval mode, when not force; shown unless it is ask. */
  approval?: Inert;
  /** Tools that run without asking this session. */
  always?: Inert[];
  /**
   * Tokens of the last turn (in, of which cached, out) and the conversation's total, when the server reports them.
   */
  usage?: { input: number; output: number; cached?: number; total: number } | null;
  /** The reasoning effort asked, where one is. */
  effort?: Inert | null;
  /** The conversation's cost in money, where a price is known. */
  money?: Inert | null;
  /** How many MCP servers are ready of those configured ("mcp 2/3"). */
  mcp?: Inert | null;
  /**
   * The share of the model's context window the conversation takes (0-1), once a turn has ended, and the share past
   * which it is compacted.
   */
  context?: { share: number; compactAt: number } | null;
  /** vi mode's state (INSERT, NORMAL, VISUAL…); absent in emacs mode. */
  vi?: Inert | null;
  /** The person's own status line (config `statusLine`): a command's first line, or milk's items. */
  custom?: Inert | null;
}

/** 1234 → 1.2k, for the status bar. */
export function tokens(n: number): Inert {
  return sanitize(
    n < 1000 ? String(n) : n < 1_000_000 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1_000_000).toFixed(1)}M`,
  );
}

const HISTORY_MODE: Record<HistoryMode, Inert> = { session: own`session`, global: own`global` };

/** What the left side keeps at least: " milk │ " and a few letters of the session. */
const MIN_LEFT = 16;

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'].map(sanitize);

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
  if (st.legend) parts.push({ text: own` ${st.legend} `, style: 'statusStrong' });
  // vi's state, as vim's `-- INSERT --`: what a letter typed will do.
  if (st.vi && st.prompt === null) parts.push({ text: own` ${st.vi} `, style: 'statusStrong' });
  // Each mode by its one name, as --approval and /approval spell it.
  if (st.force) parts.push({ text: own` full-auto `, style: 'force' });
  else if (st.approval && st.approval !== 'ask') parts.push({ text: own` ${st.approval} `, style: 'force' });
  if (st.effort) parts.push({ text: own` effort ${st.effort} `, style: 'status', yields: true });
  if (!st.force && st.always?.length)
    parts.push({ text: own` always: ${joinInert(st.always, own`, `)} `, style: 'force' });
  if (st.queued > 0) parts.push({ text: own` ${st.queued} queued `, style: 'statusStrong' });
  if (st.busySince !== null) {
    const secs = Math.floor((st.now - st.busySince) / 1000);
    const frame = SPINNER[Math.floor(st.now / 100) % SPINNER.length];
    // Under a question its legend matters more: the time gives way to it.
    parts.push({ text: own` ${frame} working ${secs}s `, style: 'statusStrong', yields: st.prompt !== null });
  }
  // What the last turn cost: tokens in (and how many of them the server's cache had) and out, and the conversation's
  // total so far, in tokens and money.
  if (st.usage && st.busySince === null) {
    const u = st.usage;
    const cached = u.cached ? own` (${tokens(u.cached)} cached)` : EMPTY;
    const money = st.money ? own` ${st.money}` : EMPTY;
    parts.push({
      text: own` ↑${tokens(u.input)}${cached} ↓${tokens(u.output)} Σ${tokens(u.total)}${money} `,
      style: 'statusStrong',
    });
  }
  // The context gauge: the share of the model's window in use; near compaction it says so, in the warning colour.
  if (st.context && st.busySince === null && st.prompt === null) {
    const pct = Math.round(st.context.share * 100);
    // Within ten points of compaction.
    if (st.context.share >= st.context.compactAt - 0.1)
      parts.push({
        text: own` ctx ${pct}% · compacts at ${Math.round(st.context.compactAt * 100)}% `,
        style: 'warning',
      });
    else parts.push({ text: own` ctx ${pct}% `, style: 'status', yields: true });
  }
  if (st.mcp) parts.push({ text: own` ${st.mcp} `, style: 'status', yields: true });
  if (st.warning) parts.push({ text: own` ⚠ ${st.warning} `, style: 'warning', cut: true });
  else if (st.notice) parts.push({ text: own` ${st.notice} `, style: 'status', cut: true });
  // The person's own line, after what milk must say and before the provider's hint, which it outranks.
  if (st.custom && st.prompt === null)
    parts.push({ text: own` ${st.custom} `, style: 'status', cut: true, yields: true });
  // Under a question, Esc answers it: the question's legend says what each key does.
  // While a turn runs the bar always says how to stop it: whole, fitted before a warning or notice is cut to the rest.
  if (st.busySince !== null && st.prompt === null) {
    if (st.interruptKey !== '')
      parts.push({ text: own` ${st.interruptKey ?? own`Esc`} to interrupt `, style: 'status' });
  } else if (st.hint && st.prompt === null) {
    // The provider and model stay beside a notice (the Tab-completion list after /model) when both fit.
    parts.push(
      st.warning || st.notice
        ? { text: own` ${st.hint} `, style: 'status', late: true, yields: true }
        : { text: own` ${st.hint} `, style: 'status', cut: true, yields: true },
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
  if (st.prompt !== null) return [{ text: fit(own` ${st.prompt} `, room, emoji), style: 'statusStrong' }];
  const milk = own` milk `;
  const mode = own`│ history: ${HISTORY_MODE[st.historyMode]} `;
  const sidRoom = room - stringWidth(milk + mode, emoji) - 3;
  if (sidRoom >= Math.min(8, stringWidth(st.sessionId, emoji))) {
    return [
      { text: milk, style: 'statusStrong' },
      { text: own`│ ${fit(st.sessionId, sidRoom, emoji)} ${mode}`, style: 'status' },
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
  // A prompt (search, approval) is what the person is reading: it keeps at least half, less what the keys that answer
  // it need (they are never left out; the prompt keeps a third); else milk and the history mode stay.
  const legend = st.legend ? stringWidth(` ${st.legend} `, emoji) : 0;
  const minLeft =
    st.prompt !== null
      ? Math.min(
          Math.max(Math.floor(width / 3), Math.min(Math.floor(width / 2), width - legend)),
          stringWidth(` ${st.prompt} `, emoji),
        )
      : Math.max(MIN_LEFT, stringWidth(` milk │ history: ${st.historyMode} `, emoji));
  const leftRoom = Math.max(Math.min(minLeft, width), width - essential);
  const leftOut = leftSpans(st, leftRoom, emoji).filter((sp) => sp.text);
  let room = width - leftOut.reduce((n, sp) => n + stringWidth(sp.text, emoji), 0);
  // Whole parts first in order, then cut ones in what is left, then late ones whole if they still fit.
  const shown = new Map<Part, Inert>();
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
  const right = parts.filter((p) => shown.has(p)).map((p): Span => ({ text: shown.get(p) as Inert, style: p.style }));
  return [...leftOut, { text: spaces(room), style: 'status' }, ...right];
}

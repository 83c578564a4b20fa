// What the status bar says, as state: a warning (shown for a while, and kept
// in the transcript so none is lost when the next replaces it), a short-lived
// hint, and the spinner's tick while a turn runs. Owns those timers and
// nothing else; statusRow in views.ts draws what snapshot() returns.

import type { Bus } from '../kernel/bus';
import { type Inert, own, sanitize } from '../protocol/inert';
import type { StatusState } from './status-row';
import type { HistoryMode } from '../settings/store';

const WARNING_MS = 15_000;
const HINT_MS = 5_000;
const SPINNER_MS = 100;

/** What the status bar reads from the rest of the program at paint time. */
export interface StatusSources {
  sessionId: string;
  historyMode: () => HistoryMode;
  busySince: () => number | null;
  queued: () => number;
  force: () => boolean;
  /** The approval mode chosen under force mode (shown when it is not the default, ask). */
  approval?: () => string;
  /** Tools on "always" this session. */
  always: () => string[];
  /** The provider's own hint (e.g. how to configure it, or the model /model switched to). */
  providerHint: () => string | null;
  /** The MCP servers ready of those configured ("mcp 2/3"), or null with none configured. */
  mcp?: () => string | null;
  /** The key that interrupts a running turn, as bound ('' when none is). */
  interruptKey?: string;
  /** How much of the model's window the conversation takes: a pass over it, so asked when a turn ends. */
  contextUse?: () => { tokens: number; window: number; compactAt: number } | null;
  /** The reasoning effort asked (/effort), where one is. */
  effort?: () => string | undefined;
  /** vi mode's state, or null in emacs mode. */
  vi?: () => string | null;
  /** The person's own status line's text (app/status-line.ts), or null. */
  custom?: () => string | null;
  /**
   * What was spent, as the servers counted it (spending.ts keeps the count): the last turn's tokens in (of which
   * cached) and out, the conversation's total, and its cost in money where a price is known; null before any request.
   */
  spent?: () => {
    usage: { input: number; output: number; cached: number; total: number };
    money: string | null;
  } | null;
}

export class StatusModel {
  private warning: Inert | null = null;
  /** Warnings shown since the status bar last had none: the bar shows the newest and counts the rest. */
  private warnings = 0;
  private hint: Inert | null = null;
  private warningTimer: NodeJS.Timeout | null = null;
  private hintTimer: NodeJS.Timeout | null = null;
  private spinner: NodeJS.Timeout | null = null;
  /** The context gauge's share, measured when a turn ended or a conversation came back. */
  private context: { share: number; compactAt: number } | null = null;

  constructor(
    private readonly bus: Bus,
    private readonly sources: StatusSources,
  ) {
    bus.on('status.warning', ({ text }) => {
      // Several at once (two damaged files at start): the newest, and how many more the transcript holds.
      this.warnings = this.warning === null ? 1 : this.warnings + 1;
      this.warning = this.warnings > 1 ? own`${text} (and ${this.warnings - 1} more in the transcript)` : text;
      this.warningTimer = this.restart(this.warningTimer, WARNING_MS, () => (this.warning = null));
      bus.emit('transcript.note', { text: own`warning: ${text}` });
      bus.requestRender();
    });
    // A hint lasts its own time (a key's, e.g. Esc Esc's pair) or HINT_MS, and a turn ends it: what it offered was
    // for the idle composer, and a turn's place in the bar says how to stop the turn.
    bus.on('status.hint', ({ text, ms }) => {
      this.hint = text;
      this.hintTimer = this.restart(this.hintTimer, ms ?? HINT_MS, () => (this.hint = null));
      bus.requestRender();
    });
    // The spinner ticks only while a turn runs: an idle milk wakes for nothing.
    bus.on('turn.started', () => {
      this.spinner ??= setInterval(() => bus.requestRender(), SPINNER_MS);
    });
    bus.on('turn.ended', () => this.stopSpinner());
    // A warning is about what happened before: the next input ends it (the transcript keeps it).
    bus.on('turn.started', () => {
      this.hint = null;
      if (this.hintTimer) clearTimeout(this.hintTimer);
      this.hintTimer = null;
      this.warning = null;
      if (this.warningTimer) clearTimeout(this.warningTimer);
      this.warningTimer = null;
    });
    bus.on('turn.usage', () => bus.requestRender());
    bus.on('session.new', () => (this.context = null));
    const measure = (): void => {
      const use = sources.contextUse?.();
      this.context = use && use.window > 0 ? { share: use.tokens / use.window, compactAt: use.compactAt } : null;
      bus.requestRender();
    };
    bus.on('turn.ended', measure);
    bus.on('session.resumed', measure);
  }

  private spent(): Pick<StatusState, 'usage' | 'money'> {
    const spent = this.sources.spent?.();
    return spent
      ? { usage: spent.usage, money: spent.money === null ? null : sanitize(spent.money) }
      : { usage: null, money: null };
  }

  /** `modal`: the top view's prompt (replacing the left side) and the keys that answer it (never cut off). */
  snapshot(now: number, modal: { prompt: Inert | null; legend: Inert | null }): StatusState {
    const s = this.sources;
    // What comes from elsewhere made inert here, each paint (a few short strings: a test each, nearly always).
    const inert = (text: string | null | undefined): Inert | null => (text == null ? null : sanitize(text));
    return {
      sessionId: sanitize(s.sessionId),
      historyMode: s.historyMode(),
      busySince: s.busySince(),
      now,
      queued: s.queued(),
      warning: this.warning,
      hint: inert(s.providerHint()),
      notice: this.hint,
      prompt: modal.prompt,
      legend: modal.legend,
      force: s.force(),
      approval: inert(s.approval?.()) ?? undefined,
      ...this.spent(),
      effort: inert(s.effort?.()),
      always: s.always().map(sanitize),
      mcp: inert(s.mcp?.()),
      interruptKey: inert(s.interruptKey) ?? undefined,
      context: this.context,
      custom: inert(s.custom?.()),
      vi: inert(s.vi?.()),
    };
  }

  stop(): void {
    for (const t of [this.warningTimer, this.hintTimer]) if (t) clearTimeout(t);
    this.stopSpinner();
  }

  private stopSpinner(): void {
    if (this.spinner) clearInterval(this.spinner);
    this.spinner = null;
  }

  private restart(timer: NodeJS.Timeout | null, ms: number, expire: () => void): NodeJS.Timeout {
    if (timer) clearTimeout(timer);
    const t = setTimeout(() => {
      expire();
      this.bus.requestRender();
    }, ms);
    t.unref();
    return t;
  }
}

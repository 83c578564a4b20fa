// The turn coordinator: holds the composer's state and feeds it every key,
// then carries out the effects the reducer returns — records history, starts
// or queues a turn, cancels one, answers a tool approval, runs slash commands,
// quits. It owns the type-ahead queue, the pending approval and the tool
// policy (force mode, stored once). It draws nothing and reads no file
// itself: the views read its state, the history service does the I/O.

import type { Bus, TurnEnd } from '../bus';
import { CommandName, Mode, SlashContext, findSlash } from '../commands';
import { reduce } from '../composer/reducer';
import { searchView } from '../composer/search-session';
import { APPROVAL_PAUSE_MS, ComposerInput, ComposerState, Effect, Input, approvalAnswerable, initialComposer, modeOf } from '../composer/state';
import type { EditorState, PasteOptions } from '../editor/model';
import type { HistoryService } from '../history/service';
import type { HistoryEntry } from '../history/rules';
import { Overlay, searchOverlay } from '../search/overlay';
import type { Sessions } from '../session/sessions';
import type { TurnRunner } from './runner';

export interface CoordinatorOptions {
  /** Help lines for the keys of a mode (the key tables live with the views). */
  keyHelp: (mode: Mode) => string[];
  pasteLimits?: PasteOptions;
  now?: () => number;
  /** Conversations to resume and start; without it /new and /resume say they are unavailable. */
  sessions?: Sessions;
  /** Lines for /session. */
  sessionInfo?: () => string[];
  /** What /clear, /model and /copy do on the screen and the provider. */
  view?: {
    clear(): void;
    model(): string | null;
    setModel(name: string): boolean;
    copyLastAnswer(): string;
  };
}

/** Commands that may begin walking a history list. */
const STARTS_BROWSING: ReadonlySet<CommandName> = new Set<CommandName>(['editor.up', 'history.older', 'history.searchReverse', 'history.searchForward']);

export class TurnCoordinator {
  private state: ComposerState = initialComposer;
  /** A tool call waiting for y / n / a, and when the question appeared. */
  approval: { turnId: number; summary: string; tool: string; shownAt: number } | null = null;
  /** When the last key (or paste, or wheel) came in. */
  private lastKeyAt = -Infinity;
  /** Repaints the legend once a pause makes the question answerable. */
  private armTimer: NodeJS.Timeout | null = null;
  /** Inputs entered while a turn ran, sent in order when it ends. */
  readonly queue: Input[] = [];
  private readonly now: () => number;

  constructor(
    private readonly bus: Bus,
    private readonly runner: TurnRunner,
    private readonly history: HistoryService,
    private readonly options: CoordinatorOptions,
  ) {
    this.now = options.now ?? Date.now;
    bus.on('command', ({ name }) => this.dispatch({ kind: 'command', name }));
    bus.on('input.text', ({ text }) => this.dispatch({ kind: 'text', text }));
    bus.on('input.paste', ({ text }) => this.dispatch({ kind: 'paste', text }));
    bus.on('turn.ended', ({ status }) => this.onTurnEnded(status));
    bus.on('tool.approval', (e) => {
      this.approval = { turnId: e.turnId, summary: e.summary, tool: e.tool, shownAt: this.now() };
      this.rearm();
      bus.requestRender();
    });
  }

  get editor(): EditorState {
    return this.state.editor;
  }

  get force(): boolean {
    return this.runner.policy.force;
  }

  /** The mode as it stands (for views); keys are routed by modeForKey. */
  get mode(): Mode {
    return modeOf(this.state, { busy: this.runner.busy, approval: this.approval !== null, picker: this.pickerOpen });
  }

  private get pickerOpen(): boolean {
    return (this.options.sessions?.picker ?? null) !== null;
  }

  /**
   * The mode a key that arrives now is routed in, and notes the key: an
   * approval question takes it only after a pause in typing.
   */
  modeForKey(now = this.now()): Mode {
    const answerable = this.approvalReady(now);
    this.lastKeyAt = now;
    if (this.approval) this.rearm();
    return modeOf(this.state, { busy: this.runner.busy, approval: answerable, picker: this.pickerOpen });
  }

  /** Whether a key now would answer the pending question (for the legend). */
  approvalReady(now = this.now()): boolean {
    return this.approval !== null && approvalAnswerable({ shownAt: this.approval.shownAt, lastKeyAt: this.lastKeyAt, now });
  }

  private rearm(): void {
    if (this.armTimer) clearTimeout(this.armTimer);
    this.armTimer = setTimeout(() => this.bus.requestRender(), APPROVAL_PAUSE_MS + 5);
    this.armTimer.unref();
  }

  /** The mode the composer is in beneath any search or question. */
  get composerMode(): Mode {
    return this.runner.busy ? 'busy' : 'idle';
  }

  get searchView(): ReturnType<typeof searchView> {
    return searchView(this.state);
  }

  /** What the search overlay lists, while a search runs. */
  get searchOverlay(): { overlay: Overlay; entries: readonly HistoryEntry[] } | null {
    const session = this.state.search;
    return session ? { overlay: searchOverlay(session.state, session.list), entries: session.list } : null;
  }

  /** Feeds one input through the composer and carries out what it decided. */
  dispatch(input: ComposerInput): void {
    if (this.pickerOpen) return this.pick(input);
    // Browsing or a search is about to start: first take in what other milks added meanwhile.
    if (input.kind === 'command' && STARTS_BROWSING.has(input.name) && this.state.nav.index === null && !this.state.search) this.history.refresh();
    const { state, effects } = reduce(this.state, input, {
      history: this.history.list(),
      otherHistory: this.history.otherList(),
      busy: this.runner.busy,
      force: this.force,
      now: this.now(),
      pasteLimits: this.options.pasteLimits,
    });
    const changed = state !== this.state;
    this.state = state;
    for (const effect of effects) this.carryOut(effect);
    if (changed || effects.length > 0) this.bus.requestRender();
  }

  private carryOut(effect: Effect): void {
    switch (effect.type) {
      case 'record':
        // On disk (or queued for it) before the turn starts.
        this.history.record(effect.segments);
        return;
      case 'remember':
        this.history.remember(effect.segments);
        return;
      case 'submit':
        this.runner.start(effect.input.text, { display: effect.input.display, segments: effect.input.segments });
        return;
      case 'queue':
        this.queue.push(effect.input);
        return;
      case 'slash':
        return this.slash(effect.name, effect.args);
      case 'cancelTurn':
        this.runner.cancel();
        return;
      case 'quit':
        this.bus.emit('app.quit', { reason: effect.reason });
        return;
      case 'setForce':
        return this.setForce(effect.on);
      case 'answer':
        return this.answer(effect.approval);
      case 'scroll':
        this.bus.emit('transcript.scroll', { pages: effect.pages });
        return;
      case 'toggleFold':
        this.bus.emit('transcript.toggleFold', {});
        return;
      case 'suspend':
        this.bus.emit('app.suspend', {});
        return;
      case 'redraw':
        this.bus.emit('app.redraw', {});
        return;
      case 'note':
        this.note(effect.text);
        return;
      case 'hint':
        this.bus.emit('status.hint', { text: effect.text });
        return;
      case 'switchHistory':
        this.history.mode = this.history.mode === 'session' ? 'global' : 'session';
        return;
      case 'forget': {
        const removed = this.history.forget(effect.text);
        this.dispatch({ kind: 'historyChanged' });
        this.bus.emit('status.hint', { text: removed > 0 ? `deleted from history (${removed} ${removed === 1 ? 'entry' : 'entries'})` : 'not found in history' });
        return;
      }
    }
  }

  /** The resume picker has the keys while it is open. */
  private pick(input: ComposerInput): void {
    const sessions = this.options.sessions;
    if (!sessions || input.kind !== 'command') return;
    if (input.name === 'picker.up') sessions.pickerMove(-1);
    else if (input.name === 'picker.down') sessions.pickerMove(1);
    else if (input.name === 'picker.choose') sessions.pickerChoose();
    else if (input.name === 'picker.cancel') sessions.pickerCancel();
    this.bus.requestRender();
  }

  private answer(approval: 'yes' | 'no' | 'always'): void {
    const pending = this.approval;
    this.approval = null;
    if (pending && approval === 'always') this.runner.policy.allowAlways(pending.tool);
    this.runner.answer(approval);
  }

  private setForce(on: boolean): void {
    this.runner.policy.force = on;
    // Turning force on while a call waits for an answer answers it.
    if (on && this.approval) this.answer('yes');
    this.note(on ? 'force mode on: tool calls run without asking (Shift+Tab or /force to turn it off)' : 'force mode off');
  }

  private slash(name: string, args: string[]): void {
    const command = findSlash(name);
    if (!command) return;
    const ctx: SlashContext = {
      note: (text) => this.note(text),
      run: (cmd: CommandName) => this.dispatch({ kind: 'command', name: cmd }),
      historyMode: () => this.history.mode,
      setHistoryMode: (mode) => {
        this.history.mode = mode;
        this.dispatch({ kind: 'historySwitched' });
      },
      historyCounts: () => {
        this.history.refresh();
        return this.history.counts();
      },
      alwaysTools: () => this.runner.policy.alwaysTools(),
      clearAlways: () => this.runner.policy.clearAlways(),
      // The keys of the mode the person is in, then those a search adds (scope switch, delete).
      keyHelp: () => [...this.options.keyHelp(this.composerMode), '', 'in a search (Ctrl+R, Ctrl+S):', ...this.options.keyHelp('search')],
      busy: () => this.runner.busy,
      newConversation: () => {
        this.queue.splice(0);
        if (this.options.sessions) this.options.sessions.startNew();
        else this.note('conversations are not kept here');
      },
      openPicker: () => this.options.sessions?.openPicker() ?? false,
      sessionInfo: () => this.options.sessionInfo?.() ?? [],
      clearView: () => this.options.view?.clear(),
      model: () => this.options.view?.model() ?? null,
      setModel: (name) => this.options.view?.setModel(name) ?? false,
      copyLastAnswer: () => this.options.view?.copyLastAnswer() ?? 'nothing to copy',
      quit: () => this.bus.emit('app.quit', { reason: 'slash' }),
    };
    const problem = command.run(ctx, args);
    if (problem) this.note(problem);
  }

  private note(text: string): void {
    this.bus.emit('transcript.note', { text, reveal: true });
  }

  private onTurnEnded(status: TurnEnd): void {
    this.approval = null;
    if (status !== 'done') {
      // Cancelled or failed: queued inputs come back into the composer, none is sent unasked.
      const inputs = this.queue.splice(0).map((q) => q.segments);
      if (inputs.length > 0) this.dispatch({ kind: 'restore', inputs });
    } else if (this.queue.length > 0) {
      // Start the next queued input once this turn's end has been delivered.
      const next = this.queue.shift() as Input;
      setImmediate(() => {
        if (!this.runner.busy) this.runner.start(next.text, { display: next.display, segments: next.segments });
        else this.queue.unshift(next);
      });
    }
    this.bus.requestRender();
  }
}

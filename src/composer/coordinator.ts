// The coordinator: holds the composer and the views stacked over it
// (composer/stack.ts) and feeds every input through them, then carries out the
// effects they return through its table of handlers, one file of them per
// concern (composer/effects/: turn, history, questions, settings, screen,
// session, attachments). It owns the type-ahead queue and when the last key
// came; force mode, the model and the history mode are the settings'. It
// draws nothing and reads no file itself: the stack's selectors say what a
// frame shows, the history service does the I/O.

import type { TurnPort } from './coordinator-types';
import type { Bus } from '../kernel/bus';
import { sanitize } from '../protocol/inert';
import { type CommandName, type Mode, OPENERS } from './views/registry';
import type { View } from './views/view';
import { maxOf } from '../kernel/arrays';
import { withKeys } from '../kernel/commands';
import { SLASH_COMMANDS, SlashContext, findSlash } from './slash-commands';
import type { CommandEntry } from '../search/commands';
import { slashContext } from './slash-context';
import type { CoordinatorOptions, EffectHandlers, Frame } from './coordinator-types';
import { type EditorState, expandedText } from '../editor/model';
import type { HistoryService } from '../history/service';
import { UiState, dispatch, initialUi, keyModes, open, shownComposer, shownPaint, shownStatus, top } from './stack';
import type { CarriedEffect, ComposerInput, Effect, Input } from './state';
import type { PersonAnswer } from '../protocol/questions';
import { RewindFlow } from './rewind-flow';
import type { CoordinatorState, EffectContext } from './effects/context';
import { steer, steered, turnEffects, turnEnded } from './effects/turn';
import { askOwn, questionEffects } from './effects/questions';
import { historyEffects } from './effects/history';
import { openModelPicker, settingsEffects } from './effects/settings';
import { screenEffects } from './effects/screen';
import { newConversation, openPicker, searchLogs, sessionEffects, showDiff } from './effects/session';
import { attachmentEffects } from './effects/attachments';

/** Commands that may begin walking a history list. */
const STARTS_BROWSING: ReadonlySet<CommandName> = new Set<CommandName>([
  'editor.up',
  'history.older',
  'history.searchPrefixBackward',
  'history.searchReverse',
  'history.searchForward',
]);

export class TurnCoordinator {
  private ui: UiState = initialUi;
  /** When the last key came, and the one before it (an approval answers only after a pause). */
  private lastKeyAt = -Infinity;
  private prevKeyAt = -Infinity;
  /** Repaints the legend once a pause makes the question answerable. */
  private armTimer: NodeJS.Timeout | null = null;
  private readonly state: CoordinatorState = {
    queue: [],
    steering: [],
    own: null,
    ownLater: [],
    modelList: null,
    pickFork: false,
  };
  private readonly now: () => number;
  /** What the handlers act through. */
  private readonly c: EffectContext;
  /** What slash commands may do, built once. */
  private readonly slashes: SlashContext;
  /** Every effect the coordinator carries out, by type: a type without a handler does not compile. */
  private readonly handlers: EffectHandlers;

  constructor(
    private readonly bus: Bus,
    private readonly runner: TurnPort,
    private readonly history: HistoryService,
    private readonly options: CoordinatorOptions,
  ) {
    const now = (this.now = options.now ?? Date.now);
    const rewinds = new RewindFlow({
      runner,
      bus,
      keys: options.keys,
      checkpoints: options.checkpoints,
      changes: options.changes,
      workspace: options.workspace ?? '',
      now,
      note: (text) => this.note(text),
      apply: (effects) => this.apply(effects),
      dispatch: (input) => this.dispatch(input),
    });
    const c = (this.c = {
      ...{ bus, runner, history, options, state: this.state, rewinds, now },
      note: (text: string) => this.note(text),
      dispatch: (input: ComposerInput) => this.dispatch(input),
      apply: (effects: readonly Effect[]) => this.apply(effects),
      draftText: () => expandedText(this.ui.composer.editor),
      slash: (name: string, args: string[]) => this.slash(name, args),
    });
    this.handlers = {
      ...turnEffects(c),
      ...historyEffects(c),
      ...questionEffects(c),
      ...settingsEffects(c),
      ...screenEffects(c),
      ...sessionEffects(c),
      ...attachmentEffects(c),
    };
    this.slashes = slashContext({
      bus,
      runner,
      history,
      options,
      note: (text) => this.note(text),
      dispatch: (input) => this.dispatch(input),
      composerMode: () => this.composerMode,
      newConversation: () => newConversation(c),
      openPicker: () => this.openPicker(),
      openRewind: () => rewinds.open(),
      undo: () => rewinds.undo(),
      showDiff: (input) => showDiff(c, input),
      searchLogs: (query) => searchLogs(c, query),
      openModelPicker: () => this.openModelPicker(),
      steer: (input) => this.steer(input),
      open: (view) => this.apply([{ type: 'openView', view }]),
    });
    bus.on('turn.ended', ({ turnId, status }) => turnEnded(c, turnId, status));
    bus.on('turn.steered', ({ steerId }) => steered(c, steerId));
    // The views the bus's events open (a tool's approval, the model's question, the step limit's), as they come.
    for (const opener of OPENERS)
      bus.on(opener.event, (payload) => this.apply([{ type: 'openView', view: opener.open(payload, this.now()) }]));
  }

  /** Inputs entered while a turn ran, sent in order when it ends. */
  get queue(): readonly Input[] {
    return this.state.queue;
  }

  /** What the composer area shows: a search's match, else the draft. */
  get editor(): EditorState {
    return shownComposer(this.ui).editor;
  }

  /** The draft itself, beneath any view. */
  get draft(): EditorState {
    return this.ui.composer.editor;
  }

  get force(): boolean {
    return this.runner.settings.force;
  }

  /** The top view's mode, else the composer's (for help and tests). */
  get mode(): Mode {
    return top(this.ui)?.mode ?? this.composerMode;
  }

  /** The mode the composer is in beneath any view. */
  get composerMode(): Mode {
    return this.runner.busy ? 'busy' : 'idle';
  }

  /** The views over the composer, bottom first (for tests and help). */
  get views(): readonly View[] {
    return this.ui.views;
  }

  private get time(): { now: number; lastKeyAt: number } {
    return { now: this.now(), lastKeyAt: this.lastKeyAt };
  }

  /**
   * Notes a key arriving now and returns the modes it is looked up in, top
   * view first: a question takes keys only after a pause in typing.
   */
  keyModes(now = this.now()): Mode[] {
    this.prevKeyAt = this.lastKeyAt;
    this.lastKeyAt = now;
    this.rearm();
    return keyModes(this.ui, this.composerMode, { now, lastKeyAt: this.prevKeyAt });
  }

  /** vi mode's state for the status bar (INSERT, NORMAL, VISUAL…); null in emacs mode. */
  viState(): string | null {
    return this.viLayer()?.viStateName(this.ui.composer.vi) ?? null;
  }

  /** vi mode's layer, loaded at its first use where the editing mode is vi (an emacs-mode milk never loads it). */
  private viLoaded: typeof import('./vi-input') | null = null;
  private viLayer(): typeof import('./vi-input') | null {
    if (this.options.editingMode !== 'vi') return null;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.viLoaded ??= require('./vi-input') as typeof import('./vi-input');
    return this.viLoaded;
  }

  /** What one frame shows of the composer and the views over it, worked out once per paint. */
  frame(): Frame {
    const shown = shownComposer(this.ui);
    const { editor } = shown;
    // vi's visual state lights its selection in the draft (a view's own highlight, a search's, comes first).
    const highlight =
      shown.highlight ?? (this.ui.views.length === 0 ? (this.viLayer()?.viHighlight(this.ui.composer) ?? null) : null);
    const { prompt, legend } = shownStatus(this.ui, this.time, this.options.keys);
    return { editor, highlight, prompt, legend, paints: shownPaint(this.ui) };
  }

  /** A view that takes keys only after a pause: the legend is painted again once the pause is over. */
  private rearm(): void {
    const pause = maxOf(
      this.ui.views.map((v) => v.pauseMs ?? 0),
      0,
    );
    if (pause === 0) return;
    if (this.armTimer) clearTimeout(this.armTimer);
    this.armTimer = setTimeout(() => this.bus.requestRender(), pause + 5);
    this.armTimer.unref();
  }

  /** Feeds one input through the views and the composer, and carries out what they decided. */
  dispatch(input: ComposerInput): void {
    // Browsing or a search is about to start (never during one, so no list shifts under it):
    // first take in what other milks added meanwhile.
    const searching = this.ui.views.some((v) => v.mode === 'search');
    if (
      input.kind === 'command' &&
      STARTS_BROWSING.has(input.name) &&
      this.ui.composer.nav.index === null &&
      !searching
    )
      this.history.refresh();
    const { ui, effects } = dispatch(this.ui, input, {
      history: this.history.list(),
      otherHistory: this.history.otherList(),
      busy: this.runner.busy,
      force: this.force,
      mode: this.runner.settings.mode,
      now: this.now(),
      lastKeyAt: this.prevKeyAt,
      pasteLimits: this.options.pasteLimits,
      emoji: this.runner.settings.emoji,
      prompts: this.options.prompts?.names(),
      startingServers: this.options.prompts?.starting?.(),
      commands: this.commands,
      vi: this.viLayer()?.viInput,
    });
    const changed = ui !== this.ui;
    this.ui = ui;
    for (const effect of effects) this.carryOut(effect);
    if (changed || effects.length > 0) this.bus.requestRender();
  }

  /** Every slash command for the slash menu: milk's own (their keys named as bound), then the prompt commands. */
  private readonly commands = (): CommandEntry[] => [
    ...SLASH_COMMANDS.map((c) => ({
      name: c.name,
      args: c.args,
      description: withKeys(c.description, this.options.keys, 'idle'),
    })),
    ...(this.options.prompts?.entries() ?? []),
  ];

  private carryOut(effect: CarriedEffect): void {
    (this.handlers[effect.type] as (e: CarriedEffect) => void)(effect);
  }

  /**
   * Effects from outside a key (a tool's question, a picker opened by a command): views they open go on the stack, the
   * rest are carried out.
   */
  private apply(effects: readonly Effect[]): void {
    const opened = open(this.ui, effects, { history: this.history.list(), commands: this.commands });
    this.ui = opened.ui;
    for (const effect of opened.effects) this.carryOut(effect);
    this.rearm();
    this.bus.requestRender();
  }

  /**
   * Puts milk's own question to the person in the question view (options only, its own id, never the model's);
   * `then` takes the answer (Esc: dismissed). One asked while another is open waits for it.
   */
  askOwn(question: string, options: readonly string[], then: (answer: PersonAnswer) => void): void {
    askOwn(this.c, question, options, then);
  }

  /**
   * Sends an input into the running turn (/steer, Ctrl+Enter); with none running it is sent as any input is, and a
   * turn that takes none (a `!` command, /compact) gets it queued.
   */
  steer(input: Input): void {
    steer(this.c, input);
  }

  /** The person started typing: the workspace's paths for @ are listed now, in the background. */
  warmFiles(): void {
    this.options.files?.refresh();
  }

  /** /model: the picker opens, the server asked for its models meanwhile; what is wrong, or null once it is open. */
  openModelPicker(): string | null {
    return openModelPicker(this.c);
  }

  /**
   * Opens the resume picker over this session's conversations; false when there are none. `fork`: the conversation
   * picked goes on in a copy (milk --resume --fork).
   */
  openPicker(fork = false): boolean {
    return openPicker(this.c, fork);
  }

  private slash(name: string, args: string[]): void {
    const command = findSlash(name);
    if (!command) return;
    const problem = command.run(this.slashes, args);
    if (problem) this.note(problem);
  }

  private note(text: string): void {
    this.bus.emit('transcript.note', { text: sanitize(text), reveal: true });
  }
}

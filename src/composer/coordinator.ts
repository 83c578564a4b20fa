// The coordinator: holds the composer and the views stacked over it
// (composer/stack.ts) and feeds every input through them, then carries out the
// effects they return — records history, starts or queues a turn, cancels
// one, answers a tool's question, runs slash commands, quits. It owns the
// type-ahead queue and when the last key came; force mode, the model and
// the history mode are the settings'. It draws nothing and reads no file
// itself: the stack's selectors say what a frame shows, the history service
// does the I/O.

import type { Bus, TurnEnd } from '../kernel/bus';
import { sanitize } from '../protocol/inert';
import { CommandName, Mode, withKeys } from '../kernel/commands';
import { SLASH_COMMANDS, SlashContext, findSlash, turnRunning } from './slash-commands';
import type { CommandEntry } from '../search/commands';
import { slashContext } from './slash-context';
import { forgotten, ownCommand, restoreNote } from './said';
import type { CoordinatorOptions, EffectHandlers, Frame } from './coordinator-types';
import { type EditorState, expandedText } from '../editor/model';
import type { HistoryService } from '../history/service';
import { openFound, openPicker } from '../session/picker';
import type { TurnRunner } from '../turn/runner';
import { UiState, dispatch, initialUi, keyModes, open, shownComposer, shownPaint, shownStatus, top } from './stack';
import type { CarriedEffect, ComposerInput, Effect, Input } from './state';
import { APPROVAL_PAUSE_MS, ApprovalView } from './views/approval';
import { QuestionView } from './views/question';
import type { PersonAnswer } from '../protocol/questions';
import { APPROVAL_MEANING } from '../settings/approval';
import { type ApprovalMode } from '../protocol/approvals';
import { MENTION_LIMIT } from './views/mention';
import { PickerView } from './views/picker';
import { ModelPickerView } from './views/model-picker';
import { CopyModeView } from './views/copy-mode';
import { DiffView } from './views/diff';
import { TranscriptFindView } from './views/transcript-find';
import { ConfirmView } from './views/confirm';
import { ProviderSetupView } from './views/provider-setup';
import { RewindFlow } from './rewind-flow';

/** Commands that may begin walking a history list. */
const STARTS_BROWSING: ReadonlySet<CommandName> = new Set<CommandName>([
  'editor.up',
  'history.older',
  'history.searchReverse',
  'history.searchForward',
]);

export class TurnCoordinator {
  private ui: UiState = initialUi;
  /** The model picker's request to the server, dropped when the picker closes. */
  private modelList: AbortController | null = null;
  /** The resume picker open now was opened by milk --resume --fork. */
  private pickFork = false;
  /** When the last key came, and the one before it (an approval answers only after a pause). */
  private lastKeyAt = -Infinity;
  private prevKeyAt = -Infinity;
  /** Repaints the legend once a pause makes the question answerable. */
  private armTimer: NodeJS.Timeout | null = null;
  /** Inputs entered while a turn ran, sent in order when it ends. */
  readonly queue: Input[] = [];
  /** A `# ` input waiting for its file to be chosen, by the question's id. */
  /** milk's own question open now (where a memory goes, whether to trust a workspace): its id, what takes it. */
  private own: { id: number; then: (answer: PersonAnswer) => void } | null = null;
  /** milk's own questions asked while one was open, each put in turn. */
  private readonly ownLater: Array<{ question: string; options: readonly string[]; then: (a: PersonAnswer) => void }> =
    [];
  /** Inputs sent into the running turn and not yet delivered, by the id the runner gave each. */
  readonly steering: Array<{ id: number; input: Input }> = [];
  private readonly now: () => number;
  /** What slash commands may do, built once. */
  private readonly slashes: SlashContext;
  /** Esc Esc, /rewind and the picker's choice. */
  private readonly rewinds: RewindFlow;

  constructor(
    private readonly bus: Bus,
    private readonly runner: TurnRunner,
    private readonly history: HistoryService,
    private readonly options: CoordinatorOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.rewinds = new RewindFlow({
      runner,
      bus,
      keys: options.keys,
      checkpoints: options.checkpoints,
      changes: options.changes,
      workspace: options.workspace ?? '',
      now: this.now,
      note: (text) => this.note(text),
      apply: (effects) => this.apply(effects),
      dispatch: (input) => this.dispatch(input),
    });
    this.slashes = slashContext({
      bus,
      runner,
      history,
      options,
      note: (text) => this.note(text),
      dispatch: (input) => this.dispatch(input),
      composerMode: () => this.composerMode,
      newConversation: () => this.newConversation(),
      openPicker: () => this.openPicker(),
      openRewind: () => this.rewinds.open(),
      undo: () => this.rewinds.undo(),
      showDiff: (input) => this.showDiff(input),
      searchLogs: (query) => this.searchLogs(query),
      openProviderSetup: () => this.openProviderSetup(),
      openModelPicker: () => this.openModelPicker(),
      steer: (input) => this.steer(input),
    });
    bus.on('turn.ended', ({ turnId, status }) => this.onTurnEnded(turnId, status));
    bus.on('turn.steered', ({ steerId }) => {
      const at = this.steering.findIndex((s) => s.id === steerId);
      if (at >= 0) this.steering.splice(at, 1);
    });
    bus.on('turn.limit', ({ turnId, steps }) => {
      const question = `this turn has made ${steps} model requests (maxSteps in config.json); go on?`;
      const answer = (goOn: boolean) => [{ type: 'goOn' as const, turnId, goOn }];
      this.apply([{ type: 'openView', view: new ConfirmView(question, answer(true), answer(false)) }]);
    });
    bus.on('approval.asked', (e) => {
      this.apply([{ type: 'openView', view: new ApprovalView(e, this.now()) }]);
      this.rearm();
    });
    bus.on('question.asked', (e) => {
      this.apply([{ type: 'openView', view: new QuestionView(e, this.now()) }]);
      this.rearm();
    });
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

  /** The pending tool question, if one is open. */
  get approval(): ApprovalView | null {
    return (this.ui.views.find((v) => v instanceof ApprovalView) as ApprovalView | undefined) ?? null;
  }

  private get time(): { now: number; lastKeyAt: number } {
    return { now: this.now(), lastKeyAt: this.lastKeyAt };
  }

  /**
   * Notes a key arriving now and returns the modes it is looked up in, top
   * view first: an approval question takes keys only after a pause in typing.
   */
  keyModes(now = this.now()): Mode[] {
    this.prevKeyAt = this.lastKeyAt;
    this.lastKeyAt = now;
    if (this.approval) this.rearm();
    return keyModes(this.ui, this.composerMode, { now, lastKeyAt: this.prevKeyAt });
  }

  /** What one frame shows of the composer and the views over it, worked out once per paint. */
  frame(): Frame {
    const { editor, highlight } = shownComposer(this.ui);
    const { prompt, legend } = shownStatus(this.ui, this.time, this.options.keys);
    return { editor, highlight, prompt, legend, paints: shownPaint(this.ui) };
  }

  private rearm(): void {
    if (this.armTimer) clearTimeout(this.armTimer);
    this.armTimer = setTimeout(() => this.bus.requestRender(), APPROVAL_PAUSE_MS + 5);
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
      commands: this.commands,
    });
    const changed = ui !== this.ui;
    this.ui = ui;
    for (const effect of effects) this.carryOut(effect);
    if (changed || effects.length > 0) this.bus.requestRender();
  }

  /** The transcript search opened on `query`, at its newest match. */
  private findInTranscript(query: string): void {
    const found = this.options.transcript?.find();
    if (!found) return;
    const opened = TranscriptFindView.searching(found.corpus, found.origin, query);
    if (opened.view) this.apply([{ type: 'openView', view: opened.view }, ...(opened.effects ?? [])]);
  }

  /** /search: every conversation searched for `query` (off the keystroke), its matches in a picker. */
  private searchLogs(query: string): void {
    const search = this.options.searchLogs;
    if (!search) return this.note('no conversation logs here to search');
    this.note(`searching every conversation for "${query}"…`);
    void search(query).then(({ hits, more }) => {
      const picker = openFound(query, hits);
      if (!picker) return this.note(`no conversation holds "${query}"`);
      if (more > 0) this.note(`${hits.length} matches listed, ${more} more not (milk sessions search lists them too)`);
      this.apply([{ type: 'openView', view: new PickerView(picker) }]);
    });
  }

  /** /diff: the workspace's changes since input `input` (1-based), or since the conversation began, in a view. */
  private showDiff(input: number | null): void {
    const changes = this.options.changes;
    if (!changes) return this.note('no record of the workspace here to diff against');
    let turn = this.runner.firstTurn;
    if (input !== null) {
      const at = this.runner.rewindable[input - 1];
      if (!at) return this.note(`no input #${input} in this conversation (it has ${this.runner.rewindable.length})`);
      turn = at.turn;
    }
    if (turn === null || turn < 0) return this.note('nothing has changed: no turn of this conversation ran here yet');
    void changes.diff(turn).then((d) => {
      if ('error' in d) return this.note(`no diff: ${d.error}`);
      if (!d.text) return this.note('nothing has changed in the workspace since then');
      const since = input === null ? 'the conversation began' : `input #${input}`;
      const cut = d.cut ? ' (cut: too long to show whole)' : '';
      this.apply([{ type: 'openView', view: DiffView.open(`changes in the workspace since ${since}${cut}`, d.text) }]);
    });
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

  /** Every effect the coordinator carries out, by type: a type without a handler here does not compile. */
  private readonly handlers: EffectHandlers = {
    // On disk (or queued for it) before the turn starts.
    record: (e) => this.history.record(e.segments),
    remember: (e) => this.history.remember(e.segments),
    submit: (e) => this.send(e.input),
    queue: (e) => void this.queue.push(e.input),
    steer: (e) => this.steer(e.input),
    memory: (e) => this.askWhereToRemember(e.text),
    slash: (e) => this.slash(e.name, e.args),
    cancelTurn: () => void this.runner.cancel(),
    quit: (e) => this.bus.emit('app.quit', { reason: e.reason }),
    setForce: (e) => this.setForce(e.on),
    setMode: (e) => this.setMode(e.mode),
    setupProvider: (e) => this.note(this.options.providerSetup?.connect(e.answers) ?? 'no provider set-up here'),
    answer: (e) =>
      this.bus.emit('approval.answered', {
        requestId: e.requestId,
        approval: e.approval,
        ...(e.hunks ? { hunks: e.hunks } : {}),
      }),
    answerQuestion: (e) => {
      const own = this.own;
      if (own && e.requestId === own.id) {
        this.own = null;
        own.then(e.answer);
        const next = this.ownLater.shift();
        if (next) this.askOwn(next.question, next.options, next.then);
        return;
      }
      this.bus.emit('question.answered', { requestId: e.requestId, answer: e.answer });
    },
    note: (e) => this.note(e.text),
    prompt: (e) => this.prompt(e.name, e.args, e.input),
    mentionQuery: (e) => {
      // The picker just opened: the list is made again if it is old, after this key.
      if (e.opened) this.options.files?.refresh();
      this.options.files?.search(e.query, MENTION_LIMIT, (r) => this.dispatch({ kind: 'mentionResults', ...r }));
    },
    mentionClosed: () => this.options.files?.close(),
    scroll: (e) => this.bus.emit('transcript.scroll', { pages: e.pages }),
    openCopyMode: () => {
      if (!this.options.transcript?.copyMode()) return this.note('nothing in the transcript to copy yet');
      this.apply([{ type: 'openView', view: new CopyModeView() }]);
    },
    copyKey: (e) => this.options.transcript?.copyKey(e.name),
    findTranscript: () => {
      const found = this.options.transcript?.find();
      if (!found) return this.note('no transcript to search here');
      this.apply([{ type: 'openView', view: TranscriptFindView.open(found.corpus, found.origin) }]);
    },
    showMatch: (e) => this.options.transcript?.show(e.query, e.match),
    openFound: (e) => {
      if (!e.here)
        return this.note(
          `that conversation is another workspace's (session ${e.session}): there, milk --resume ${e.id} opens it`,
        );
      if (!this.options.sessions?.resumeId(e.id)) return this.note(`conversation ${e.id} could not be opened`);
      this.findInTranscript(e.query);
    },
    endFind: (e) => this.options.transcript?.endFind(e.restore),
    toggleFold: () => this.bus.emit('transcript.toggleFold', {}),
    suspend: () => this.bus.emit('app.suspend', {}),
    redraw: () => this.bus.emit('app.redraw', {}),
    hint: (e) => this.bus.emit('status.hint', { text: sanitize(e.text) }),
    forget: (e) => {
      const removed = this.history.forget(e.text);
      this.dispatch({ kind: 'historyChanged' });
      // The conversation logs too, after this key: the hint below says what history did meanwhile.
      this.options.sessions?.purgeInput(e.text);
      this.bus.emit('status.hint', { text: sanitize(forgotten(removed)) });
    },
    resume: (e) => void this.options.sessions?.resumeId(e.id, this.pickFork),
    newConversation: () => this.newConversation(),
    rewindKey: () => this.rewinds.key(),
    rewind: (e) => this.rewinds.to(e.index),
    externalEditor: () => this.externalEditor(),
    setModel: (e) => {
      this.modelList?.abort();
      const settings = this.runner.settings;
      const was = settings.model;
      if (e.name === was) return this.note(`model: ${was} (unchanged)`);
      if (!settings.setModel(e.name)) return this.note('this provider has no models to switch');
      this.note(`model: ${e.name} (was ${was}); the next turn asks it`);
    },
    modelsClosed: () => this.modelList?.abort(),
    goOn: (e) => this.bus.emit('turn.limitAnswered', { turnId: e.turnId, goOn: e.goOn }),
    probeImage: (e) => {
      void this.options.images?.probe(e.path).then((found) => {
        if (!found) return;
        if ('error' in found)
          return this.note(`${e.path} is not attached: ${found.error}; it stays as the text pasted`);
        const mention = e.mention ? { mention: e.path } : { replacing: e.text };
        this.dispatch({ kind: 'imageFound', image: found, ...mention });
      });
    },
    clipboardImage: () => {
      const images = this.options.images;
      if (!images) return this.note('no clipboard images here');
      void images
        .clipboard()
        .then((got) => ('error' in got ? this.note(got.error) : this.dispatch({ kind: 'imageFound', image: got })));
    },
    restoreFiles: (e) => {
      const restoring = this.options.checkpoints?.restore(e.turn);
      restoring?.then(
        (r) => this.note(restoreNote(r)),
        (err: Error) => this.note(`could not put the files back: ${err.message}`),
      );
    },
  };

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
    this.bus.requestRender();
  }

  /** Ctrl+G: the draft through the person's editor. */
  private externalEditor(): void {
    const edit = this.options.editExternally;
    if (!edit) return this.note('no external editor here');
    if (this.runner.busy)
      return this.note(
        `the external editor opens once the turn is done ` +
          `(${this.options.keys.key('idle', 'composer.externalEditor')} again then)`,
      );
    // Waited for without blocking: milk's signals are handled while the editor has the terminal.
    let result: Promise<Awaited<ReturnType<typeof edit>>>;
    try {
      result = edit(expandedText(this.ui.composer.editor));
    } catch (err) {
      return this.note(`could not open the editor: ${(err as Error).message}`);
    }
    result.then(
      (r) => {
        if (r.ok) this.dispatch({ kind: 'setDraft', text: r.text });
        else this.note(r.why);
        this.bus.requestRender();
      },
      (err: unknown) => this.note(`could not open the editor: ${(err as Error).message}`),
    );
  }

  /** An input to the model, or a line starting with `!`: the person's own command, run in the workspace. */
  private send(input: Input): void {
    const own = ownCommand(input.text);
    if (own === '')
      return this.note(
        "!COMMAND runs COMMAND in the workspace's shell, as your own (no approval, no sandbox); its output goes to " +
          'the model with your next input',
      );
    if (own !== null) return void this.runner.runOwn(own, { display: input.display, segments: input.segments });
    // @-mentions attach their files' content, read now; each says what it attached or why not.
    const attached =
      input.segments.some((s) => s.type === 'file' || s.type === 'image') && this.options.files
        ? this.options.files.attach(input.segments)
        : null;
    this.runner.start(attached?.text ?? input.text, {
      display: input.display,
      segments: input.segments,
      images: attached?.images,
    });
    for (const note of attached?.notes ?? []) this.note(note);
  }

  /** A `# ` input: which file keeps it, asked in the question view (its own id, never the model's). */
  private askWhereToRemember(text: string): void {
    const files = this.options.memory?.files() ?? [];
    if (files.length === 0) return this.note('no instructions file to remember in here');
    this.askOwn(`Remember in which instructions file? "${text}"`, files, (answer) => {
      if (answer.kind !== 'option') return this.note('nothing remembered');
      this.options.memory?.add(answer.index, text).then(
        (said) => this.note(said),
        (err: Error) => this.note(`not remembered: ${err.message}`),
      );
    });
  }

  /**
   * Puts milk's own question to the person in the question view (options only, its own id, never the model's);
   * `then` takes the answer (Esc: dismissed). One asked while another is open waits for it.
   */
  askOwn(question: string, options: readonly string[], then: (answer: PersonAnswer) => void): void {
    if (this.own) return void this.ownLater.push({ question, options, then });
    this.own = { id: -1 - this.now(), then };
    this.apply([
      {
        type: 'openView',
        view: new QuestionView(
          {
            requestId: this.own.id,
            turnId: -1,
            question: sanitize(question),
            options: options.map((o) => sanitize(o)),
            free: false,
          },
          this.now(),
        ),
      },
    ]);
    this.rearm();
  }

  /**
   * Sends an input into the running turn (/steer, Ctrl+Enter); with none running it is sent as any input is, and a
   * turn that takes none (a `!` command, /compact) gets it queued.
   */
  steer(input: Input): void {
    if (!this.runner.busy) return this.send(input);
    const id = this.runner.steer(input.text, sanitize(input.display), input.segments);
    if (id === null) {
      this.queue.push(input);
      return this.note('this turn takes no message while it runs: it is queued for after it');
    }
    this.steering.push({ id, input });
  }

  /**
   * A prompt command: its prompt, arguments filled in, goes to the model as the person's input; the transcript shows
   * what was typed.
   */
  private prompt(name: string, args: string, input: Input): void {
    const text = this.options.prompts?.expand(name, args) ?? null;
    if (!(text instanceof Promise)) return this.startPrompt(name, text, input);
    text.then(
      (t) => this.startPrompt(name, t, input),
      (err: Error) => this.note(`/${name}: ${err.message}`),
    );
  }

  private startPrompt(name: string, text: string | null, input: Input): void {
    if (text === null) return this.note(`unknown command /${name} (/help lists them)`);
    if (this.runner.busy) return this.note(turnRunning(this.options.keys));
    this.runner.start(text, { display: input.display, segments: input.segments });
  }

  private setForce(on: boolean): void {
    this.runner.settings.setForce(on);
    this.note(
      on
        ? `full-auto: tool calls run without asking (/force goes back to ${this.runner.settings.approval}; ` +
            `${this.options.keys.key('idle', 'app.cycleMode')}: the next mode)`
        : `full-auto off: back to ${this.runner.settings.approval}`,
    );
  }

  /** Shift+Tab's next mode, or Ctrl-C's way back to ask: said in the transcript with what it means. */
  private setMode(mode: ApprovalMode): void {
    this.runner.settings.setMode(mode);
    const next = this.options.keys.key('idle', 'app.cycleMode');
    this.note(`approval: ${mode} · ${APPROVAL_MEANING[mode]} (${next}: the next mode)`);
  }

  /** The person started typing: the workspace's paths for @ are listed now, in the background. */
  warmFiles(): void {
    this.options.files?.refresh();
  }

  /** /provider: the set-up opens over the composer; false while a turn runs or where there is none. */
  openProviderSetup(): boolean {
    const setup = this.options.providerSetup;
    if (!setup || this.runner.busy) return false;
    const { kinds, keysSet } = setup.kinds();
    this.apply([{ type: 'openView', view: ProviderSetupView.open(kinds, keysSet) }]);
    return true;
  }

  /**
   * /model: the picker opens at once, and the server is asked for its models meanwhile (the list, or why there is none,
   * comes to it as an input); what is wrong, or null once it is open.
   */
  openModelPicker(): string | null {
    const now = this.runner.settings.model;
    if (now === null) return 'this provider has no models to switch';
    const lister = this.options.models?.();
    if (!lister) return `model: ${now} (this provider lists no models; /model NAME switches to NAME)`;
    this.modelList?.abort();
    const asking = (this.modelList = new AbortController());
    this.apply([{ type: 'openView', view: ModelPickerView.open(now, lister.server) }]);
    lister.list(asking.signal).then(
      (models) => asking.signal.aborted || this.dispatch({ kind: 'modelList', models }),
      (err: Error) => asking.signal.aborted || this.dispatch({ kind: 'modelList', error: err.message }),
    );
    return null;
  }

  /** Opens the resume picker over this session's conversations; false when there are none. */
  /** `fork`: the conversation picked goes on in a copy (milk --resume --fork). */
  openPicker(fork = false): boolean {
    const picker = openPicker(this.options.sessions?.list() ?? []);
    if (!picker) return false;
    this.pickFork = fork;
    this.apply([{ type: 'openView', view: new PickerView(picker) }]);
    return true;
  }

  private newConversation(): void {
    this.queue.splice(0);
    if (this.options.sessions) this.options.sessions.startNew();
    else this.note('conversations are not kept here');
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

  private onTurnEnded(turnId: number, status: TurnEnd): void {
    this.dispatch({ kind: 'turnEnded', turnId });
    // Sent into the turn and never delivered (it was stopped first): back in front of the queue.
    for (const s of this.steering.splice(0).reverse()) this.queue.unshift(s.input);
    if (status !== 'done') {
      // Cancelled or failed: queued inputs come back into the composer (beneath any view), none is sent unasked.
      const inputs = this.queue.splice(0).map((q) => q.segments);
      if (inputs.length > 0) this.dispatch({ kind: 'restore', inputs });
    } else if (this.queue.length > 0) {
      // Start the next queued input once this turn's end has been delivered.
      const next = this.queue.shift() as Input;
      setImmediate(() => {
        if (!this.runner.busy) this.send(next);
        else this.queue.unshift(next);
      });
    }
    this.bus.requestRender();
  }
}

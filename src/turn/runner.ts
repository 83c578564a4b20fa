// The turn engine's lifecycle: one turn at a time under a PCancelable that
// owns an AbortController; a model turn is steps (turn/step.ts) whose tool
// calls are answered (turn/calls/) until the model stops asking, with
// compaction (turn/compaction.ts) before a step that would fill the window.
// Cancelling is idempotent and ordered: mark cancelled, abort the stream and
// any tool (its process group gets TERM, then KILL), report once, and leave
// the conversation (turn/conversation.ts) well-formed. Events carry their turn
// id so nothing from a cancelled turn is shown. It speaks only through the bus.

import PCancelable from 'p-cancelable';
import type { Bus, Events } from '../kernel/bus';
import { DEFAULT_MAX_ANSWER_CHARS, DEFAULT_MAX_KEPT_CHARS } from './limits';
import { Settings } from '../settings/store';
import type { Segment } from '../protocol/segments';
import type { Provider } from '../providers/provider';
import type { ChatMessage } from '../protocol/messages';
import type { Effort } from '../settings/effort';
import { withoutBytes } from '../kernel/images';
import type { ImagePart } from '../protocol/images';
import type { TodoItem } from '../protocol/checklist';
import { checklistOf } from '../tools/builtin/todo';
import { type Inert, sanitize } from '../protocol/inert';
import { Conversation, type Input } from './conversation';
import { Compaction } from './compaction';
import { type StepOptions, partialMessage } from './step';
import { runOwnCommand } from './own-command';
import { type ActiveTurn, emptyStep } from './turn';
import type { RunnerOptions } from './runner-options';
import { ModelTurn } from './model-turn';
import { Steering } from './steering';
import { beforeSending, waitsBeforeSending } from './before-sending';
import { withTools } from './with-tools';

export type { Input } from './conversation';

export { killLiveTools } from '../tools/lazy-command';

export class TurnRunner {
  private active: ActiveTurn | null = null;
  private lastId = 0;
  /** Turns started in this process, for the file copies' turn numbers (never reused, even after a rewind). */
  private turnSeq = 0;
  private readonly conversation = new Conversation();
  private readonly compaction: Compaction;
  private readonly model: ModelTurn;
  private readonly steering: Steering;
  readonly settings: Settings;

  constructor(
    private readonly bus: Bus,
    private readonly provider: Provider,
    private readonly options: RunnerOptions = {},
  ) {
    const settings = (this.settings =
      options.settings ?? new Settings({ provider: provider.name, model: provider.model ?? null }));
    this.compaction = new Compaction({
      bus,
      provider,
      conversation: this.conversation,
      model: () => settings.model ?? undefined,
      contextWindow: options.contextWindow,
    });
    const step: StepOptions = {
      bus,
      provider,
      maxShown: options.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS,
      maxKept: options.maxKeptChars ?? DEFAULT_MAX_KEPT_CHARS,
    };
    const { registry, calls } = withTools(bus, provider, { ...options, settings, step });
    this.steering = new Steering(bus);
    this.model = new ModelTurn({
      bus,
      options,
      settings,
      conversation: this.conversation,
      compaction: this.compaction,
      registry,
      calls,
      step,
      steering: this.steering,
    });
  }

  get busy(): boolean {
    return this.active !== null;
  }

  /** The reasoning effort the next request asks (the person's choice, else the model's in config); none: undefined. */
  effort(): Effort | undefined {
    return this.options.effort?.();
  }

  /**
   * Replaces the conversation (a resumed one, or none for a new one), with the checklist it holds (a replayed log's;
   * else the last todo call among the messages). Only when idle.
   */
  load(messages: readonly ChatMessage[], checklist: readonly TodoItem[] | null = null): void {
    if (this.active) throw new Error('a turn is running');
    this.conversation.load(messages);
    this.bus.emit('checklist.changed', { items: checklist ?? checklistOf(messages) ?? [] });
  }

  /** The first turn of this conversation that this process ran (rewinds and compactions aside), or null. */
  get firstTurn(): number | null {
    return this.conversation.firstTurn;
  }

  /** The inputs a rewind can go back to, oldest first. */
  get rewindable(): readonly Input[] {
    return this.conversation.inputs;
  }

  /**
   * Takes the conversation back to before input `index`: it and everything
   * after leave what the model gets (the log records the fork). Returns the
   * input, for the composer; null when there is none. Only when idle.
   */
  rewind(index: number): Input | null {
    if (this.active) throw new Error('a turn is running');
    const done = this.conversation.rewind(index);
    if (!done) return null;
    this.bus.emit('conversation.rewound', { kept: done.input.at, dropped: done.dropped });
    this.bus.emit('checklist.changed', { items: checklistOf(this.conversation.messages) ?? [] });
    return done.input;
  }

  /** Starts a turn for `input`; returns its id. Only one turn runs at a time. */
  start(
    input: string,
    options: { display?: string; segments?: Segment[]; images?: readonly ImagePart[] } = {},
  ): number {
    const segments = options.segments ?? [{ type: 'text' as const, text: input }];
    const images = options.images?.length ? options.images : undefined;
    return this.launch(
      {
        input,
        display: sanitize(options.display ?? input),
        segments: options.segments,
        // The log keeps what the images were, never their bytes.
        ...(images ? { images: images.map(withoutBytes) } : {}),
      },
      segments,
      (turn) => {
        turn.steering = [];
        const record = (content: string): Promise<void> => {
          this.model.record(turn.id, { role: 'user', content, ...(images ? { images } : {}) });
          return this.model.run(turn);
        };
        // The request goes out at once unless a hook or a resource has to be waited for first.
        if (!waitsBeforeSending(this.options, input)) return record(input);
        const sent = beforeSending(this.bus, this.options, turn, input);
        return sent.then((content) => (content === null ? undefined : record(content)));
      },
    );
  }

  /**
   * Runs the person's own command (`!ls`) as a turn without the model
   * (turn/own-command.ts); it joins the conversation as their message.
   */
  runOwn(command: string, options: { display?: string; segments?: Segment[] } = {}): number {
    const segments = options.segments ?? [{ type: 'text' as const, text: `!${command}` }];
    const input = `!${command}`;
    return this.launch(
      { input, display: sanitize(options.display ?? input), segments, kind: 'command' },
      segments,
      async (turn) => {
        await this.options.snapshots?.beforeCommand(turn.seq);
        if (turn.cancelled) return;
        const content = await runOwnCommand(this.bus, turn, command, {
          workspace: this.options.workspace ?? process.cwd(),
          killGraceMs: this.options.killGraceMs,
        });
        if (content === null) return;
        this.model.record(turn.id, { role: 'user', content });
        this.bus.emit('command.ran', { turnId: turn.id, text: content, segments });
      },
    );
  }

  /**
   * /compact: summarises the whole conversation now, as a turn of its own (Ctrl-C stops it). Null when there is nothing
   * to compact.
   */
  /**
   * The share of the model's window the conversation takes now, with the system prompt and tools (the context gauge,
   * /status): costs a pass over the conversation, so it is asked when a turn ends, not per frame.
   */
  contextUse(): { tokens: number; window: number } {
    return this.compaction.use(this.options.systemPrompt?.(), this.model.tools());
  }

  compact(focus?: string): number | null {
    if (this.active) throw new Error('a turn is already running');
    const all = this.compaction.everything(this.options.systemPrompt?.());
    if (!all) return null;
    const input = focus ? `/compact ${focus}` : '/compact';
    return this.launch({ input, display: sanitize(input), kind: 'compact' }, null, (turn) =>
      this.compaction.summarise(turn, all.older, 0, all.before, focus),
    );
  }

  /**
   * Sends `text` into the running model turn: it joins the conversation as the person's message after the tool call in
   * progress, before the next model request (a turn about to end makes one more). Its id, which `turn.steered` names
   * when it is delivered; null when no model turn runs (then it waits for the turn's end, as the queue does).
   */
  steer(text: string, display: Inert, segments?: Segment[]): number | null {
    return this.steering.send(this.active, text, display, segments);
  }

  /** Interrupts the running turn. A second call, or a call when idle, does nothing. */
  cancel(): boolean {
    return this.stop('interrupted');
  }

  /** Ends the running turn as failed with `message`: milk itself had to stop it (its memory nearly full). */
  fail(message: string): boolean {
    return this.stop('error', message);
  }

  /**
   * The life every turn shares, a model turn, a `!` command or /compact: one
   * at a time, its start announced, its work under a PCancelable whose cancel
   * aborts it, its end reported once. `rewindable`: the input a rewind can go
   * back to (none for /compact).
   */
  private launch(
    started: Omit<Events['turn.started'], 'turnId'>,
    rewindable: Segment[] | null,
    work: (turn: ActiveTurn) => Promise<unknown>,
  ): number {
    if (this.active) throw new Error('a turn is already running');
    const id = ++this.lastId;
    const controller = new AbortController();
    const seq = rewindable ? this.turnSeq++ : -1;
    if (rewindable) this.conversation.markInput(rewindable, seq);
    const turn: ActiveTurn = {
      id,
      seq,
      controller,
      promise: null,
      cancelled: false,
      step: emptyStep(),
      shown: 0,
      unanswered: [],
    };
    this.active = turn;
    // A background command may change files during the turn: then its snapshot is taken at once (while the request
    // is on its way); otherwise only before its first command, if it runs one.
    const commandsAlive = (this.options.background?.running.length ?? 0) > 0;
    if (seq >= 0) this.options.snapshots?.turnStarted(seq, { commandsAlive });
    this.bus.emit('turn.started', { turnId: id, ...started });
    turn.promise = new PCancelable<void>((resolve, reject, onCancel) => {
      onCancel(() => controller.abort());
      work(turn).then(() => resolve(), reject);
    });
    turn.promise.then(
      () => this.finish(turn, 'done'),
      (err: unknown) => {
        if (!turn.cancelled) this.finish(turn, 'error', err instanceof Error ? err.message : String(err));
      },
    );
    return id;
  }

  private stop(status: 'interrupted' | 'error', message?: string): boolean {
    const turn = this.active;
    if (!turn || turn.cancelled) return false;
    turn.cancelled = true;
    // Aborts the stream, any command, and an open question (turn/approvals.ts).
    turn.promise?.cancel();
    this.finish(turn, status, message);
    return true;
  }

  private finish(turn: ActiveTurn, status: 'done' | 'interrupted' | 'error', message?: string): void {
    if (this.active !== turn) return;
    this.active = null;
    if (turn.seq >= 0) this.options.snapshots?.turnEnded(turn.seq);
    // Leave the conversation well-formed for the next turn: partial text kept, every tool call answered.
    if (turn.step.text) this.model.record(turn.id, partialMessage(turn));
    for (const call of turn.unanswered) {
      this.model.record(turn.id, {
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: `not run: the turn was ${status === 'interrupted' ? 'interrupted' : 'stopped'}`,
      });
    }
    turn.unanswered = [];
    // An error's words may be a server's: shown and logged as inert text, as the answer is.
    this.bus.emit('turn.ended', {
      turnId: turn.id,
      status,
      message: message === undefined ? undefined : sanitize(message),
    });
  }
}

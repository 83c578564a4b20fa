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
import { DEFAULT_CONTEXT_CHARS, DEFAULT_MAX_ANSWER_CHARS, DEFAULT_MAX_KEPT_CHARS } from './limits';
import { Settings } from '../settings/store';
import type { Segment } from '../protocol/segments';
import type { Provider } from '../providers/provider';
import type { ChatMessage } from '../protocol/messages';
import { ProviderError } from '../providers/errors';
import type { ToolCall, ToolSpec } from '../protocol/tools';
import type { Effort } from '../settings/effort';
import { withoutBytes } from '../kernel/images';
import { type ImagePart } from '../protocol/images';
import { checklistOf } from '../kernel/checklist';
import { type TodoItem } from '../protocol/checklist';
import { ToolRegistry } from '../tools/registry';
import { type Inert, sanitize } from '../protocol/inert';
import { Conversation, type Input } from './conversation';
import { Approvals, Questions } from './approvals';
import { Compaction } from './compaction';
import { StepOptions, partialMessage, stepMessage, streamStep } from './step';
import { type CallAnswer, type Show, ToolCalls, ToolCallsOptions } from './calls/tool-calls';
import { Subagents } from './subagent';
import { type AgentSpec, EXPLORE } from '../agent/subagents';
import { runOwnCommand } from './own-command';
import { commandModule } from '../tools/lazy-command';
import { type ActiveTurn, emptyStep } from './turn';

export type { Input } from './conversation';

export { killLiveTools } from '../tools/lazy-command';

/**
 * Model requests in one turn before the person is asked whether it goes on (config `maxSteps`; `milk run`, with no one
 * to ask, stops there): a tool loop that never ends is cut off, a long task is not.
 */
export const DEFAULT_MAX_STEPS = 100;

/** An input that names an MCP resource (`@server:name`). */
const MENTION = /(^|\s)@[A-Za-z0-9_-]+:\S/;

export interface RunnerOptions extends Partial<
  Omit<ToolCallsOptions, 'bus' | 'settings' | 'registry' | 'approvals' | 'questions' | 'probeSandbox'>
> {
  /** Model requests in one turn before asking whether it goes on (none to ask: it stops). */
  maxSteps?: number;
  /** The model to ask and which calls run without asking (force mode, "always" answers). */
  settings?: Settings;
  /** The tools offered (milk's own and the MCP servers'); only with a workspace, where they run. */
  tools?: ToolRegistry;
  /** Characters of one turn's answer shown, at most; past it the turn ends with a message. */
  maxAnswerChars?: number;
  /** Characters of one answer kept in the conversation sent back to the model. */
  maxKeptChars?: number;
  /**
   * Characters of conversation sent with a request; the oldest whole turns are left out past it (when compaction could
   * not help).
   */
  maxContextChars?: number;
  /**
   * The model's context window in tokens (config `contextWindow`, per model); past 80 % of it the older turns are
   * compacted.
   */
  contextWindow?: () => number | undefined;
  /** The system prompt, put together at the start of each turn (agent/context.ts). */
  systemPrompt?: () => string;
  /** The conversation's id, which its requests name to reach the server's cache of their prefix. */
  cacheKey?: () => string | undefined;
  /** The reasoning effort to ask (/effort, else the model's in config.json); none sent when undefined. */
  effort?: () => Effort | undefined;
  /** The subagents the task tool can hand work to (milk's explore without it). */
  agents?: () => readonly AgentSpec[];
  /** What an input's `@server:resource` mentions name, read and put after it (MCP resources), with notes. */
  expandInput?: (input: string, signal: AbortSignal) => Promise<{ text: string; notes: string[] }>;
  /** Where the agent works and when, for a subagent's system prompt. */
  where?: () => string;
}

export class TurnRunner {
  private active: ActiveTurn | null = null;
  private lastId = 0;
  private lastSteer = 0;
  /** Turns started in this process, for the file copies' turn numbers (never reused, even after a rewind). */
  private turnSeq = 0;
  private readonly conversation = new Conversation();
  private readonly compaction: Compaction;
  private readonly registry: ToolRegistry;
  private readonly calls: ToolCalls | null;
  private readonly subagents: Subagents | null = null;
  private readonly step: StepOptions;
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
    this.step = {
      bus,
      provider,
      maxShown: options.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS,
      maxKept: options.maxKeptChars ?? DEFAULT_MAX_KEPT_CHARS,
    };
    const workspace = options.workspace;
    this.registry = options.tools ?? new ToolRegistry();
    if (workspace) {
      const calls = {
        ...options,
        workspace,
        bus,
        settings,
        approvals: new Approvals(bus),
        probeSandbox: () => commandModule().probeSandbox(),
      };
      this.subagents = new Subagents({
        bus,
        provider,
        settings,
        registry: this.registry,
        calls,
        agents: options.agents ?? (() => [EXPLORE]),
        where: options.where ?? (() => `Working directory (the workspace): ${workspace}`),
        maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
        step: this.step,
      });
      this.calls = new ToolCalls({
        ...calls,
        registry: this.registry,
        questions: new Questions(bus),
        subagents: this.subagents,
      });
    } else this.calls = null;
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
          this.record(turn.id, { role: 'user', content, ...(images ? { images } : {}) });
          return this.loop(turn);
        };
        // The request goes out at once unless a hook or a resource has to be waited for first.
        if (!this.waitsBeforeSending(input)) return record(input);
        return this.beforeSending(turn, input).then((content) => (content === null ? undefined : record(content)));
      },
    );
  }

  private waitsBeforeSending(input: string): boolean {
    return this.options.hooks?.has('user_prompt') === true || (!!this.options.expandInput && MENTION.test(input));
  }

  /** The user_prompt hooks (which may stop the input), then its MCP resources read: what the model gets, or null. */
  private async beforeSending(turn: ActiveTurn, input: string): Promise<string | null> {
    const hooks = this.options.hooks;
    if (hooks?.has('user_prompt')) {
      const stopped = await hooks.userPrompt(input, turn.controller.signal);
      if (turn.cancelled) return null;
      if (stopped !== null) throw new Error(`a user_prompt hook stopped this input: ${stopped}`);
    }
    const content = await this.expanded(turn, input);
    return turn.cancelled ? null : content;
  }

  /** The input as the model gets it: with what its MCP resource mentions name (a note for each). */
  private async expanded(turn: ActiveTurn, input: string): Promise<string> {
    const expand = this.options.expandInput;
    if (!expand || !MENTION.test(input)) return input;
    const { text, notes } = await expand(input, turn.controller.signal);
    for (const note of notes) this.bus.emit('transcript.note', { text: sanitize(note) });
    if (text !== input && !turn.cancelled) this.bus.emit('turn.sent', { turnId: turn.id, text });
    return text;
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
        this.record(turn.id, { role: 'user', content });
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
    return this.compaction.use(this.options.systemPrompt?.(), this.calls ? this.registry.specs() : undefined);
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
    const turn = this.active;
    if (!turn?.steering || turn.cancelled) return null;
    const id = ++this.lastSteer;
    turn.steering.push({ id, text, display, ...(segments ? { segments } : {}) });
    return id;
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

  /** A model turn: steps until the model asks for no tool, each call answered before the next step. */
  private async loop(turn: ActiveTurn): Promise<void> {
    const tools = this.calls ? this.registry.specs() : undefined;
    // Once per turn: the mode or the date may change between turns, not within one.
    turn.system = this.options.systemPrompt?.();
    const maxSteps = this.options.maxSteps ?? DEFAULT_MAX_STEPS;
    for (let steps = 1; ; steps++) {
      const more = await this.oneStep(turn, tools);
      if (turn.cancelled) return;
      // What the person sent meanwhile goes in now, before the next request (an answer that would end the turn
      // gets one more).
      if (!this.deliverSteering(turn) && !more) return;
      if (steps % maxSteps === 0 && !(await this.goOn(turn, steps))) {
        if (turn.cancelled) return;
        throw new Error(
          `stopped after ${steps} model requests in one turn (maxSteps in config.json is ${maxSteps}` +
            `${this.options.unattended ? ')' : '; you chose to stop)'}`,
        );
      }
    }
  }

  /** One step: a model request and its calls answered; false when the turn is over (no call asked, or it stopped). */
  private async oneStep(turn: ActiveTurn, tools: readonly ToolSpec[] | undefined): Promise<boolean> {
    // Only a full context waits (for its summary): otherwise the request starts at once.
    const compacting = this.compaction.ifFull(turn, tools);
    if (compacting) await compacting;
    if (turn.cancelled) return false;
    const calls = await this.request(turn, tools);
    if (turn.cancelled) return false;
    this.record(turn.id, stepMessage(turn, calls));
    if (calls.length === 0) return false;
    turn.unanswered = [...calls];
    for (let at = 0; at < calls.length;) {
      const group = this.together(calls, at);
      const answers = await this.answerAll(turn, group);
      if (turn.cancelled || answers === null) return false;
      group.forEach((call, k) => {
        const answer = answers[k];
        turn.unanswered.shift();
        const images = answer.images ? { images: answer.images } : {};
        this.record(
          turn.id,
          { role: 'tool', toolCallId: call.id, name: call.name, content: answer.content, ...images },
          answer.declined,
        );
      });
      at += group.length;
    }
    return true;
  }

  /** The calls from `at` answered together: a run of read-only tasks (subagents that only read), else the one call. */
  private together(calls: readonly ToolCall[], at: number): ToolCall[] {
    const readOnly = (call: ToolCall): boolean => this.subagents?.readOnly(call) ?? false;
    let end = at + 1;
    if (readOnly(calls[at])) while (end < calls.length && readOnly(calls[end])) end++;
    return calls.slice(at, end);
  }

  /**
   * Answers the calls, at once when there are several (each shown in order, the next one's block after the one
   * before has ended); null when the turn was stopped.
   */
  private async answerAll(turn: ActiveTurn, group: readonly ToolCall[]): Promise<CallAnswer[] | null> {
    const calls = this.calls;
    if (!calls)
      return group.map((call) => ({ content: `error: no tools here (${call.name} was not run)`, declined: false }));
    if (group.length === 1) {
      const one = await calls.answer(turn, group[0]);
      return one === null ? null : [one];
    }
    const shows = inOrder(calls.onBus(turn), group.length);
    const answers = await Promise.all(group.map((call, k) => calls.answer(turn, call, shows[k])));
    return answers.some((a) => a === null) ? null : (answers as CallAnswer[]);
  }

  /** The messages sent into the turn so far join the conversation as the person's; false when there were none. */
  private deliverSteering(turn: ActiveTurn): boolean {
    const pending = turn.steering?.splice(0) ?? [];
    for (const s of pending) {
      this.record(turn.id, { role: 'user', content: s.text });
      this.bus.emit('turn.steered', {
        turnId: turn.id,
        steerId: s.id,
        text: s.text,
        display: s.display,
        ...(s.segments ? { segments: s.segments } : {}),
      });
    }
    return pending.length > 0;
  }

  /** The turn made another maxSteps requests: the person is asked whether it goes on (no one to ask: it does not). */
  private goOn(turn: ActiveTurn, steps: number): Promise<boolean> {
    if (this.options.unattended) return Promise.resolve(false);
    return new Promise((resolve) => {
      const offAnswer = this.bus.on('turn.limitAnswered', ({ turnId, goOn }) => {
        if (turnId !== turn.id) return;
        done(goOn);
      });
      const onCancel = (): void => done(false);
      const done = (goOn: boolean): void => {
        offAnswer();
        turn.controller.signal.removeEventListener('abort', onCancel);
        resolve(goOn && !turn.cancelled);
      };
      turn.controller.signal.addEventListener('abort', onCancel, { once: true });
      this.bus.emit('turn.limit', { turnId: turn.id, steps });
    });
  }

  /**
   * One model request; a server that refuses the images in it (a model without vision) is asked again without them,
   * once, and the person told.
   */
  private async request(turn: ActiveTurn, tools: readonly ToolSpec[] | undefined): Promise<ToolCall[]> {
    try {
      return await this.requestOnce(turn, tools);
    } catch (err) {
      const refused = err instanceof ProviderError && err.refusesImages;
      if (!refused || turn.step.text.length > 0 || !this.conversation.dropImages()) throw err;
      const why = err.message;
      this.bus.emit('transcript.note', {
        text: sanitize(
          `the server refused the images (${why.slice(0, 300)}); they were left out and it was asked again`,
        ),
      });
      return this.requestOnce(turn, tools);
    }
  }

  /** One model request with the conversation as it stands. */
  private requestOnce(turn: ActiveTurn, tools: readonly ToolSpec[] | undefined) {
    const { messages, note } = this.conversation.context(this.options.maxContextChars ?? DEFAULT_CONTEXT_CHARS);
    if (note) this.bus.emit('transcript.note', { text: sanitize(note) });
    this.compaction.sending(messages, turn.system, tools);
    const onUsage = ({ input }: { input: number }): void => this.compaction.counted(input);
    return streamStep(this.step, turn, {
      messages,
      tools,
      model: this.settings.model ?? undefined,
      cacheKey: this.options.cacheKey?.(),
      effort: this.options.effort?.(),
      onUsage,
    });
  }

  /** Adds a message to the conversation; the session log hears of it on the bus. */
  private record(turnId: number, message: ChatMessage, declined = false): void {
    this.conversation.push(message);
    this.bus.emit('conversation.message', { turnId, message, declined });
  }

  private finish(turn: ActiveTurn, status: 'done' | 'interrupted' | 'error', message?: string): void {
    if (this.active !== turn) return;
    this.active = null;
    if (turn.seq >= 0) this.options.snapshots?.turnEnded(turn.seq);
    // Leave the conversation well-formed for the next turn: partial text kept, every tool call answered.
    if (turn.step.text) this.record(turn.id, partialMessage(turn));
    for (const call of turn.unanswered) {
      this.record(turn.id, {
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

/**
 * Shows for calls that run at once, each block shown whole in turn: a call's events wait until every call before it has
 * finished, then come out in the order they were made.
 */
export function inOrder(show: Show, n: number): Show[] {
  const waiting: Array<Array<() => void>> = Array.from({ length: n }, () => []);
  let head = 0;
  const flush = (): void => {
    while (head < n) {
      const queue = waiting[head];
      while (queue.length) (queue.shift() as () => void)();
      if (!done[head]) return;
      head++;
    }
  };
  const done: boolean[] = Array.from({ length: n }, () => false);
  return waiting.map((_, k): Show => (name, payload) => {
    waiting[k].push(() => show(name, payload));
    const declined = name === 'tool.started' && (payload as { declined: boolean }).declined;
    if (name === 'tool.finished' || declined) done[k] = true;
    flush();
  });
}

// Runs one turn at a time under a PCancelable that owns an AbortController:
// the model streams, asks for tools, gets their results, and streams again.
// Cancelling is idempotent and ordered: mark cancelled, abort the stream and
// any tool (its process group gets TERM, then KILL), report once. Results
// carry their turn id so nothing from a cancelled turn is ever shown. The
// runner never touches a widget; it speaks through the bus.

import PCancelable from 'p-cancelable';
import type { Bus, Events } from '../bus';
import { DEFAULT_CONTEXT_CHARS, DEFAULT_MAX_ANSWER_CHARS, DEFAULT_MAX_KEPT_CHARS } from './limits';
import { Settings } from '../settings/store';
import type { Segment } from '../editor/model';
import { trimContext } from './context';
import { isSummary, Calibration, DEFAULT_CONTEXT_WINDOW, MAX_SUMMARY_CHARS, SUMMARY_SYSTEM, cutToolOutputs, estimateTokens, isFull, messageTokens, splitAtCurrentTurn, summaryMessages, summaryRequest } from './compact';
import { ChatMessage, Provider, ThinkingBlock, ToolCall, ToolSpec } from '../providers/provider';
import { StreamSanitizer, sanitize } from './sanitize';
import { TOOL_SPECS } from '../tools/specs';
import { callDetail, describeCall, showControls, visible } from '../tools/visible';
import { describeRule, suggestRule } from '../settings/rules';

let tools: typeof import('../tools/shell') | null = null;

/**
 * The tool runner (and with it the file tools and the diff library), loaded
 * when the model first calls a tool: start-up never pays for child_process.
 */
function toolRunner(): typeof import('../tools/shell') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  tools ??= require('../tools/shell') as typeof import('../tools/shell');
  return tools;
}

/** Kills what tools left running, if any tool ever ran (at exit). */
export function killLiveTools(): void {
  tools?.killAllTools();
}

export type Approval = 'yes' | 'no' | 'always' | 'rule' | 'network';

/** An input of this conversation that a rewind can go back to. */
export interface Input {
  /** What was typed, for the composer. */
  segments: Segment[];
  /** Where its message is in the conversation. */
  at: number;
  /** Its turn's number for the file copies (session/checkpoints.ts); -1 for one from before this process (no copies). */
  turn: number;
}

export interface RunnerOptions {
  /** Where tools run and what they may touch; without it the model gets no tools. */
  workspace?: string;
  /** Model requests in one turn, at most (a tool loop that never ends is cut off). */
  maxSteps?: number;
  killGraceMs?: number;
  /** The model to ask and which calls run without asking (force mode, "always" answers). */
  settings?: Settings;
  /** Characters of one turn's answer shown, at most; past it the turn ends with a message. */
  maxAnswerChars?: number;
  /** Characters of one answer kept in the conversation sent back to the model. */
  maxKeptChars?: number;
  /** Characters of conversation sent with a request; the oldest whole turns are left out past it (when compaction could not help). */
  maxContextChars?: number;
  /** The model's context window in tokens (config `contextWindow`, per model); past 80 % of it the older turns are compacted. */
  contextWindow?: () => number | undefined;
  /** The system prompt, put together at the start of each turn (agent/context.ts). */
  systemPrompt?: () => string;
  /** Folders a sandboxed command must not see (milk's data dir: its history may hold secrets). */
  hide?: readonly string[];
  /** Keeps copies of the files write_file and edit_file change, per turn, for a rewind to put back. */
  checkpoints?: { before(file: string, turn: number): Promise<void>; after(file: string): Promise<void> };
  /** Settles once the workspace's approval rules are read: no call is decided before. */
  rulesReady?: Promise<unknown>;
  /** No one is there to answer a question (milk run): a call that would ask is refused, saying so. */
  unattended?: boolean;
  /** The MCP servers' tools (tools/mcp.ts): offered beside milk's own, decided by whether the server marks them read-only. */
  mcp?: {
    specs(): ToolSpec[];
    find(name: string): { readonly readOnly: boolean } | undefined;
    call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<{ ok: boolean; content: string; status?: string }>;
  };
}


class AnswerTooLong extends Error {}

const DECLINED = 'The user declined to run this tool call.';

interface ActiveTurn {
  readonly id: number;
  /** Its number for the file copies; -1 for a turn that changes no file (/compact). */
  readonly seq: number;
  /** The system prompt this turn sends. */
  system?: string;
  readonly controller: AbortController;
  promise: PCancelable<void> | null;
  cancelled: boolean;
  /** Text of the current model step not yet in the conversation (at most maxKeptChars). */
  stepText: string;
  /** The step's text went past what the conversation keeps. */
  stepCut: boolean;
  /** The step's reasoning (OpenAI-compatible servers), as it came, up to what the conversation keeps. */
  stepReasoning: string;
  /** The step's Anthropic thinking blocks, as they came (their signatures vouch for the exact text). */
  stepThinking: ThinkingBlock[];
  /** Characters of answer shown in this turn so far. */
  shown: number;
  /** Tool calls asked for and not yet answered in the conversation. */
  unanswered: ToolCall[];
  approval: ((a: Approval) => void) | null;
}

export class TurnRunner {
  private active: ActiveTurn | null = null;
  private lastId = 0;
  private conversation: ChatMessage[] = [];
  /** Turns left out of the last request for the context budget (a note says so when it changes). */
  private dropped = 0;
  /** The inputs a rewind can go back to (those since the last compaction). */
  private inputs: Input[] = [];
  /** Turns started in this process, for the file copies' turn numbers (never reused, even after a rewind). */
  private turnSeq = 0;
  /** What the server counts against what is estimated (compact.ts). */
  private readonly calibration = new Calibration();
  /** The estimated tokens of the last request sent, for the calibration when its usage comes. */
  private lastEstimate = 0;
  readonly settings: Settings;

  constructor(private readonly bus: Bus, private readonly provider: Provider, private readonly options: RunnerOptions = {}) {
    this.settings = options.settings ?? new Settings({ provider: provider.name, model: provider.model ?? null });
  }

  get busy(): boolean {
    return this.active !== null;
  }

  /** Replaces the conversation (a resumed one, or none for a new one). Only when idle. */
  load(messages: readonly ChatMessage[]): void {
    if (this.active) throw new Error('a turn is running');
    this.conversation = [...messages];
    this.dropped = 0;
    // A resumed conversation's inputs can be rewound to (its files were changed by another process: none are put back).
    this.inputs = [];
    messages.forEach((m, at) => {
      if (m.role === 'user' && !isSummary(m.content)) this.inputs.push({ segments: [{ type: 'text', text: m.content }], at, turn: -1 });
    });
  }

  /** The inputs a rewind can go back to, oldest first. */
  get rewindable(): readonly Input[] {
    return this.inputs;
  }

  /**
   * Takes the conversation back to before input `index`: it and everything
   * after leave what the model gets (the log records the fork). Returns the
   * input, for the composer; null when there is none. Only when idle.
   */
  rewind(index: number): Input | null {
    if (this.active) throw new Error('a turn is running');
    const input = this.inputs[index];
    if (!input) return null;
    const dropped = this.conversation.length - input.at;
    this.conversation = this.conversation.slice(0, input.at);
    this.inputs = this.inputs.slice(0, index);
    this.dropped = 0;
    this.bus.emit('conversation.rewound', { kept: input.at, dropped });
    return input;
  }

  /** Starts a turn for `input`; returns its id. Only one turn runs at a time. */
  start(input: string, options: { display?: string; segments?: Segment[] } = {}): number {
    const segments = options.segments ?? [{ type: 'text' as const, text: input }];
    return this.launch({ input, display: options.display, segments: options.segments }, segments, (turn) => {
      this.record(turn.id, { role: 'user', content: input });
      return this.loop(turn);
    });
  }

  /**
   * The life every turn shares, a model turn, a `!` command or /compact: one
   * at a time, its start announced, its work under a PCancelable whose cancel
   * aborts it, its end reported once. `rewindable`: the input a rewind can go
   * back to (none for /compact).
   */
  private launch(started: Omit<Events['turn.started'], 'turnId'>, rewindable: Segment[] | null, work: (turn: ActiveTurn) => Promise<unknown>): number {
    if (this.active) throw new Error('a turn is already running');
    const id = ++this.lastId;
    const controller = new AbortController();
    const seq = rewindable ? this.turnSeq++ : -1;
    if (rewindable) this.inputs.push({ segments: rewindable, at: this.conversation.length, turn: seq });
    const turn: ActiveTurn = { id, seq, controller, promise: null, cancelled: false, stepText: '', stepCut: false, stepReasoning: '', stepThinking: [], shown: 0, unanswered: [], approval: null };
    this.active = turn;
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

  /**
   * Runs the person's own command (`!ls`) as a turn without the model: in the
   * workspace, unsandboxed and unasked (it is theirs), output streamed and
   * bounded as a tool's, Ctrl-C stopping its process group. The command and
   * its output join the conversation as a message from the person, for the
   * model to see with the next input.
   */
  runOwn(command: string, options: { display?: string; segments?: Segment[] } = {}): number {
    const segments = options.segments ?? [{ type: 'text' as const, text: `!${command}` }];
    return this.launch({ input: `!${command}`, display: options.display, segments, kind: 'command' }, segments, (turn) => this.own(turn, command, segments));
  }

  private async own(turn: ActiveTurn, command: string, segments: Segment[]): Promise<void> {
    const detail = sanitize(`you ran: ${visible(command)}`);
    this.bus.emit('tool.started', { turnId: turn.id, summary: detail, detail, declined: false });
    const output = new StreamSanitizer();
    const result = await toolRunner().runTool({ id: `own-${turn.id}`, name: 'shell', args: { command } }, {
      workspace: this.options.workspace ?? process.cwd(),
      sandbox: null,
      signal: turn.controller.signal,
      killGraceMs: this.options.killGraceMs,
      onOutput: (text) => {
        const shown = output.push(text);
        if (shown && this.active === turn && !turn.cancelled) this.bus.emit('tool.output', { turnId: turn.id, text: shown });
      },
    });
    if (turn.cancelled) return;
    this.bus.emit('tool.finished', { turnId: turn.id, ok: result.ok, status: result.status });
    const content = `I ran this command in the workspace myself:\n$ ${command}\n${result.content}`;
    this.record(turn.id, { role: 'user', content });
    this.bus.emit('command.ran', { turnId: turn.id, text: content, segments });
  }

  /** Interrupts the running turn. A second call, or a call when idle, does nothing. */
  cancel(): boolean {
    return this.stop('interrupted');
  }

  /** Ends the running turn as failed with `message`: milk itself had to stop it (its memory nearly full). */
  fail(message: string): boolean {
    return this.stop('error', message);
  }

  private stop(status: 'interrupted' | 'error', message?: string): boolean {
    const turn = this.active;
    if (!turn || turn.cancelled) return false;
    turn.cancelled = true;
    turn.promise?.cancel();
    turn.approval?.('no');
    this.finish(turn, status, message);
    return true;
  }

  /** The person's answer to the pending approval question. */
  answer(approval: Approval): void {
    const resolve = this.active?.approval;
    if (!resolve) return;
    this.active!.approval = null;
    resolve(approval);
  }

  private async loop(turn: ActiveTurn): Promise<void> {
    const mcp = this.options.mcp?.specs() ?? [];
    const tools = this.options.workspace ? (mcp.length ? [...TOOL_SPECS, ...mcp] : TOOL_SPECS) : undefined;
    // Once per turn: the mode or the date may change between turns, not within one.
    turn.system = this.options.systemPrompt?.();
    const maxSteps = this.options.maxSteps ?? 20;
    for (let step = 0; step < maxSteps; step++) {
      // Only a full context waits (for its summary): otherwise the request starts at once.
      const compacting = this.compactIfFull(turn, tools);
      if (compacting) await compacting;
      if (turn.cancelled) return;
      const calls = await this.stream(turn, tools);
      if (turn.cancelled) return;
      this.record(turn.id, { role: 'assistant', content: this.takeStepText(turn), ...(calls.length ? { toolCalls: calls } : {}), ...this.takeReasoning(turn) });
      if (calls.length === 0) return;
      turn.unanswered = [...calls];
      for (const call of calls) {
        const content = await this.runCall(turn, call);
        if (turn.cancelled) return;
        turn.unanswered.shift();
        this.record(turn.id, { role: 'tool', toolCallId: call.id, name: call.name, content }, content === DECLINED);
      }
    }
    throw new Error(`stopped after ${maxSteps} model requests in one turn`);
  }

  private async stream(turn: ActiveTurn, tools: typeof TOOL_SPECS | undefined): Promise<ToolCall[]> {
    const clean = new StreamSanitizer();
    const thought = new StreamSanitizer();
    const calls: ToolCall[] = [];
    const signal = turn.controller.signal;
    try {
      const messages = this.context();
      this.lastEstimate = this.estimate(messages, turn.system, tools);
      for await (const item of this.provider.stream(messages, signal, { tools, model: this.settings.model ?? undefined, system: turn.system })) {
        if (signal.aborted) return calls;
        if (typeof item === 'string') this.deliver(turn, clean.push(item));
        else if ('usage' in item) {
          this.calibration.observe(this.lastEstimate, item.usage.input);
          this.bus.emit('turn.usage', { turnId: turn.id, ...item.usage });
        } else if ('reasoning' in item) this.reason(turn, item.reasoning, thought.push(item.reasoning));
        else if ('thinking' in item) turn.stepThinking.push(item.thinking);
        else calls.push(item.toolCall);
      }
    } catch (err) {
      // Past the cap: hang up on the server too, not just stop reading.
      if (err instanceof AnswerTooLong) turn.controller.abort();
      throw err;
    }
    this.deliver(turn, clean.end());
    return calls;
  }

  private async runCall(turn: ActiveTurn, call: ToolCall): Promise<string> {
    if (call.argsError) return this.refuseCall(turn, call, call.argsError);
    await this.options.rulesReady;
    if (turn.cancelled) return 'interrupted';
    const mcpTool = this.options.mcp?.find(call.name);
    // An MCP tool is a command to milk (asked about unless the mode runs commands), or a read when its server marks it read-only.
    let decision = this.settings.decide(call.name, call.args, mcpTool ? (mcpTool.readOnly ? 'read' : 'run') : undefined);
    if (decision === 'refuse') return this.refuseCall(turn, call, `the person set milk to ${this.settings.mode} mode, where ${call.name} is not allowed`, 'not allowed');
    const confined = call.name === 'shell' ? await this.confinement() : { sandbox: false, agree: false };
    if (turn.cancelled) return 'interrupted';
    // A command that would run without the sandbox it should have runs only once the person agrees.
    if (confined.agree) decision = 'ask';
    if (decision === 'ask' && this.options.unattended) {
      const why = confined.agree
        ? `no sandbox can run here (${this.settings.sandboxBroken}) and no one is there to agree to running it without one (milk run; --sandbox off runs commands unconfined)`
        : `it needs the person's approval in ${this.settings.mode} mode, and no one is there to give it (milk run; --approval auto-edit or full-auto lets such calls run)`;
      return this.refuseCall(turn, call, why, 'not allowed');
    }
    const summary = sanitize(describeCall(call));
    // A write shows the change it would make before anyone is asked about it.
    const preview = await this.preview(call);
    if (turn.cancelled) return 'interrupted';
    const detail = sanitize(preview === null ? callDetail(call) : `${callDetail(call)}\n${showControls(preview)}`);
    let network = false;
    if (decision === 'ask') {
      const answer = await this.ask(turn, call, { summary, detail, sandboxed: confined.sandbox, agree: confined.agree });
      if (answer === 'interrupted' || answer === 'no') return answer === 'no' ? DECLINED : 'interrupted';
      network = answer === 'network';
    }
    this.bus.emit('tool.started', { turnId: turn.id, summary, detail, declined: false });
    const output = new StreamSanitizer();
    const onOutput = (text: string): void => {
      const shown = output.push(text);
      if (shown && this.active === turn && !turn.cancelled) this.bus.emit('tool.output', { turnId: turn.id, text: shown });
    };
    const mcp = mcpTool ? this.options.mcp : undefined;
    const result = mcp ? await mcp.call(call.name, call.args, turn.controller.signal) : await toolRunner().runTool(call, {
      workspace: this.options.workspace ?? process.cwd(),
      sandbox: confined.sandbox ? { network, hide: this.options.hide ?? [] } : null,
      writes: this.writeHooks(turn),
      signal: turn.controller.signal,
      killGraceMs: this.options.killGraceMs,
      onOutput,
    });
    // An MCP server's answer shows in the call's block as a command's output does (inert, as all output is).
    if (mcp && result.ok) onOutput(result.content);
    if (!turn.cancelled) this.bus.emit('tool.finished', { turnId: turn.id, ok: result.ok, status: result.status });
    return result.content;
  }

  /**
   * Where a command runs: in the sandbox, or (off, or unable to run here)
   * without it; `agree`: it may run only once the person agrees. The first
   * command to find the sandbox unable to run says so, once.
   */
  private async confinement(): Promise<{ sandbox: boolean; agree: boolean }> {
    if (this.settings.sandbox === 'off') return { sandbox: false, agree: false };
    const probe = await toolRunner().probeSandbox();
    if (probe.ok) return { sandbox: true, agree: false };
    if (this.settings.sandboxBroken === null) {
      this.settings.sandboxBroken = probe.why;
      this.bus.emit('transcript.note', { text: sanitize(`no sandbox for commands: ${probe.why}. A command runs with your full rights only once you agree (y at its question; --sandbox off stops asking).`), reveal: true });
    }
    return { sandbox: false, agree: !this.settings.unsandboxedAgreed };
  }

  /** Puts a call to the person; what they answered (the answer's side effects done), or 'interrupted'. */
  private async ask(turn: ActiveTurn, call: ToolCall, q: { summary: string; detail: string; sandboxed: boolean; agree: boolean }): Promise<Approval | 'interrupted'> {
    const rule = suggestRule(call.name, call.args);
    // What Esc and Ctrl-C do here, where the status bar has no room (Esc answers the question; it does not stop the turn).
    const hints: string[] = ['n or Esc: no, and the model is told · Ctrl-C: stop the whole turn'];
    if (rule) hints.push(`r: ${describeRule(rule)} run without asking from now on, in this workspace`);
    if (q.sandboxed) hints.push('runs in the sandbox, without the network; w: yes, with the network');
    if (q.agree) hints.push(`no sandbox (${this.settings.sandboxBroken}): yes runs it, and later commands this session, with your full rights`);
    const answer = await new Promise<Approval>((resolve) => {
      turn.approval = resolve;
      this.bus.emit('tool.approval', { turnId: turn.id, summary: q.summary, detail: q.detail, tool: call.name, rule: rule !== null, network: q.sandboxed, hints: hints.map(sanitize) });
    });
    if (turn.cancelled) return 'interrupted';
    if (answer === 'no') {
      this.bus.emit('tool.started', { turnId: turn.id, summary: q.summary, detail: q.detail, declined: true });
      return 'no';
    }
    if (q.agree) this.settings.unsandboxedAgreed = true;
    if (answer === 'always') this.settings.allowAlways(call.name);
    if (answer === 'rule' && rule && this.settings.addRule(rule)) {
      this.bus.emit('permissions.changed', {});
      this.bus.emit('transcript.note', { text: sanitize(`from now on in this workspace, ${describeRule(rule)} run without asking (/permissions lists and removes rules)`) });
    }
    return answer;
  }

  /** A call that cannot be run as sent: shown as a failed block, and the model told why; nobody is asked about it. */
  private refuseCall(turn: ActiveTurn, call: ToolCall, why: string, status: 'invalid arguments' | 'not allowed' = 'invalid arguments'): string {
    const summary = sanitize(`${call.name}: not run`);
    this.bus.emit('tool.started', { turnId: turn.id, summary, detail: sanitize(`${call.name} call not run: ${why}`), declined: false });
    this.bus.emit('tool.finished', { turnId: turn.id, ok: false, status });
    const next = status === 'not allowed' ? 'Do without it, or ask the person to change the mode.' : 'Send the call again with its complete arguments as one JSON object.';
    return `error: this ${call.name} call was not run: ${why}. ${next}`;
  }

  /**
   * Shows streamed text and keeps (a bounded part of) it for the conversation.
   * An answer past the cap ends the turn: a stream that never stops must not
   * eat the memory, nor ride along in every later request.
   */
  private deliver(turn: ActiveTurn, text: string): void {
    if (!text || this.active !== turn || turn.cancelled) return;
    const maxShown = this.options.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS;
    const maxKept = this.options.maxKeptChars ?? DEFAULT_MAX_KEPT_CHARS;
    const room = maxShown - turn.shown;
    const shown = text.length > room ? text.slice(0, Math.max(0, room)) : text;
    if (turn.stepText.length < maxKept) turn.stepText += shown.slice(0, maxKept - turn.stepText.length);
    if (turn.stepText.length >= maxKept && shown.length > 0) turn.stepCut = true;
    turn.shown += shown.length;
    if (shown) this.bus.emit('turn.delta', { turnId: turn.id, text: shown });
    if (text.length > room) {
      throw new AnswerTooLong(`the answer passed ${maxShown.toLocaleString('en-US')} characters and was stopped there (the model keeps the first ${maxKept.toLocaleString('en-US')})`);
    }
  }

  /** Copies of the files this turn changes, for a rewind. */
  private writeHooks(turn: ActiveTurn): { before(file: string): Promise<void>; after(file: string): Promise<void> } | undefined {
    const cp = this.options.checkpoints;
    if (!cp || turn.seq < 0) return undefined;
    return { before: (file) => cp.before(file, turn.seq), after: (file) => cp.after(file) };
  }

  /** Reasoning streamed: shown (inert), and kept as it came, up to what the conversation keeps, to send back. */
  private reason(turn: ActiveTurn, raw: string, shown: string): void {
    if (this.active !== turn || turn.cancelled) return;
    const maxKept = this.options.maxKeptChars ?? DEFAULT_MAX_KEPT_CHARS;
    if (turn.stepReasoning.length < maxKept) turn.stepReasoning += raw.slice(0, maxKept - turn.stepReasoning.length);
    if (shown) this.bus.emit('turn.reasoning', { turnId: turn.id, text: shown });
  }

  /** The step's reasoning for its message, if any; the step starts afresh. */
  private takeReasoning(turn: ActiveTurn): { reasoning?: string; thinking?: ThinkingBlock[] } {
    const out = { ...(turn.stepReasoning ? { reasoning: turn.stepReasoning } : {}), ...(turn.stepThinking.length ? { thinking: turn.stepThinking } : {}) };
    turn.stepReasoning = '';
    turn.stepThinking = [];
    return out;
  }

  /** The change a write or an edit would make, for the question; null for other calls. */
  private async preview(call: ToolCall): Promise<string | null> {
    const ws = this.options.workspace;
    const p = String(call.args.path ?? '');
    if (!ws) return null;
    if (call.name === 'write_file') return toolRunner().previewWrite(ws, p, String(call.args.content ?? ''));
    if (call.name === 'edit_file') return toolRunner().previewEdit(ws, p, toolRunner().editsOf(call.args));
    return null;
  }

  /** Adds a message to the conversation; the session log hears of it on the bus. */
  private record(turnId: number, message: ChatMessage, declined = false): void {
    this.conversation.push(message);
    this.bus.emit('conversation.message', { turnId, message, declined });
  }

  /** What is sent: long tool outputs cut, the newest whole turns within the character budget, with a note when that leaves turns out. */
  private context(): ChatMessage[] {
    const { messages, dropped } = trimContext(cutToolOutputs(this.conversation), this.options.maxContextChars ?? DEFAULT_CONTEXT_CHARS);
    if (dropped !== this.dropped) {
      this.dropped = dropped;
      if (dropped > 0) this.bus.emit('transcript.note', { text: `${dropped} earlier turn${dropped === 1 ? '' : 's'} left out of what the model gets (context budget); the log keeps them all` });
    }
    return messages;
  }

  /** A request's tokens, estimated: the system prompt, the tools offered, the messages. */
  private estimate(messages: readonly ChatMessage[], system: string | undefined, tools: typeof TOOL_SPECS | undefined): number {
    let n = estimateTokens(system ?? '') + (tools ? estimateTokens(JSON.stringify(tools)) : 0);
    for (const m of messages) n += messageTokens(m);
    return n;
  }

  /** Compacts the turns before the current one when the next request would fill the window past the mark. */
  private compactIfFull(turn: ActiveTurn, tools: typeof TOOL_SPECS | undefined): Promise<boolean> | null {
    const window = this.options.contextWindow?.() ?? DEFAULT_CONTEXT_WINDOW;
    const tokens = this.calibration.tokens(this.estimate(cutToolOutputs(this.conversation), turn.system, tools));
    if (!isFull(tokens, window)) return null;
    const { older, current } = splitAtCurrentTurn(this.conversation);
    // The current turn alone: nothing to summarise; cut outputs and the character budget are what is left.
    if (older.length === 0) return null;
    return this.summarise(turn, older, current, tokens);
  }

  /**
   * Asks the model for a summary of `older` and puts it in their place before
   * `current`. The log keeps every message; it records the summary too, so a
   * resumed conversation starts from it. A failure leaves the conversation as
   * it was (the character budget still applies), with a note.
   */
  private async summarise(turn: ActiveTurn, older: ChatMessage[], current: ChatMessage[], before: number, focus?: string): Promise<boolean> {
    this.bus.emit('transcript.note', { text: `compacting the context: ${older.length} earlier messages, about ${before.toLocaleString('en-US')} tokens, into a summary…` });
    // Its own controller: a summary past its bound is hung up on without ending the turn.
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    turn.controller.signal.addEventListener('abort', onAbort, { once: true });
    const clean = new StreamSanitizer();
    let summary = '';
    try {
      for await (const item of this.provider.stream(summaryRequest(older, focus), controller.signal, { model: this.settings.model ?? undefined, system: SUMMARY_SYSTEM })) {
        if (typeof item === 'string') summary += clean.push(item);
        if (summary.length > MAX_SUMMARY_CHARS) break;
      }
      summary += clean.end();
    } catch (err) {
      if (!turn.cancelled) this.bus.emit('transcript.note', { text: sanitize(`could not compact the context (${err instanceof Error ? err.message : String(err)}); the oldest turns are left out instead, as the budget requires`) });
      return false;
    } finally {
      controller.abort();
      turn.controller.signal.removeEventListener('abort', onAbort);
    }
    if (turn.cancelled || !summary.trim()) return false;
    // Inputs inside the summary can no longer be rewound to; the current turn's moves with it.
    const gone = this.conversation.length - current.length;
    this.inputs = this.inputs.filter((i) => i.at >= gone).map((i) => ({ ...i, at: i.at - gone + 2 }));
    this.conversation = [...summaryMessages(summary), ...current];
    this.dropped = 0;
    const after = this.calibration.tokens(this.estimate(cutToolOutputs(this.conversation), turn.system, undefined));
    this.bus.emit('conversation.compacted', { turnId: turn.id, summary, kept: current.length });
    this.bus.emit('transcript.note', { text: `── context compacted: ${older.length} earlier messages summarised, about ${before.toLocaleString('en-US')} → ${after.toLocaleString('en-US')} tokens; the log keeps them all ──` });
    return true;
  }

  /** /compact: summarises the whole conversation now, as a turn of its own (Ctrl-C stops it). Null when there is nothing to compact. */
  compact(focus?: string): number | null {
    if (this.active) throw new Error('a turn is already running');
    if (!this.conversation.some((m) => m.role === 'user')) return null;
    const older = this.conversation;
    const before = this.calibration.tokens(this.estimate(cutToolOutputs(older), this.options.systemPrompt?.(), undefined));
    return this.launch({ input: focus ? `/compact ${focus}` : '/compact', kind: 'compact' }, null, (turn) => this.summarise(turn, older, [], before, focus));
  }

  /** The step's text for the conversation, marked when it was cut; the step starts afresh. */
  private takeStepText(turn: ActiveTurn): string {
    const text = turn.stepCut ? `${turn.stepText}\n[the rest of this answer was cut off]` : turn.stepText;
    turn.stepText = '';
    turn.stepCut = false;
    return text;
  }

  private finish(turn: ActiveTurn, status: 'done' | 'interrupted' | 'error', message?: string): void {
    if (this.active !== turn) return;
    this.active = null;
    // Leave the conversation well-formed for the next turn: partial text kept,
    // every tool call answered.
    if (turn.stepText) this.record(turn.id, { role: 'assistant', content: this.takeStepText(turn) });
    for (const call of turn.unanswered) {
      this.record(turn.id, { role: 'tool', toolCallId: call.id, name: call.name, content: `not run: the turn was ${status === 'interrupted' ? 'interrupted' : 'stopped'}` });
    }
    turn.unanswered = [];
    // An error's words may be a server's: shown and logged as inert text, as the answer is.
    this.bus.emit('turn.ended', { turnId: turn.id, status, message: message === undefined ? undefined : sanitize(message) });
  }
}

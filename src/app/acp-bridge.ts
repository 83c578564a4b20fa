// One ACP session's turn as its editor sees it: what the agent's bus says (the answer and its reasoning as they
// stream, each call from the model's request to its end, the checklist) sent as `session/update`s, and what milk
// would ask the person on the full screen (a call's approval, the model's question, whether a long turn goes on)
// asked as `session/request_permission`, the answer put back on the bus as the screen's question would.

import type * as acp from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Bus, Events } from '../kernel/bus';
import { builtinTool } from '../tools/registry';
import { callHeading } from '../tools/visible';
import { sanitize } from '../protocol/inert';
import {
  answerOf,
  contentOf,
  keptOutput,
  locations,
  pendingCall,
  permissionOptions,
  planOf,
  titleOf,
  toolKind,
} from '../acp/updates';

/** What a session needs of the editor: updates sent in order, a question asked, its files read and written. */
export interface EditorPort {
  update(u: acp.SessionUpdate): void;
  permission(toolCall: acp.ToolCallUpdate, options: acp.PermissionOption[]): Promise<acp.RequestPermissionOutcome>;
  readText(file: string): Promise<string>;
  writeText(file: string, text: string): Promise<void>;
  /** A command started in the editor's terminal (`terminal/create`); its handle. */
  terminal(argv: readonly string[], cwd: string, maxBytes: number): Promise<TerminalHandle>;
}

/** A command in the editor's terminal, as the SDK's handle has it. */
export interface TerminalHandle {
  readonly id: string;
  waitForExit(): Promise<{ exitCode?: number | null; signal?: string | null }>;
  currentOutput(): Promise<{ output: string }>;
  kill(): Promise<unknown>;
  release(): Promise<unknown>;
}

/** The texts the file tools last read from and wrote to the editor's buffers, by real path (a diff's two sides). */
export interface HeldTexts {
  readonly read: Map<string, string>;
  readonly written: Map<string, string>;
}

/** A command's output kept for its tool call, at most (the editor is sent all of it at each update). */
const MAX_OUTPUT = 64 * 1024;
/** Output updates at most this often while a command runs. */
const OUTPUT_EVERY_MS = 200;
/** A changed file's text is shown as a diff only up to this size. */
const MAX_DIFF_BYTES = 1024 * 1024;

const EDITS = new Set(['edit_file', 'write_file']);

interface CallState {
  name: string;
  /** The editor's terminal it runs in: its output is shown there, not sent. */
  terminal?: string;
  args: Readonly<Record<string, unknown>>;
  output: string;
  timer: NodeJS.Timeout | null;
  /** The file's text before an edit ran (null: there was none), read as it started; undefined: not read. */
  before?: string | null;
}

const resolveIn = (cwd: string, p: string): string => path.resolve(cwd, p);

/** A call's title before it runs, in the words of its kind (`Run npm test`); an unknown tool's by its name. */
function headingOf(name: string, args: Record<string, unknown>): string {
  const info = builtinTool(name);
  try {
    return sanitize(info ? callHeading(info, info.subject(args)) : name);
  } catch {
    return sanitize(name);
  }
}

/**
 * The id the editor knows a call by: a model may use one id again in a later turn (some number their calls from 1
 * in each answer), and an editor keeps every call of a session.
 */
const acpId = (turnId: number, callId: string): string => `${turnId}/${callId}`;

/** A file's text, if it is a regular file inside the workspace and small enough; null: none; undefined: not shown. */
function textIn(cwd: string, file: string): string | null | undefined {
  try {
    const real = fs.realpathSync(file);
    if (path.relative(cwd, real).startsWith('..')) return undefined;
    const st = fs.statSync(real);
    return st.isFile() && st.size <= MAX_DIFF_BYTES ? fs.readFileSync(real, 'utf8') : undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

export class AcpBridge {
  private readonly calls = new Map<string, CallState>();
  private planned = false;
  private readonly offs: Array<() => void> = [];
  /** The turn was stopped at its request limit by the editor's answer. */
  limited = false;
  /** The command running now (commands run one at a time), by the id the editor knows it by. */
  private command: string | null = null;

  constructor(
    private readonly bus: Bus,
    private readonly editor: EditorPort,
    private readonly cwd: string,
    private readonly held: HeldTexts = { read: new Map(), written: new Map() },
  ) {
    const on = <K extends keyof Events>(name: K, f: (e: Events[K]) => void): void =>
      void this.offs.push(bus.on(name, f));
    on('turn.delta', ({ text }) => this.chunk('agent_message_chunk', text));
    on('turn.reasoning', ({ text }) => this.chunk('agent_thought_chunk', text));
    on('conversation.message', ({ turnId, message }) => {
      if (message.role === 'assistant') for (const c of message.toolCalls ?? []) this.called(turnId, c);
    });
    on('tool.started', (e) => this.started(e));
    on('tool.output', (e) => this.output(e));
    on('tool.result', (e) => {
      const found = this.callOf(e);
      if (found && !found[1].terminal) this.send(found[0], { content: [contentOf(e.text)] });
    });
    on('tool.finished', (e) => this.finished(e));
    on('checklist.changed', ({ items }) => {
      if (items.length === 0 && !this.planned) return;
      this.planned = true;
      this.editor.update(planOf(items));
    });
    on('approval.asked', (e) => void this.approve(e));
    on('question.asked', (e) => void this.question(e));
    on('turn.limit', (e) => void this.limit(e));
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
    for (const c of this.calls.values()) if (c.timer) clearTimeout(c.timer);
    this.calls.clear();
  }

  private chunk(kind: 'agent_message_chunk' | 'agent_thought_chunk', text: string): void {
    if (text) this.editor.update({ sessionUpdate: kind, content: { type: 'text', text } });
  }

  private send(callId: string, u: Omit<acp.ToolCallUpdate, 'toolCallId'>): void {
    this.editor.update({ sessionUpdate: 'tool_call_update', toolCallId: callId, ...u });
  }

  /** The model asked for a call: the editor hears of it at once, pending. */
  private called(turnId: number, c: { id: string; name: string; args: Record<string, unknown> }): void {
    const id = acpId(turnId, c.id);
    this.calls.set(id, { name: c.name, args: c.args, output: '', timer: null });
    const where = locations(c.args, this.cwd, resolveIn);
    this.editor.update(pendingCall({ ...c, id }, headingOf(c.name, c.args), where, builtinTool(c.name)?.kind));
  }

  /** The call a tool event names, with the id the editor knows it by. */
  private callOf(e: { turnId: number; callId?: string }): [string, CallState] | null {
    if (!e.callId) return null;
    const id = acpId(e.turnId, e.callId);
    const call = this.calls.get(id);
    return call ? [id, call] : null;
  }

  private started(e: Events['tool.started']): void {
    const found = this.callOf(e);
    if (!found) return;
    const [id, call] = found;
    if (!e.declined && EDITS.has(call.name) && typeof call.args.path === 'string') {
      const file = resolveIn(this.cwd, call.args.path);
      this.held.read.delete(file);
      this.held.written.delete(file);
      call.before = textIn(this.cwd, file);
    }
    if (e.command && !e.declined) this.command = id;
    this.send(id, { status: e.declined ? 'failed' : 'in_progress', title: titleOf(e.detail) });
  }

  /** The running command was started in the editor's terminal `terminalId`: its call shows that terminal. */
  inTerminal(terminalId: string): void {
    const call = this.command ? this.calls.get(this.command) : undefined;
    if (!this.command || !call) return;
    call.terminal = terminalId;
    this.send(this.command, { content: [{ type: 'terminal', terminalId }] });
  }

  private output(e: Events['tool.output']): void {
    const found = this.callOf(e);
    if (!found) return;
    const [id, call] = found;
    call.output = keptOutput(call.output, e.text, MAX_OUTPUT);
    call.timer ??= setTimeout(() => {
      call.timer = null;
      this.send(id, { content: [contentOf(call.output)] });
    }, OUTPUT_EVERY_MS);
  }

  private finished(e: Events['tool.finished']): void {
    const found = this.callOf(e);
    if (!found) return;
    const [id, call] = found;
    if (call.timer) clearTimeout(call.timer);
    if (this.command === id) this.command = null;
    const content: acp.ToolCallContent[] = call.terminal ? [{ type: 'terminal', terminalId: call.terminal }] : [];
    if (call.output) content.push(contentOf(call.output));
    const diff = e.ok ? this.diffOf(call) : null;
    if (diff) content.push(diff);
    const title = e.head ? titleOf(e.head) : undefined;
    this.send(id, {
      status: e.ok ? 'completed' : 'failed',
      ...(title ? { title } : {}),
      ...(content.length ? { content } : {}),
      ...(e.status ? { rawOutput: { status: e.status } } : {}),
    });
    this.calls.delete(id);
  }

  /** An edit that ran, as the file's whole text before and after (what an editor shows as a diff). */
  private diffOf(call: CallState): acp.ToolCallContent | null {
    if (call.before === undefined || typeof call.args.path !== 'string') return null;
    const file = resolveIn(this.cwd, call.args.path);
    // Through the editor's files: its buffer as the tool read it, and what the tool wrote there.
    const after = this.held.written.get(file) ?? textIn(this.cwd, file);
    if (typeof after !== 'string') return null;
    return { type: 'diff', path: file, oldText: this.held.read.get(file) ?? call.before, newText: after };
  }

  /** A call's question, put to the editor with milk's answers as its options (acp/updates.ts). */
  private async approve(e: Events['approval.asked']): Promise<void> {
    const options = permissionOptions({ tool: e.tool, rule: e.rule, sandboxed: e.sandboxed });
    const found = this.callOf(e);
    // The whole call as milk shows it (a change's diff, a long command), where it is more than its title.
    const shown = e.unsandboxed ? `${e.detail}\n\nno sandbox: ${e.unsandboxed}` : e.detail;
    const toolCall: acp.ToolCallUpdate = {
      toolCallId: found ? found[0] : `ask-${e.requestId}`,
      title: titleOf(e.detail),
      kind: toolKind(e.tool, builtinTool(e.tool)?.kind),
      status: 'pending',
      ...(shown.includes('\n') ? { content: [contentOf(shown)] } : {}),
      ...(found ? { rawInput: found[1].args } : {}),
    };
    const outcome = await this.editor.permission(toolCall, options).catch(() => ({ outcome: 'cancelled' as const }));
    this.bus.emit('approval.answered', { requestId: e.requestId, approval: answerOf(outcome, options) });
  }

  /** ask_user's question or propose_plan's plan: its options as the editor's choices (no answer of one's own here). */
  private async question(e: Events['question.asked']): Promise<void> {
    const options: acp.PermissionOption[] = [
      ...e.options.map((o, i) => ({ optionId: `option-${i}`, name: o, kind: 'allow_once' as const })),
      { optionId: 'dismiss', name: 'Dismiss', kind: 'reject_once' },
    ];
    const toolCall: acp.ToolCallUpdate = {
      toolCallId: `question-${e.requestId}`,
      title: e.question,
      kind: e.plan ? 'switch_mode' : 'think',
      status: 'pending',
      ...(e.plan ? { content: [contentOf(e.plan)] } : {}),
    };
    const outcome = await this.editor.permission(toolCall, options).catch(() => ({ outcome: 'cancelled' as const }));
    const index = outcome.outcome === 'selected' ? Number(/^option-(\d+)$/.exec(outcome.optionId)?.[1] ?? -1) : -1;
    this.bus.emit('question.answered', {
      requestId: e.requestId,
      answer: index >= 0 && index < e.options.length ? { kind: 'option', index } : { kind: 'dismissed' },
    });
  }

  /** The turn made as many requests as config `maxSteps` allows at a time: whether it goes on. */
  private async limit(e: Events['turn.limit']): Promise<void> {
    const toolCall: acp.ToolCallUpdate = {
      toolCallId: `limit-${e.turnId}-${e.steps}`,
      title: `${e.steps} model requests in this turn: go on?`,
      kind: 'think',
      status: 'pending',
    };
    const outcome = await this.editor
      .permission(toolCall, [
        { optionId: 'go-on', name: 'Go on', kind: 'allow_once' },
        { optionId: 'stop', name: 'Stop here', kind: 'reject_once' },
      ])
      .catch(() => ({ outcome: 'cancelled' as const }));
    const goOn = outcome.outcome === 'selected' && outcome.optionId === 'go-on';
    if (!goOn) this.limited = true;
    this.bus.emit('turn.limitAnswered', { turnId: e.turnId, goOn });
  }
}

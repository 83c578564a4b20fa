// A subagent's run (the task tool): a conversation of its own with a fresh
// context — its system prompt, the task as its first message, only its tools —
// on the same provider, under the same approval mode, rules and sandbox, inside
// the turn that called it (cancelling that turn stops it). Its text never
// reaches the transcript as an answer: each of its tool calls is a line under
// the task's call, and its final answer is the call's result. What its
// requests cost is counted as the turn's.

import { Bus } from '../kernel/bus';
import type { Provider } from '../providers/provider';
import type { ChatMessage } from '../protocol/messages';
import type { Settings } from '../settings/store';
import type { CallTurn, ToolResult } from '../tools/tool';
import type { TaskRequest, TaskRunner } from '../tools/builtin/task';
import type { ToolRegistry } from '../tools/registry';
import { shell } from '../tools/builtin/shell';
import { type AgentSpec, EXPLORE, readsOnly, subagentSystem } from '../agent/subagents';
import { StepOptions, partialMessage, stepMessage, streamStep } from './step';
import { Show, ToolCalls, ToolCallsOptions } from './calls/tool-calls';
import { type ActiveTurn, emptyStep } from './turn';

export interface SubagentOptions {
  readonly bus: Bus;
  readonly provider: Provider;
  readonly settings: Settings;
  /** Every tool there is; each subagent gets the ones its spec names. (Asked for: the tools are made with these.) */
  readonly registry: () => ToolRegistry;
  /** How calls are checked, asked about and run (the turn's own, without the subagents). */
  readonly calls: Omit<ToolCallsOptions, 'registry'>;
  /** The subagents there are (milk's and the files'). */
  readonly agents: () => readonly AgentSpec[];
  /** Where it works and when, for its system prompt. */
  readonly where: () => string;
  readonly maxSteps: number;
  readonly step: Pick<StepOptions, 'maxShown' | 'maxKept'>;
}

const SUBAGENT_SHELL = shell(null, 'background commands are not available to subagents');

export class Subagents implements TaskRunner {
  constructor(private readonly o: SubagentOptions) {}

  /** The subagent a call names (`explore` when none), or null for a name there is none of. */
  find(name: string | undefined): AgentSpec | null {
    const wanted = name?.trim() || EXPLORE.name;
    return this.o.agents().find((a) => a.name === wanted) ?? null;
  }

  readsOnly(name: string | undefined): boolean {
    const agent = this.find(name);
    return agent !== null && readsOnly(agent, (t) => this.o.registry().find(t)?.kind);
  }

  async run(parent: CallTurn, req: TaskRequest, line: (text: string) => void): Promise<ToolResult> {
    const agent = this.find(req.agent);
    if (!agent) {
      const names = this.o.agents().map((a) => a.name);
      return { ok: false, content: `error: there is no subagent named ${req.agent}; there are: ${names.join(', ')}` };
    }
    const turn = childTurn(parent);
    turn.system = subagentSystem(agent, this.o.where());
    // Nothing a subagent starts outlives its task: its shell runs no command in the background.
    const registry = this.o.registry().subset(agent.tools).replacing(SUBAGENT_SHELL);
    const calls = new ToolCalls({ ...this.o.calls, registry });
    // Its words go nowhere but into its own conversation; what its requests cost is the turn's.
    const quiet = new Bus();
    quiet.on('turn.usage', (u) => this.o.bus.emit('turn.usage', { ...u, turnId: parent.id }));
    const step: StepOptions = { ...this.o.step, bus: quiet, provider: this.o.provider };
    const messages: ChatMessage[] = [{ role: 'user', content: req.prompt }];
    const model = agent.model ?? this.o.settings.model ?? undefined;
    try {
      for (let n = 1; n <= this.o.maxSteps; n++) {
        const asked = await streamStep(step, turn, {
          messages,
          tools: registry.specs(),
          model,
          onUsage: () => {},
        });
        if (turn.cancelled) return stopped();
        messages.push(stepMessage(turn, asked));
        if (asked.length === 0) return answered(messages, line, n);
        for (const call of asked) {
          const answer = await calls.answer(turn, call, lineFor(line));
          if (answer === null || turn.cancelled) return stopped();
          messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: answer.content });
        }
      }
      return {
        ok: false,
        content: `error: the subagent stopped after ${this.o.maxSteps} model requests without an answer`,
      };
    } catch (err) {
      if (turn.cancelled) return stopped();
      const kept = turn.step.text ? partialMessage(turn).content : '';
      return { ok: false, content: `error: the subagent failed: ${(err as Error).message}${kept ? `\n${kept}` : ''}` };
    } finally {
      turn.controller.abort();
    }
  }
}

/** A turn of its own inside `parent`: the same id (its approvals and file copies are the turn's), stopped with it. */
function childTurn(parent: CallTurn): ActiveTurn {
  const turn: ActiveTurn = {
    id: parent.id,
    seq: parent.seq,
    controller: new AbortController(),
    promise: null,
    cancelled: parent.cancelled,
    step: emptyStep(),
    shown: 0,
    unanswered: [],
  };
  const stop = (): void => {
    turn.cancelled = true;
    turn.controller.abort();
  };
  if (parent.controller.signal.aborted) stop();
  else parent.controller.signal.addEventListener('abort', stop, { once: true });
  turn.controller.signal.addEventListener('abort', () => parent.controller.signal.removeEventListener('abort', stop), {
    once: true,
  });
  return turn;
}

/** Its tool calls as lines under the task: each once it has ended (declined or refused ones too). */
function lineFor(line: (text: string) => void): Show {
  let summary = '';
  return (name, payload) => {
    if (name === 'tool.started') {
      const p = payload as { summary: string; declined: boolean };
      summary = p.summary;
      if (p.declined) line(`  ${summary} · declined\n`);
    } else if (name === 'tool.finished') {
      const p = payload as { ok: boolean; status?: string; head?: string };
      const said = p.status ? ` · ${p.status}` : '';
      line(p.ok && p.head ? `  ${p.head}${said}\n` : `  ${summary} · ${p.ok ? 'done' : 'failed'}${said}\n`);
    }
  };
}

function answered(messages: readonly ChatMessage[], line: (text: string) => void, requests: number): ToolResult {
  const last = messages[messages.length - 1];
  const text = last.role === 'assistant' ? last.content.trim() : '';
  // Its answer under its calls, for the person (folded when long, as a command's output is).
  line(`  answered after ${requests} request${requests === 1 ? '' : 's'}:\n${text}\n`);
  return text
    ? { ok: true, content: text, status: `${requests} request${requests === 1 ? '' : 's'}` }
    : { ok: false, content: 'error: the subagent ended without an answer' };
}

function stopped(): ToolResult {
  return { ok: false, content: 'not finished: the turn was stopped' };
}

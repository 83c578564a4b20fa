// A runner's tools, made with their capabilities: the checklist's sink and the background commands (app/agent.ts's,
// else the runner's own), the subagents the task tool hands work to and the person the model's questions go to
// (through the questions channel). With a workspace, where tools run, their calls too: asked about through the
// approvals channel; a subagent's run the same way.

import type { Bus } from '../kernel/bus';
import { Settings } from '../settings/store';
import type { Provider } from '../providers/provider';
import type { TodoItem } from '../protocol/checklist';
import { type RunnerCapabilities, ToolRegistry, builtinTools } from '../tools/registry';
import type { Person } from '../tools/builtin/ask-user';
import { Approvals, Questions } from './approvals';
import { type StepOptions } from './step';
import { ToolCalls } from './calls/tool-calls';
import { askPerson } from './calls/confirm';
import { Subagents } from './subagent';
import { EXPLORE } from '../agent/subagents';
import { commandModule } from '../tools/lazy-command';
import type { RunnerOptions } from './runner-options';
import { DEFAULT_MAX_STEPS } from './step-limit';

type Options = RunnerOptions & { settings: Settings; step: StepOptions };

/** The tools offered, and their calls (null without a workspace: no tool runs). */
export function withTools(
  bus: Bus,
  provider: Provider,
  o: Options,
): { registry: ToolRegistry; calls: ToolCalls | null } {
  const workspace = o.workspace;
  const person = o.unattended || !workspace ? null : personOn(bus);
  if (!workspace) return { registry: toolsOf(bus, o, { subagents: null, person }), calls: null };
  const { settings } = o;
  const calls = {
    ...o,
    workspace,
    bus,
    settings,
    approvals: new Approvals(bus),
    probeSandbox: () => commandModule().probeSandbox(),
  };
  // The subagents are given the tools, which are made with the subagents: they ask for them when a task runs.
  const subagents = new Subagents({
    bus,
    provider,
    settings,
    registry: () => registry,
    calls,
    agents: o.agents ?? (() => [EXPLORE]),
    where: o.where ?? (() => `Working directory (the workspace): ${workspace}`),
    maxSteps: o.maxSteps ?? DEFAULT_MAX_STEPS,
    step: o.step,
  });
  const registry = toolsOf(bus, o, { subagents, person });
  return { registry, calls: new ToolCalls({ ...calls, registry }) };
}

/** The person, asked through the questions channel. */
function personOn(bus: Bus): Person {
  const questions = new Questions(bus);
  return { ask: (turn, q) => askPerson(questions, turn, q) };
}

/**
 * The tools, made as app/ makes them; a runner on its own (milk's tests, the bench) gives them what app/ does: the
 * checklist on the bus, the background commands it was given, if any.
 */
function toolsOf(bus: Bus, o: Options, own: RunnerCapabilities): ToolRegistry {
  if (o.tools) return o.tools(own);
  const checklist = { show: (items: readonly TodoItem[]) => bus.emit('checklist.changed', { items }) };
  return new ToolRegistry(builtinTools({ checklist, background: o.background ?? null, ...own }));
}

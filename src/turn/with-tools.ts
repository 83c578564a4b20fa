// A runner with a workspace, where tools run: its tool calls (asked about through the approvals channel, the model's
// questions through the questions channel) and the subagents the task tool hands work to, which run their own calls
// the same way.

import type { Bus } from '../kernel/bus';
import { Settings } from '../settings/store';
import type { Provider } from '../providers/provider';
import { ToolRegistry } from '../tools/registry';
import { Approvals, Questions } from './approvals';
import { type StepOptions } from './step';
import { ToolCalls } from './calls/tool-calls';
import { Subagents } from './subagent';
import { EXPLORE } from '../agent/subagents';
import { commandModule } from '../tools/lazy-command';
import type { RunnerOptions } from './runner-options';
import { DEFAULT_MAX_STEPS } from './step-limit';

/** The tool calls and the subagents of a runner with a workspace, where tools run. */
export function withTools(
  bus: Bus,
  provider: Provider,
  o: RunnerOptions & { settings: Settings; registry: ToolRegistry; step: StepOptions },
): { calls: ToolCalls; subagents: Subagents } {
  const workspace = o.workspace as string;
  const { settings, registry } = o;
  const calls = {
    ...o,
    workspace,
    bus,
    settings,
    approvals: new Approvals(bus),
    probeSandbox: () => commandModule().probeSandbox(),
  };
  const subagents = new Subagents({
    bus,
    provider,
    settings,
    registry,
    calls,
    agents: o.agents ?? (() => [EXPLORE]),
    where: o.where ?? (() => `Working directory (the workspace): ${workspace}`),
    maxSteps: o.maxSteps ?? DEFAULT_MAX_STEPS,
    step: o.step,
  });
  return { calls: new ToolCalls({ ...calls, questions: new Questions(bus), subagents }), subagents };
}

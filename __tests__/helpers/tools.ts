// A tool call run as the engine runs it, without the engine: its tool found
// in the registry, its arguments checked against the schema, then run.
import type { ToolCall } from '../../src/protocol/tools';
import type { ToolContext, ToolResult } from '../../src/tools/tool';
import { ToolRegistry, builtinTools, prepare, runTool } from '../../src/tools/registry';
import type { TodoItem } from '../../src/protocol/checklist';

/** The checklists the todo tool was given to show, newest last. */
export const shownChecklists: TodoItem[][] = [];

/** milk's own tools as app/ makes them (a search service configured), the checklist kept in `shownChecklists`. */
export const TOOLS = builtinTools({
  checklist: { show: (items) => void shownChecklists.push([...items]) },
  background: null,
  subagents: null,
  person: null,
  search: { service: 'searxng', url: 'http://127.0.0.1:9/' },
});

export type CallContext = Partial<Omit<ToolContext, 'workspace'>> & { workspace: string; signal: AbortSignal };

/** The result of `call` (an argument error as the model would be told it). */
export async function callTool(call: Omit<ToolCall, 'id'> & { id?: string }, ctx: CallContext): Promise<ToolResult> {
  const prepared = prepare(new ToolRegistry(TOOLS).find(call.name), { id: call.id ?? 'c', ...call });
  if (!prepared.ok) return { ok: false, content: `error: ${prepared.why}`, status: 'invalid arguments' };
  const { signal, ...rest } = ctx;
  return runTool(prepared.tool, prepared.args, { sandbox: null, onOutput: () => undefined, ...rest }, signal);
}

// The one table of tools: milk's own (one file each in builtin/) and whatever
// else is offered beside them (an MCP server's, adapted in mcp-tools.ts). A
// call is found here by name and its arguments checked against the schema the
// model was told (validate.ts, loaded at the first call) before anyone is
// asked about it or it runs. Adding a tool is its file and one line below.

import type { ToolCall, ToolSpec } from '../protocol/tools';
import type { AnyTool, ToolContext, ToolInfo, ToolResult } from './tool';
import { shell } from './builtin/shell';
import { readFile } from './builtin/read-file';
import { glob } from './builtin/glob';
import { grep } from './builtin/grep';
import { editFile } from './builtin/edit-file';
import { writeFile } from './builtin/write-file';
import { type Checklist, todo } from './builtin/todo';
import type { BackgroundShells } from './background';
import { type Person, askUser } from './builtin/ask-user';
import { proposePlan } from './builtin/propose-plan';
import { shellKill, shellOutput } from './builtin/shell-output';
import { type TaskRunner, task } from './builtin/task';
import { webFetch } from './builtin/web-fetch';
import { type SearchService, webSearch } from './builtin/web-search';

/**
 * What the tools that need more than the file system are given when they are made: the checklist's sink and the
 * background commands by app/agent.ts, the subagents and the person by the turn runner that runs the calls.
 */
export interface Capabilities {
  /** Where the checklist the model keeps goes (todo). */
  readonly checklist: Checklist;
  /** The session's background commands (shell's background, shell_output, shell_kill); null: none can start. */
  readonly background: BackgroundShells | null;
  /** Where a task is handed (task); null: no subagents. */
  readonly subagents: TaskRunner | null;
  /** Whom the model's questions and plans are put to (ask_user, propose_plan); null: no one is there (milk run). */
  readonly person: Person | null;
  /** The search service web_search asks (config `webSearch`); null: none configured, and no web_search offered. */
  readonly search?: SearchService | null;
}

/** The capabilities the turn runner gives, as it runs the calls: the rest are the app's. */
export type RunnerCapabilities = Pick<Capabilities, 'subagents' | 'person'>;

/** milk's own tools, their capabilities given, in the order the model is told of them. */
export function builtinTools(capabilities: Capabilities): readonly AnyTool[] {
  return [
    shell(capabilities.background),
    shellOutput(capabilities.background),
    shellKill(capabilities.background),
    readFile,
    glob,
    grep,
    editFile,
    writeFile,
    webFetch,
    ...(capabilities.search ? [webSearch(capabilities.search)] : []),
    todo(capabilities.checklist),
    task(capabilities.subagents),
    askUser(capabilities.person),
    proposePlan(capabilities.person),
  ];
}

/** milk's own tools as what only reads them sees them (names, schemas, subjects, the prompt): none of them runs. */
export const BUILTIN_TOOLS: readonly ToolInfo[] = builtinTools({
  checklist: { show: () => undefined },
  background: null,
  subagents: null,
  person: null,
  search: { service: 'searxng', url: 'http://127.0.0.1/' },
});

/** milk's own tool of that name, as what only reads it sees it; undefined: none (an MCP server's, a log's). */
export function builtinTool(name: string): ToolInfo | undefined {
  return BUILTIN_TOOLS.find((t) => t.name === name);
}

/** The tools only the main conversation has (their own `mainOnly`): a subagent's file may not name them. */
export function mainOnlyTools(): ReadonlySet<string> {
  return new Set(BUILTIN_TOOLS.filter((t) => t.mainOnly).map((t) => t.name));
}

export function specOf(tool: ToolInfo): ToolSpec {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}

export class ToolRegistry {
  /**
   * `extra`: tools offered beside milk's own, asked for each time (MCP servers come and go); `only`: the names offered,
   * when not all (a subagent's tools).
   */
  constructor(
    /** milk's own, made with their capabilities (builtinTools). */
    private readonly builtin: readonly AnyTool[],
    private readonly extra: () => readonly AnyTool[] = () => [],
    private readonly only: ReadonlySet<string> | null = null,
  ) {}

  all(): AnyTool[] {
    const extra = this.extra();
    const all = extra.length ? [...this.builtin, ...extra] : [...this.builtin];
    return this.only ? all.filter((t) => this.only?.has(t.name)) : all;
  }

  find(name: string): AnyTool | undefined {
    if (this.only && !this.only.has(name)) return undefined;
    return this.builtin.find((t) => t.name === name) ?? this.extra().find((t) => t.name === name);
  }

  /** The same tools, only those named. */
  subset(names: readonly string[]): ToolRegistry {
    return new ToolRegistry(this.builtin, this.extra, new Set(names));
  }

  /** These tools with `tool` in place of milk's own of its name (a subagent's shell: nothing it starts lasts). */
  replacing(tool: AnyTool): ToolRegistry {
    const builtin = this.builtin.map((t) => (t.name === tool.name ? tool : t));
    return new ToolRegistry(builtin, this.extra, this.only);
  }

  /** What the model is told it may call. */
  specs(): ToolSpec[] {
    return this.all().map(specOf);
  }
}

export type Prepared<T extends ToolInfo = AnyTool> =
  | { readonly ok: true; readonly tool: T; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly why: string };

/** The call's tool and its arguments checked, or why it cannot run as sent. */
export function prepare<T extends ToolInfo>(tool: T | undefined, call: ToolCall): Prepared<T> {
  if (!tool) return { ok: false, why: `there is no tool named ${call.name}` };
  if (call.argsError) return { ok: false, why: call.argsError };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { checkArgs } = require('./validate') as typeof import('./validate');
  const checked = checkArgs(tool.parameters, call.args);
  if (!checked.ok) return checked;
  const wrong = tool.check?.(checked.args) ?? null;
  return wrong === null ? { ok: true, tool, args: checked.args } : { ok: false, why: wrong };
}

/**
 * Runs a prepared call; a tool that throws fails the call with its message, as the model and the transcript are told.
 */
export async function runTool(
  tool: AnyTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  signal: AbortSignal,
): Promise<ToolResult> {
  try {
    return await tool.run(args, ctx, signal);
  } catch (err) {
    const why = (err as Error).message;
    return { ok: false, content: `error: ${why}`, status: why.split('\n')[0].slice(0, 120) };
  }
}

/**
 * What a logged call is judged by, for a replayed transcript: its tool's
 * subject when its arguments fit the tool, else its arguments as sent (a
 * tool milk does not have, a call that was refused, a log of another shape).
 */
export function loggedSubject(call: ToolCall): string {
  const prepared = prepare(builtinTool(call.name), call);
  if (prepared.ok) return prepared.tool.subject(prepared.args);
  return Object.keys(call.args).length ? JSON.stringify(call.args) : '';
}

// What a tool is: one object holding everything milk knows of it — its name,
// what the model is told, the schema its arguments are checked against, what
// it does for approval, how a call is shown to the person, and how it runs.
// Each of milk's tools is one file in tools/builtin/ built with defineTool;
// an MCP server's tools are adapted into the same shape (tools/mcp-tools.ts);
// tools/registry.ts lists them.

import type { ToolKind } from '../protocol/approvals';
import type { Schema } from './schema';
import type { ImagePart } from '../protocol/images';

export interface ToolResult {
  /** What the model gets back. */
  readonly content: string;
  readonly ok: boolean;
  /** In a few words, for the call's block in the transcript: "exit 0", "12 files". */
  readonly status?: string;
  /** Images for the model (read_file on an image), sent as each protocol carries them. */
  readonly images?: readonly ImagePart[];
}

/**
 * What a call would do, shown before anyone is asked about it (a diff; what an MCP server claims); or why it fails as
 * sent (`fails`: what running it would tell the model), when no one should be asked at all.
 */
export type Preview = string | { readonly fails: string };

/**
 * Told of each file a tool is about to change and has changed (real paths): rewind's copies (session/checkpoints.ts).
 */
export interface WriteHooks {
  before(file: string): Promise<void>;
  after(file: string): Promise<void>;
}

/**
 * The editor's copy of the files (`milk acp`, where the editor offers it): a read sees its unsaved buffer, a write
 * lands in it. Asked only after milk's own confinement: the paths are real and checked.
 */
export interface EditorFiles {
  read?(file: string): Promise<string>;
  write?(file: string, text: string): Promise<void>;
}

/** How a command ended in the editor's terminal, with what it printed (as the editor kept it). */
export interface TerminalRun {
  readonly output: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
}

/**
 * The editor's terminal (`milk acp`, where the editor offers one): a command's argv, built by milk as it would run it,
 * run there; killed when `abort` fires or after `timeout` ms.
 */
export interface EditorTerminal {
  run(
    argv: readonly string[],
    o: { cwd: string; abort: AbortSignal; timeout?: number; maxChars: number },
  ): Promise<TerminalRun>;
}

/** What an editor milk runs behind lends the tools (`milk acp`): its files, its terminal, as far as it offers them. */
export interface EditorParts {
  readonly files?: EditorFiles;
  readonly terminal?: EditorTerminal;
}

/**
 * Where a call's paths may lead besides the workspace (`also`: the directories added with --add-dir or /add-dir), and
 * the places no tool may reach wherever they lie (`hidden`: milk's data dir, what deny rules name).
 */
export interface Bounds {
  readonly hidden?: readonly string[];
  /** What the person's path deny rules name, found as the call is about to run. */
  readonly denied?: readonly string[];
  readonly also?: readonly string[];
  /** Folders the file tools may read and search but never write: a skill's, once it is used (agent/skills.ts). */
  readonly readOnly?: readonly string[];
}

/**
 * A turn as a capability acting within it sees it: its id (what a question is asked under), its number for the file
 * copies, and its cancel (which stops what the capability started for it).
 */
export interface CallTurn {
  readonly id: number;
  readonly seq: number;
  readonly controller: AbortController;
  readonly cancelled: boolean;
}

/** What the turn's rules and the person say of a host web_fetch reaches (tools/web-fetch.ts asks at every hop). */
export interface WebJudge {
  /** Why a deny rule stops `host` (canonical), whose addresses are `addresses`; null when none does. */
  denied(host: string, addresses: readonly string[]): Promise<string | null>;
  /** Whether an allow rule names `host` itself: only then, or after the person's yes, is a private address fetched. */
  named(host: string): boolean;
  /** Whether the person said yes to this call (they saw its URL). */
  readonly asked: boolean;
  /**
   * A redirect to a host the call's approval did not cover, judged as a new call (rules, mode, then the person):
   * 'asked' after the person's yes, 'ruled' when the rules or mode let it go, else why not.
   */
  another(url: string, host: string): Promise<'asked' | 'ruled' | { why: string }>;
}

export interface ToolContext {
  readonly workspace: string;
  /** How a command is confined: in bubblewrap (tools/sandbox.ts), or null for none. */
  readonly sandbox: {
    readonly network: boolean;
    readonly hide: readonly string[];
    /** The workspace files hooks and MCP servers name (real paths): bound read-only, with their folders. */
    readonly controls?: readonly string[];
  } | null;
  /**
   * The person's own command (`!`), run as typed: with no sandbox it gets no process namespace either (sudo works);
   * the model's get one where bubblewrap can start, so that nothing they start outlives their kill.
   */
  readonly person?: boolean;
  /** Places no tool may read, list, search or write, wherever they lie (milk's data dir): real paths. */
  readonly hidden?: readonly string[];
  /** Likewise, what the person's path deny rules name (found as the call is about to run). */
  readonly deniedPlaces?: readonly string[];
  /** Directories the person added to the workspace (--add-dir, /add-dir): the file tools reach them too. */
  readonly also?: readonly string[];
  /** Folders the file tools may read but not write: the skills used so far (even inside milk's data dir). */
  readonly readOnly?: readonly string[];
  readonly writes?: WriteHooks;
  /** The editor's files, where milk runs behind one that offers them (app/acp-session.ts). */
  readonly editor?: EditorFiles;
  /** The editor's terminal, where a sandboxed command is shown running (app/acp-session.ts). */
  readonly terminal?: EditorTerminal;
  /** How web_fetch's hosts are judged as it runs: the first one again by address, and each redirect's. */
  readonly web?: WebJudge;
  /** Output as it arrives, for the transcript (a command's; other tools' results are shown when they end). */
  readonly onOutput: (text: string) => void;
  readonly killGraceMs?: number;
  /** The turn the call is part of, for a capability that acts within it (a question, a task); absent outside one. */
  readonly turn?: CallTurn;
}

export interface Tool<A = Record<string, unknown>> {
  readonly name: string;
  /** What the model is told the tool does and when to use it. */
  readonly description: string;
  /** The JSON Schema the model sees, from which the arguments' validator is made. */
  readonly parameters: Schema<A>;
  readonly kind: ToolKind;
  /**
   * Only the main conversation has it (the checklist, a question to the person, a task, the background shells): a
   * subagent's file that names it is refused.
   */
  readonly mainOnly?: boolean;
  /** A line of the system prompt's tools part, there while it is offered: when to reach for it. */
  readonly guidance?: string;
  /**
   * Whether this call may run at the same time as the calls beside it in one answer for which this is true too (a
   * task for a subagent that only reads); absent: one at a time.
   */
  alongside?(args: A): boolean;
  /** Its output is shown as it comes (a command's), as a replay shows it too; absent: its result once it ends. */
  readonly streams?: boolean;
  /** It runs in the sandbox (when there is one): its question may let it reach the network. */
  readonly sandboxed?: boolean;
  /** Calls the schema must accept (a test checks each), and a reader may learn from. */
  readonly examples: readonly A[];
  /**
   * A check the schema cannot say (edit_file: `edits`, or `old_string` and `new_string`); why the arguments are wrong,
   * or null.
   */
  check?(args: A): string | null;
  /**
   * The argument a person judges a call by (the command, the path and the
   * lines…), as it is: visible.ts shows what could hide something in it.
   */
  subject(args: A): string;
  /**
   * Its block in the transcript is headed in words of its kind: this verb before the call ends and once it has
   * (`Edit`, `Edited`), then its subject, then what came of it (the result's `status`). Absent (an MCP server's
   * tool): its name and subject, then "done" or "failed".
   */
  readonly verbs?: readonly [asked: string, done: string];
  /** The text an approval rule's prefix is matched against (a command); absent: rules cover the whole tool. */
  ruleText?(args: A): string;
  /** The workspace paths the call names, as given (a path deny rule stops it): read_file's file, grep's folder. */
  paths?(args: A): string[];
  /** The change it would make, shown before it is approved (or why it fails as sent); absent: nothing to show. */
  preview?(args: A, workspace: string, bounds?: Bounds): Promise<Preview>;
  /**
   * The change it would make to an existing text file, whole, and as hunks the person may take one by one (edit_file,
   * write_file); null: none to take apart.
   */
  change?(args: A, workspace: string, bounds?: Bounds): Promise<FileChange | null>;
  /**
   * Why this call is put to the person whatever the mode, an "always" answer or a rule say (it changes a control
   * file: one git runs code from, one in .milk/, or one of `named`, the workspace files hooks and MCP servers name, as
   * real paths); null when nothing in it needs that.
   */
  guard?(args: A, workspace: string, named: readonly string[]): Promise<string | null>;
  run(args: A, ctx: ToolContext, signal: AbortSignal): Promise<ToolResult>;
}

/** A change to an existing file: the path as the call names it, its text before and after, and the hunks. */
export interface FileChange {
  readonly path: string;
  readonly before: string;
  readonly after: string;
  readonly hunks: readonly import('./hunks').Hunk[];
}

/** Everything a search leaves out: milk's data dir and what deny rules name. */
export function unreachable(ctx: ToolContext): string[] {
  return [...(ctx.hidden ?? []), ...(ctx.deniedPlaces ?? [])];
}

/** A call's bounds, from its context. */
export function boundsOf(ctx: ToolContext): Bounds {
  return { hidden: ctx.hidden, denied: ctx.deniedPlaces, also: ctx.also, readOnly: ctx.readOnly };
}

/** What a tool is to what only reads it (its name, schema, subject, what the prompt says of it): never run. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolInfo = Omit<Tool<any>, 'run'>;

/** Any tool, whatever its arguments. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;

/** A tool with its arguments typed by its schema. */
export function defineTool<A>(tool: Tool<A>): Tool<A> {
  return tool;
}

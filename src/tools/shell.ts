// The tools a model may call: `shell` (a command in the workspace, output
// streamed and bounded), `read_file` and `write_file` (confined to the
// workspace, see files.ts). A shell command runs in its own process
// group so that a cancel can stop it and everything in that group: TERM, then
// KILL after a grace period; at exit every group still alive gets KILL.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { WriteHooks, editFileTool, editsOf, readFileTool, writeFileTool } from './files';
import type { ToolCall } from '../providers/provider';
import { toolEnv } from './env';
import { bwrapArgs } from './sandbox';
import { GrepArgs, globTool, grepTool } from './search';

/** The preview an approval shows for write_file, loaded with the tools. */
export { editsOf, previewEdit, previewWrite } from './files';
export { probeSandbox } from './bwrap';

/** What the model gets back from one command, at most. */
export const MAX_RESULT_CHARS = 64 * 1024;
/** What the transcript shows of one command, at most. */
export const MAX_SHOWN_CHARS = 256 * 1024;
export const KILL_GRACE_MS = 2000;

/** Process groups of commands still running (their leaders' pids). */
const liveGroups = new Set<number>();

/** A whole-number argument the model gave, or undefined (absent, or not a number). */
function numberArg(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Kills every tool process group still alive, at once: milk is exiting and a
 * command that ignores TERM must not outlive it. Synchronous, for cleanup.
 */
export function killAllTools(): void {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
  liveGroups.clear();
}

export interface ToolContext {
  workspace: string;
  /** Told of the files write_file and edit_file change, before and after (rewind's copies). */
  writes?: WriteHooks;
  /** How a command is confined: in bubblewrap (tools/sandbox.ts), or null for none. */
  sandbox?: { network: boolean; hide: readonly string[] } | null;
  signal: AbortSignal;
  /** Output as it arrives, for the transcript. */
  onOutput: (text: string) => void;
  killGraceMs?: number;
}

export interface ToolResult {
  /** What the model gets back. */
  content: string;
  ok: boolean;
  /** How a command ended, for its block in the transcript: "exit 0", "killed by SIGTERM". */
  status?: string;
}

export async function runTool(call: ToolCall, ctx: ToolContext): Promise<ToolResult> {
  try {
    switch (call.name) {
      case 'shell':
        return await runShell(String(call.args.command ?? ''), ctx, timeoutMs(call.args.timeout));
      case 'read_file':
        return { ok: true, content: await readFileTool(ctx.workspace, String(call.args.path ?? ''), { offset: numberArg(call.args.offset), limit: numberArg(call.args.limit) }) };
      case 'edit_file':
        return { ok: true, content: await editFileTool(ctx.workspace, String(call.args.path ?? ''), editsOf(call.args), ctx.writes) };
      case 'glob': {
        const found = await globTool(ctx.workspace, { pattern: String(call.args.pattern ?? ''), path: optionalString(call.args.path) }, ctx.signal);
        return { ok: true, content: found.text, status: found.summary };
      }
      case 'grep': {
        const found = await grepTool(ctx.workspace, grepArgs(call.args), ctx.signal);
        return { ok: true, content: found.text, status: found.summary };
      }
      case 'write_file': {
        const file = await writeFileTool(ctx.workspace, String(call.args.path ?? ''), String(call.args.content ?? ''), ctx.writes);
        return { ok: true, content: `wrote ${file}` };
      }
      default:
        return { ok: false, content: `unknown tool ${call.name}`, status: `unknown tool ${call.name}` };
    }
  } catch (err) {
    // The transcript's block says why too, as the model is told.
    const why = (err as Error).message;
    return { ok: false, content: `error: ${why}`, status: why.split('\n')[0].slice(0, 120) };
  }
}

function optionalString(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function grepArgs(a: Record<string, unknown>): GrepArgs {
  return {
    pattern: String(a.pattern ?? ''),
    path: optionalString(a.path),
    glob: optionalString(a.glob),
    context: numberArg(a.context),
    ignoreCase: a.ignore_case === true,
    output: a.output === 'files' || a.output === 'count' ? a.output : 'content',
  };
}

/** The longest `timeout` a command may ask for, in seconds. */
export const MAX_TIMEOUT_S = 3600;

/** A shell call's `timeout` (seconds) in milliseconds, within bounds; undefined for none. */
function timeoutMs(v: unknown): number | undefined {
  const s = numberArg(v);
  return s === undefined || s <= 0 ? undefined : Math.min(s, MAX_TIMEOUT_S) * 1000;
}

/** What the model gets of a finished command: its output (capped) and how it ended. */
function shellResult(result: string, timedOutAfter: number | null, code: number | null, signal: NodeJS.Signals | null): ToolResult {
  const more = result.length >= MAX_RESULT_CHARS ? '\n[output truncated]' : '';
  if (timedOutAfter !== null) {
    const after = `timed out after ${timedOutAfter / 1000} s`;
    return { ok: false, content: `${result}${more}\n[${after}: the command was stopped]`, status: after };
  }
  return {
    ok: code === 0,
    content: `${result}${more}\n[${signal ? `killed by ${signal}` : `exit code ${code}`}]`,
    status: signal ? `killed by ${signal}` : `exit ${code}`,
  };
}

function runShell(command: string, ctx: ToolContext, timeout?: number): Promise<ToolResult> {
  return new Promise((resolve) => {
    if (!command.trim()) return resolve({ ok: false, content: 'error: empty command' });
    // detached: the command (or bwrap around it) leads its own process group, which a cancel kills whole.
    const [bin, args] = ctx.sandbox
      ? ['bwrap', bwrapArgs({ workspace: ctx.workspace, network: ctx.sandbox.network, hide: ctx.sandbox.hide.filter((d) => fs.existsSync(d)) }, command)]
      : ['/bin/sh', ['-c', command]];
    const child = spawn(bin, args, { cwd: ctx.workspace, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: toolEnv(process.env) });
    const group = child.pid;
    if (group) liveGroups.add(group);
    let result = '';
    let shown = 0;
    let truncated = false;
    const take = (text: string): void => {
      if (result.length < MAX_RESULT_CHARS) result += text.slice(0, MAX_RESULT_CHARS - result.length);
      if (shown < MAX_SHOWN_CHARS) {
        const part = text.slice(0, MAX_SHOWN_CHARS - shown);
        shown += part.length;
        ctx.onOutput(part);
      } else if (!truncated) {
        truncated = true;
        ctx.onOutput('\n[output truncated]\n');
      }
    };
    // String decoders keep a character split between two chunks whole; invalid bytes become U+FFFD.
    const out = new StringDecoder('utf8');
    const err = new StringDecoder('utf8');
    child.stdout.on('data', (d: Buffer) => take(out.write(d)));
    child.stderr.on('data', (d: Buffer) => take(err.write(d)));
    const killGroup = (signal: NodeJS.Signals): void => {
      if (group) signalGroup(group, signal);
    };
    let killTimer: NodeJS.Timeout | null = null;
    const onAbort = (): void => {
      killGroup('SIGTERM');
      killTimer = setTimeout(() => {
        killGroup('SIGKILL');
        if (group) liveGroups.delete(group);
      }, ctx.killGraceMs ?? KILL_GRACE_MS);
      killTimer.unref();
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = timeout === undefined ? null : setTimeout(() => {
      timedOut = true;
      onAbort();
    }, timeout);
    timer?.unref();
    child.on('error', (err) => resolve({ ok: false, content: `error: ${err.message}` }));
    child.on('close', (code, signal) => {
      take(out.end() + err.end());
      if (timer) clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      // Whatever the command left running in its group goes with it.
      if (!ctx.signal.aborted) {
        killGroup('SIGKILL');
        if (group) liveGroups.delete(group);
      }
      resolve(shellResult(result, timedOut ? timeout ?? null : null, code, signal));
    });
  });
}

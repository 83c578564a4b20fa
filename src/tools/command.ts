// A command in the workspace, for the shell tool and the person's own `!`
// commands: output streamed and bounded, in its own process group so that a
// cancel or its timeout stops it and everything in that group (TERM, then
// KILL after a grace period); at exit every group still alive gets KILL (kernel/groups.ts).

import { withheldVariables } from '../kernel/credentials';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import type { ToolContext, ToolResult } from './tool';
import { toolEnv } from './env';
import { bwrapArgs, pidBoxArgs } from './sandbox';
import { unixSocketFilter } from './seccomp';
import { gitPlaces, milkPlaces, socketPlaces } from './sandbox-places';
import { pushAll } from '../kernel/arrays';
import { holdGroup, releaseGroup, signalGroup } from '../kernel/groups';

import { probePidBox } from './bwrap';
import { inEditorTerminal } from './editor-terminal';

export { probeSandbox } from './bwrap';

/** What the model gets back from one command, at most. */
export const MAX_RESULT_CHARS = 64 * 1024;
/** What the transcript shows of one command, at most. */
export const MAX_SHOWN_CHARS = 256 * 1024;
export const KILL_GRACE_MS = 2000;

/** What the model gets of a finished command: its output (capped) and how it ended. */
function shellResult(
  result: string,
  timedOutAfter: number | null,
  code: number | null,
  signal: NodeJS.Signals | null,
): ToolResult {
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

/** What makes a later git run code, in the workspace and each added directory: bound read-only. */
function protectedPlaces(roots: readonly string[], named: readonly string[]): { bind: string[]; empty: string[] } {
  const all = roots.filter((r) => fs.existsSync(r)).map((r) => gitPlaces(r));
  const bind = all.flatMap((p) => p.bind);
  if (roots[0] && fs.existsSync(roots[0])) pushAll(bind, milkPlaces(roots[0], named));
  return { bind, empty: all.flatMap((p) => p.empty) };
}

/** What the sandbox hides, as it is now: folders behind an empty one, files behind an empty file. */
function hiddenPlaces(places: readonly string[]): { hide: string[]; hideFiles: string[] } {
  const hide: string[] = [];
  const hideFiles: string[] = [];
  for (const p of places) {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    // As real paths: a workspace inside one (a worktree in the data dir) is found there by its real path.
    if (stat?.isDirectory()) hide.push(fs.realpathSync(p));
    else if (stat) hideFiles.push(fs.realpathSync(p));
  }
  return { hide, hideFiles };
}

let filterBytes: Buffer | null | undefined;
/** The seccomp filter for this machine's architecture, built once (null where none is built). */
function socketFilter(): Buffer | null {
  if (filterBytes === undefined) filterBytes = unixSocketFilter(process.arch);
  return filterBytes;
}

/**
 * Whether a command with no sandbox runs in a process namespace of its own: the model's do where bubblewrap can start
 * (else a `setsid` child of theirs can outlive its kill and milk, as docs/tools-and-approvals.md says).
 */
async function pidBoxed(ctx: ToolContext): Promise<boolean> {
  return ctx.sandbox === null && !ctx.person && (await probePidBox()).ok;
}

/**
 * The program and arguments that run `command` as `ctx` says: bubblewrap's argv when sandboxed (with, without network,
 * the seccomp filter it reads from descriptor 3), a process namespace of its own when `boxed`, else /bin/sh.
 */
export function commandLine(
  command: string,
  ctx: ToolContext,
  boxed: boolean,
): { bin: string; args: string[]; filter: Buffer | null } {
  const filter = ctx.sandbox && !ctx.sandbox.network ? socketFilter() : null;
  if (!ctx.sandbox)
    return boxed
      ? { bin: 'bwrap', args: pidBoxArgs(ctx.workspace, command), filter }
      : { bin: '/bin/sh', args: ['-c', command], filter };
  const args = bwrapArgs(
    {
      workspace: ctx.workspace,
      network: ctx.sandbox.network,
      ...hiddenPlaces(ctx.sandbox.hide),
      also: (ctx.also ?? []).filter((d) => fs.existsSync(d)),
      show: shownSkills(ctx),
      protect: protectedPlaces([ctx.workspace, ...(ctx.also ?? [])], ctx.sandbox.controls ?? []),
      sockets: ctx.sandbox.network ? [] : socketPlaces(ctx.workspace, process.env),
      ...(filter ? { seccompFd: 3 } : {}),
    },
    command,
  );
  return { bin: 'bwrap', args, filter };
}

/** The environment a command gets: no credentials, and no agent sockets where it has no network. */
const commandEnv = (ctx: ToolContext): NodeJS.ProcessEnv =>
  toolEnv(process.env, { sockets: !ctx.sandbox || ctx.sandbox.network, withhold: withheldVariables() });

/**
 * Starts `command` (in bwrap when sandboxed, or in a process namespace of its own when `boxed`), the leader of its own
 * process group, which a cancel kills whole. Without network, its seccomp filter goes to bwrap on descriptor 3.
 */
function spawnCommand(
  command: string,
  ctx: ToolContext,
  boxed: boolean,
): ChildProcessByStdio<null, Readable, Readable> {
  const { bin, args, filter } = commandLine(command, ctx, boxed);
  const child = spawn(bin, args, {
    cwd: ctx.workspace,
    detached: true,
    stdio: filter ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    env: commandEnv(ctx),
  });
  if (filter) {
    const fd3 = child.stdio[3] as Writable;
    // bwrap that fails before reading it closes the other end: its exit says why.
    fd3.on('error', () => undefined);
    fd3.end(filter);
  }
  return child as ChildProcessByStdio<null, Readable, Readable>;
}

/** A command's output: kept for the model up to its cap, shown as it comes up to another, with a note past it. */
function collector(ctx: ToolContext): { take(text: string): void; text(): string } {
  let result = '';
  let shown = 0;
  let truncated = false;
  return {
    take: (text) => {
      if (result.length < MAX_RESULT_CHARS) result += text.slice(0, MAX_RESULT_CHARS - result.length);
      if (shown < MAX_SHOWN_CHARS) {
        const part = text.slice(0, MAX_SHOWN_CHARS - shown);
        shown += part.length;
        ctx.onOutput(part);
      } else if (!truncated) {
        truncated = true;
        ctx.onOutput('\n[output truncated]\n');
      }
    },
    text: () => result,
  };
}

/** A command started: its group stopped with a signal, and how it ended reported once. */
interface Launched {
  /** Signals its whole process group. */
  signal(signal: NodeJS.Signals): void;
  /** TERM to its group now, KILL after the grace period. */
  stop(): void;
}

/**
 * Starts `command` as the leader of its own group: output decoded as it comes (a character split between chunks kept
 * whole, invalid bytes as U+FFFD), and, once it has closed, whatever it left running in its group killed unless it was
 * being stopped anyway, and `closed` told how it ended (or `failed`, when it could not start).
 */
function launch(
  command: string,
  ctx: ToolContext,
  boxed: boolean,
  on: {
    output(text: string): void;
    closed(code: number | null, signal: NodeJS.Signals | null): void;
    failed(why: string): void;
  },
): Launched {
  const child = spawnCommand(command, ctx, boxed);
  const group = child.pid;
  if (group) holdGroup(group);
  const out = new StringDecoder('utf8');
  const err = new StringDecoder('utf8');
  child.stdout.on('data', (d: Buffer) => on.output(out.write(d)));
  child.stderr.on('data', (d: Buffer) => on.output(err.write(d)));
  const signal = (sig: NodeJS.Signals): void => {
    if (group) signalGroup(group, sig);
  };
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    signal('SIGTERM');
    const killTimer = setTimeout(() => {
      signal('SIGKILL');
      if (group) releaseGroup(group);
    }, ctx.killGraceMs ?? KILL_GRACE_MS);
    killTimer.unref();
  };
  child.on('error', (e) => on.failed(e.message));
  child.on('close', (code, sig) => {
    on.output(out.end() + err.end());
    // Whatever the command left running in its group goes with it.
    if (!stopping) {
      signal('SIGKILL');
      if (group) releaseGroup(group);
    }
    on.closed(code, sig);
  });
  return { signal, stop };
}

/** Runs `command` (sandboxed as `ctx` says), stopping it after `timeout` ms if given. */
export async function runCommand(
  command: string,
  ctx: ToolContext,
  abort: AbortSignal,
  timeout?: number,
): Promise<ToolResult> {
  if (!command.trim()) return { ok: false, content: 'error: empty command' };
  // The editor's terminal (milk acp) shows a sandboxed command running: the same bubblewrap argv, run there.
  if (ctx.terminal && ctx.sandbox) {
    const ran = await inEditorTerminal(ctx.terminal, commandLine(command, ctx, false), commandEnv(ctx), {
      cwd: ctx.workspace,
      abort,
      timeout,
      maxChars: MAX_RESULT_CHARS,
    });
    return shellResult(ran.output, ran.timedOut ? (timeout ?? null) : null, ran.code, ran.signal);
  }
  const boxed = await pidBoxed(ctx);
  return new Promise((resolve) => {
    const { take, text } = collector(ctx);
    let timedOut = false;
    let timer: NodeJS.Timeout | null = null;
    const onAbort = (): void => launched.stop();
    const launched = launch(command, ctx, boxed, {
      output: take,
      failed: (why) => resolve({ ok: false, content: `error: ${why}` }),
      closed: (code, signal) => {
        if (timer) clearTimeout(timer);
        abort.removeEventListener('abort', onAbort);
        resolve(shellResult(text(), timedOut ? (timeout ?? null) : null, code, signal));
      },
    });
    if (abort.aborted) onAbort();
    else abort.addEventListener('abort', onAbort, { once: true });
    if (timeout !== undefined) {
      timer = setTimeout(() => {
        timedOut = true;
        launched.stop();
      }, timeout);
      timer.unref();
    }
  });
}

/**
 * Starts `command` in the background (tools/background.ts): it outlives the turn, its output goes to `on.output`, and
 * `on.ended` hears how it ended; `kill` stops its group.
 */
export async function startCommand(
  command: string,
  ctx: ToolContext,
  on: { output(text: string): void; ended(how: string): void },
): Promise<{ kill(): void } | { error: string }> {
  if (!command.trim()) return { error: 'empty command' };
  const launched = launch(command, ctx, await pidBoxed(ctx), {
    output: on.output,
    failed: (why) => on.ended(`failed: ${why}`),
    closed: (code, signal) => on.ended(signal ? `killed by ${signal}` : `exit ${code}`),
  });
  return { kill: () => launched.stop() };
}

/**
 * The used skills' folders, bound read-only into the sandbox (their scripts run, even in the data dir it hides); one
 * holding or inside a place the deny rules name is left hidden.
 */
export function shownSkills(ctx: Pick<ToolContext, 'readOnly' | 'deniedPlaces'>): string[] {
  const denied = ctx.deniedPlaces ?? [];
  const near = (a: string, b: string): boolean => a === b || a.startsWith(b + path.sep) || b.startsWith(a + path.sep);
  return (ctx.readOnly ?? []).filter((d) => fs.existsSync(d) && !denied.some((p) => near(p, d)));
}

// A command in the workspace, for the shell tool and the person's own `!`
// commands: output streamed and bounded, in its own process group so that a
// cancel or its timeout stops it and everything in that group (TERM, then
// KILL after a grace period); at exit every group still alive gets KILL.

import { spawn, type ChildProcessByStdio } from 'node:child_process';
import * as fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import type { ToolContext, ToolResult } from './tool';
import { toolEnv } from './env';
import { bwrapArgs } from './sandbox';
import { gitPlaces, socketPlaces } from './sandbox-places';

export { probeSandbox } from './bwrap';

/** What the model gets back from one command, at most. */
export const MAX_RESULT_CHARS = 64 * 1024;
/** What the transcript shows of one command, at most. */
export const MAX_SHOWN_CHARS = 256 * 1024;
export const KILL_GRACE_MS = 2000;

/** Process groups of commands still running (their leaders' pids). */
const liveGroups = new Set<number>();

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

/** Starts `command` (in bwrap when sandboxed), the leader of its own process group, which a cancel kills whole. */
function spawnCommand(command: string, ctx: ToolContext): ChildProcessByStdio<null, Readable, Readable> {
  const [bin, args] = ctx.sandbox
    ? [
        'bwrap',
        bwrapArgs(
          {
            workspace: ctx.workspace,
            network: ctx.sandbox.network,
            hide: ctx.sandbox.hide.filter((d) => fs.existsSync(d)),
            protect: gitPlaces(ctx.workspace),
            sockets: ctx.sandbox.network ? [] : socketPlaces(ctx.workspace, process.env),
          },
          command,
        ),
      ]
    : ['/bin/sh', ['-c', command]];
  return spawn(bin, args, {
    cwd: ctx.workspace,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: toolEnv(process.env, { sockets: !ctx.sandbox || ctx.sandbox.network }),
  });
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

/** Runs `command` (sandboxed as `ctx` says), stopping it after `timeout` ms if given. */
export function runCommand(
  command: string,
  ctx: ToolContext,
  abort: AbortSignal,
  timeout?: number,
): Promise<ToolResult> {
  return new Promise((resolve) => {
    if (!command.trim()) return resolve({ ok: false, content: 'error: empty command' });
    const child = spawnCommand(command, ctx);
    const group = child.pid;
    if (group) liveGroups.add(group);
    const { take, text } = collector(ctx);
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
    if (abort.aborted) onAbort();
    else abort.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer =
      timeout === undefined
        ? null
        : setTimeout(() => {
            timedOut = true;
            onAbort();
          }, timeout);
    timer?.unref();
    child.on('error', (err) => resolve({ ok: false, content: `error: ${err.message}` }));
    child.on('close', (code, signal) => {
      take(out.end() + err.end());
      if (timer) clearTimeout(timer);
      abort.removeEventListener('abort', onAbort);
      // Whatever the command left running in its group goes with it.
      if (!abort.aborted) {
        killGroup('SIGKILL');
        if (group) liveGroups.delete(group);
      }
      resolve(shellResult(text(), timedOut ? (timeout ?? null) : null, code, signal));
    });
  });
}

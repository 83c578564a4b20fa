// Commands the model started with `background: true`: each runs in its own
// process group (in the sandbox, as its call was approved), outlives the turn
// that started it, and keeps the newest of its output in a ring; shell_output
// reads what came since the last read (waiting a while for more if asked),
// shell_kill and /shells end one, and milk's exit ends them all with every
// other command (tools/command.ts). No timer runs while they are quiet.

import type { ToolContext } from './tool';
import { Ring } from './ring';
import { commandModule } from './lazy-command';

/** Characters of output a background command keeps (the newest). */
export const KEPT_CHARS = 256 * 1024;
/** Characters one shell_output returns at most (the newest of what came since the last read). */
export const READ_CHARS = 32 * 1024;
/** The longest shell_output may wait for more output, in seconds. */
export const MAX_WAIT_S = 120;
/** Background commands running at once, at most: a runaway loop of starts is refused. */
export const MAX_RUNNING = 16;
/**
 * Ended commands remembered (their output, how they ended), the newest: a day of starts must not keep every ring of
 * output, and each the turn that started it, for as long as milk runs.
 */
export const ENDED_KEPT = 32;

export interface Shell {
  readonly id: number;
  readonly command: string;
  readonly started: number;
  /** How it ended (`exit 0`, `killed by SIGTERM`), or null while it runs. */
  ended: string | null;
  readonly output: Ring;
  /** Where the model's last read stopped (the ring's total then). */
  read: number;
  /** Stops the whole group: TERM, then KILL after the grace period. */
  kill(): void;
}

/** What a read found: the new output, what of it was missed, and whether the command still runs. */
export interface ShellRead {
  readonly text: string;
  readonly missed: number;
  readonly ended: string | null;
}

export class BackgroundShells {
  private readonly shells = new Map<number, Shell>();
  private lastId = 0;
  /** Wakes readers waiting for output or an end. */
  private readonly waiting = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  get running(): Shell[] {
    return [...this.shells.values()].filter((s) => s.ended === null);
  }

  all(): Shell[] {
    return [...this.shells.values()];
  }

  find(id: number): Shell | undefined {
    return this.shells.get(id);
  }

  /** Starts `command` (sandboxed as `ctx` says); its id, or why it cannot start. */
  async start(command: string, ctx: ToolContext): Promise<{ id: number } | { error: string }> {
    if (this.running.length >= MAX_RUNNING)
      return { error: `${MAX_RUNNING} background commands are running already: end one with shell_kill first` };
    const { startCommand } = commandModule();
    const id = ++this.lastId;
    const output = new Ring(KEPT_CHARS);
    const wake = (): void => {
      for (const w of [...this.waiting]) w();
    };
    const started = await startCommand(command, ctx, {
      output: (text) => {
        output.append(text);
        wake();
      },
      ended: (how) => {
        shell.ended = how;
        // Its kill held the launch, and through it the call's context and the whole turn: nothing is left to end.
        shell.kill = () => undefined;
        this.forgetOldEnded();
        wake();
      },
    });
    if ('error' in started) return started;
    const shell: Shell = { id, command, started: this.now(), ended: null, output, read: 0, kill: started.kill };
    this.shells.set(id, shell);
    return { id };
  }

  /** The oldest ended commands past ENDED_KEPT are forgotten (ids count on; shell_output says there is no such one). */
  private forgetOldEnded(): void {
    const ended = [...this.shells.values()].filter((s) => s.ended !== null);
    for (const old of ended.slice(0, Math.max(0, ended.length - ENDED_KEPT))) this.shells.delete(old.id);
  }

  /**
   * What `id` printed since the last read; with `waitMs`, waits until something comes, it ends, the time is up or
   * `signal` fires (the turn was stopped).
   */
  async read(id: number, waitMs: number, signal: AbortSignal): Promise<ShellRead | null> {
    const shell = this.shells.get(id);
    if (!shell) return null;
    if (waitMs > 0 && shell.ended === null && shell.output.total === shell.read && !signal.aborted)
      await this.change(waitMs, signal);
    const got = shell.output.since(shell.read, READ_CHARS);
    shell.read = got.next;
    return { text: got.text, missed: got.missed, ended: shell.ended };
  }

  /** Resolves at the next output or end of any background command, after `ms`, or when `signal` fires. */
  private change(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiting.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Ends `id`'s process group; false when there is no such command or it has ended. */
  kill(id: number): boolean {
    const shell = this.shells.get(id);
    if (!shell || shell.ended !== null) return false;
    shell.kill();
    return true;
  }
}

/** How long it has run, in the largest units that say it: 45s, 3m12s, 2h05m. */
export function runningFor(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
}

/** /shells' lines: one per command (id, how long or how it ended, the command, its last line). */
export function shellLines(shells: readonly Shell[], now: number): string[] {
  if (shells.length === 0) return ['no background commands: the model starts one with shell and background: true'];
  return shells.map((s) => {
    const state = s.ended === null ? `running ${runningFor(now - s.started)}` : s.ended;
    const last = s.output.lastLine();
    return `${s.id}  ${state}  ${s.command.replace(/\s+/g, ' ').slice(0, 80)}${last ? `  · ${last.slice(0, 80)}` : ''}`;
  });
}

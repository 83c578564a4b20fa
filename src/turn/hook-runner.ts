// Runs the person's hooks (hooks.ts says what they mean): each by /bin/sh in
// the workspace, in a process group of its own, the event as one JSON object
// on stdin, stopped (the whole group) at its timeout or when the turn that
// waits for it is stopped. A hook is the person's own command, so it runs as
// an MCP server does: outside the sandbox, with milk's environment. Only
// before_tool and user_prompt are waited for; the others go on beside milk.
// A hook's group, and whatever it left running in it, ends at milk's exit at
// the latest (kernel/groups.ts).
// node:child_process is loaded at the first hook, never at start-up.

import type { Bus } from '../kernel/bus';
import { claudeFields } from '../config/plugins';
import { groupAlive, holdGroup, releaseGroup, signalGroup } from '../kernel/groups';
import {
  DEFAULT_HOOK_TIMEOUT_S,
  HookEvent,
  HookRun,
  HookVerdict,
  MAX_HOOK_OUTPUT,
  SourcedHook,
  combine,
  hookLines,
  hooksFor,
  verdictOf,
} from '../config/hooks';

export interface HooksOptions {
  readonly workspace: string;
  /** The conversation being written, for the events. */
  readonly conversation: () => string;
  /** A hook that failed, said to the person. */
  readonly warn: (text: string) => void;
  /** Why the hooks configured do not run here (milk run without --hooks), or null. */
  readonly off?: string | null;
  /** Done before a hook runs: it changes files behind the file tools' back, so the running turn's snapshot first. */
  readonly beforeRun?: () => Promise<void>;
  /**
   * Whether a hook's command may run: null, or why not (a workspace file it runs changed since the person trusted it:
   * app/vouch.ts). A hook that may not is said to have failed, and milk goes on as if it had not run.
   */
  readonly vouch?: (command: string) => Promise<string | null>;
}

export class Hooks {
  /** Hooks started and not yet ended that no one waits for (milk run waits for them before it exits). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private all: Partial<Record<HookEvent, readonly SourcedHook[]>>,
    private readonly o: HooksOptions,
  ) {}

  /** More hooks (a trusted project's), after those there are. */
  add(more: Partial<Record<HookEvent, readonly SourcedHook[]>>): void {
    const all = { ...this.all };
    for (const [event, list] of Object.entries(more) as Array<[HookEvent, readonly SourcedHook[]]>)
      all[event] = [...(all[event] ?? []), ...list];
    this.all = all;
  }

  /** Every hook's command, whatever its event. */
  commands(): string[] {
    return Object.values(this.all).flatMap((list) => (list ?? []).map((h) => h.command));
  }

  /** Resolves once every hook started so far has ended. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Whether any hook runs for `event` (and `tool`). */
  has(event: HookEvent, tool?: string): boolean {
    return !this.o.off && hooksFor(this.all, event, tool).length > 0;
  }

  lines(): string[] {
    return hookLines(this.all, this.o.off ?? null);
  }

  /** Lets the bus's events start the hooks that only watch: turn_end and notification. */
  watch(bus: Bus): void {
    bus.on('turn.ended', ({ status, message }) => this.fire('turn_end', { status, ...(message ? { message } : {}) }));
    bus.on('approval.asked', ({ summary }) =>
      this.fire('notification', { message: `milk is waiting for you: run ${summary}?` }),
    );
    bus.on('question.asked', ({ plan }) =>
      this.fire('notification', {
        message: plan === undefined ? 'milk: the model asks you a question' : 'milk: the model proposes a plan',
      }),
    );
  }

  /** Starts the hooks of an event no one waits for (`from`: only those of that source); a failure is said. */
  fire(event: HookEvent, fields: Record<string, unknown>, tool?: string, from?: string): void {
    if (!this.has(event, tool)) return;
    for (const hook of hooksFor(this.all, event, tool).filter((h) => from === undefined || h.source === from)) {
      const ran = this.run(hook, event, fields).then((r) => {
        const v = verdictOf(r);
        if (v.kind === 'failed') this.failed(event, hook, v.why);
      });
      this.pending.add(ran);
      void ran.finally(() => this.pending.delete(ran));
    }
  }

  /** The before_tool hooks of a call, in order, each shown the arguments the one before gave. */
  async beforeTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<HookVerdict> {
    let verdict: HookVerdict = { kind: 'none' };
    for (const hook of hooksFor(this.all, 'before_tool', tool)) {
      const current = 'args' in verdict && verdict.args ? verdict.args : args;
      const v = verdictOf(await this.run(hook, 'before_tool', { tool, args: current }, signal));
      if (signal.aborted) return { kind: 'none' };
      if (v.kind === 'failed') this.failed('before_tool', hook, v.why);
      else verdict = combine(verdict, v);
      if (verdict.kind === 'block' || verdict.kind === 'refuse') break;
    }
    return verdict;
  }

  /** The user_prompt hooks of an input: why one stopped it (exit 2), or null. */
  async userPrompt(prompt: string, signal: AbortSignal): Promise<string | null> {
    for (const hook of hooksFor(this.all, 'user_prompt')) {
      const v = verdictOf(await this.run(hook, 'user_prompt', { prompt }, signal));
      if (v.kind === 'block') return v.reason;
      if (v.kind === 'failed' && !signal.aborted) this.failed('user_prompt', hook, v.why);
    }
    return null;
  }

  private failed(event: HookEvent, hook: SourcedHook, why: string): void {
    this.o.warn(`the ${event} hook \`${hook.command}\` failed (${why}); milk went on as if it had not run`);
  }

  private async run(
    hook: SourcedHook,
    event: HookEvent,
    fields: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<HookRun> {
    const refused = (await this.o.vouch?.(hook.command)) ?? null;
    if (refused) return { code: null, stdout: '', stderr: '', failed: refused };
    await this.o.beforeRun?.();
    const where = { workspace: this.o.workspace, conversation: this.o.conversation() };
    // Claude Code's fields too, so that a plugin's hooks (and any written for Claude Code) read what they expect.
    const payload = { event, ...fields, ...where, ...claudeFields(event, fields, where) };
    return runHook(hook.command, JSON.stringify(payload), {
      ...(hook.env ? { env: hook.env } : {}),
      cwd: this.o.workspace,
      timeoutMs: (hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000,
      event,
      signal,
    });
  }
}

/** Runs one hook's command: how it ended. Never throws. */
export function runHook(
  command: string,
  input: string,
  o: {
    cwd: string;
    timeoutMs: number;
    /** The event (or `status_line`), in MILK_HOOK_EVENT. */
    event: string;
    signal?: AbortSignal;
    env?: Readonly<Record<string, string>>;
    /** Characters of stdout and of stderr kept, at most (MAX_HOOK_OUTPUT unless said). */
    maxOutput?: number;
  },
): Promise<HookRun> {
  const max = o.maxOutput ?? MAX_HOOK_OUTPUT;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let failed: string | undefined;
    const child = spawn('/bin/sh', ['-c', command], {
      cwd: o.cwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...o.env, MILK_HOOK_EVENT: o.event },
    });
    const group = child.pid;
    if (group !== undefined) holdGroup(group);
    const kill = (why: string): void => {
      failed ??= why;
      if (group !== undefined) signalGroup(group, 'SIGKILL');
    };
    const timer = setTimeout(() => kill(`timed out after ${o.timeoutMs / 1000} s`), o.timeoutMs);
    const onAbort = (): void => kill('stopped with the turn');
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const take = (into: 'out' | 'err') => (d: Buffer) => {
      if (into === 'out' && stdout.length < max) stdout += d.toString('utf8');
      if (into === 'err' && stderr.length < max) stderr += d.toString('utf8');
    };
    child.stdout.on('data', take('out'));
    child.stderr.on('data', take('err'));
    // A hook that does not read its stdin (or exits first) closes the pipe under the write: no matter.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    child.on('error', (err) => {
      failed ??= err.message;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // A child it left in the background keeps the group: held until it ends, or milk does.
      if (group !== undefined && !groupAlive(group)) releaseGroup(group);
      o.signal?.removeEventListener('abort', onAbort);
      resolve({
        code: failed === undefined ? code : null,
        stdout: stdout.slice(0, max),
        stderr: stderr.slice(0, max),
        ...(failed !== undefined ? { failed } : {}),
      });
    });
  });
}

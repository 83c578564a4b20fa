// Hooks: the person's commands run on milk's events (config.json's `hooks`,
// and a trusted project's): which run for an event and a tool, what a hook's
// exit and output mean, and how they read in /hooks. A before_tool hook that
// exits 2 blocks the call (its stderr is the reason the model is told); one
// that exits 0 with a JSON object on stdout may approve the call (a question
// it would have asked is not), refuse it, or give it other arguments; any
// other end (a failure, a timeout) is shown and changes nothing. Deny rules
// are checked before any hook and again on arguments a hook gave. Pure.

export const HOOK_EVENTS = [
  'before_tool',
  'after_tool',
  'user_prompt',
  'turn_end',
  'notification',
  'session_start',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** What each event is for, for /hooks and docs/hooks.md. */
export const HOOK_MEANING: Record<HookEvent, string> = {
  before_tool: 'before a tool call runs (exit 2 blocks it; JSON on stdout may approve, refuse or change it)',
  after_tool: 'after a tool call ran, with what it answered',
  user_prompt: 'when an input is sent, before the model gets it (exit 2 stops it)',
  turn_end: 'when a turn ends, with how',
  notification: 'when milk waits for the person (a question, an approval)',
  session_start: 'when milk starts (or milk run, with --hooks)',
};

export interface HookSpec {
  /** before_tool and after_tool: the tools it runs for (`shell`, `edit_file|write_file`, `mcp__*`); absent: all. */
  readonly match?: string;
  /** Run by /bin/sh in the workspace, the event as JSON on stdin. */
  readonly command: string;
  /** Seconds before it is stopped (default 10). */
  readonly timeout?: number;
  /** More of its environment (a plugin's hooks: CLAUDE_PLUGIN_ROOT). */
  readonly env?: Readonly<Record<string, string>>;
}

export type HooksConfig = Partial<Record<HookEvent, readonly HookSpec[]>>;

/** A hook with where it was configured. */
export interface SourcedHook extends HookSpec {
  readonly source: string;
}

export const DEFAULT_HOOK_TIMEOUT_S = 10;
/** What a hook's stdout and stderr are read up to. */
export const MAX_HOOK_OUTPUT = 64 * 1024;

/** Whether a hook's `match` takes this tool: names or `*` wildcards, alternatives split by `|`. */
export function matchesTool(match: string | undefined, tool: string): boolean {
  if (match === undefined || match.trim() === '' || match.trim() === '*') return true;
  return match.split('|').some((alt) => {
    const parts = alt.trim().split('*').map(escapeRegExp);
    return new RegExp(`^${parts.join('.*')}$`).test(tool);
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** The hooks of `event` (for a tool, those whose match takes it), in the order configured. */
export function hooksFor(
  all: Partial<Record<HookEvent, readonly SourcedHook[]>>,
  event: HookEvent,
  tool?: string,
): SourcedHook[] {
  return (all[event] ?? []).filter((h) => tool === undefined || matchesTool(h.match, tool));
}

/** How a hook ended. */
export interface HookRun {
  /** The exit code; null when it did not exit by itself (killed, timed out, never started). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why it did not run to an exit: `timed out after 10 s`, the spawn error. */
  readonly failed?: string;
}

/** What a before_tool hook said of a call. */
export type HookVerdict =
  | { readonly kind: 'none' }
  | { readonly kind: 'block'; readonly reason: string }
  | { readonly kind: 'refuse'; readonly reason: string }
  | { readonly kind: 'approve'; readonly reason?: string; readonly args?: Record<string, unknown> }
  | { readonly kind: 'args'; readonly args: Record<string, unknown> }
  /** It failed (or said something milk cannot read): shown, and the call goes on as if it had not run. */
  | { readonly kind: 'failed'; readonly why: string };

/** Reads a before_tool hook's end (user_prompt's exit 2 reads the same way). */
export function verdictOf(run: HookRun): HookVerdict {
  if (run.failed !== undefined) return { kind: 'failed', why: run.failed };
  if (run.code === 2) return { kind: 'block', reason: firstLines(run.stderr) || 'no reason given' };
  if (run.code !== 0)
    return { kind: 'failed', why: `exit ${run.code}${run.stderr ? `: ${firstLines(run.stderr)}` : ''}` };
  const out = run.stdout.trim();
  if (!out.startsWith('{')) return { kind: 'none' };
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(out) as Record<string, unknown>;
  } catch {
    return { kind: 'failed', why: 'its stdout began with { but was not JSON' };
  }
  const claude = claudeVerdict(o);
  if (claude) return claude;
  const reason = typeof o.reason === 'string' && o.reason.trim() ? o.reason.trim() : undefined;
  const args = o.args !== undefined && isObject(o.args) ? o.args : undefined;
  if (o.args !== undefined && args === undefined) return { kind: 'failed', why: '"args" must be an object' };
  if (o.decision === 'refuse') return { kind: 'refuse', reason: reason ?? 'no reason given' };
  if (o.decision === 'approve') return { kind: 'approve', ...(reason ? { reason } : {}), ...(args ? { args } : {}) };
  if (o.decision !== undefined) return { kind: 'failed', why: '"decision" must be "approve" or "refuse"' };
  return args ? { kind: 'args', args } : { kind: 'none' };
}

/**
 * A Claude Code hook's answer (a plugin's): `hookSpecificOutput.permissionDecision` allow (approve), deny (refuse) or
 * ask (milk's mode decides), with its reason; `decision: "block"` blocks. Null: not one of those.
 */
function claudeVerdict(o: Record<string, unknown>): HookVerdict | null {
  const specific = isObject(o.hookSpecificOutput) ? o.hookSpecificOutput : null;
  const decision = specific?.permissionDecision;
  const why = specific?.permissionDecisionReason ?? o.reason;
  const reason = typeof why === 'string' && why.trim() ? why.trim() : undefined;
  if (decision === 'allow') return { kind: 'approve', ...(reason ? { reason } : {}) };
  if (decision === 'deny') return { kind: 'refuse', reason: reason ?? 'no reason given' };
  if (decision === 'ask') return { kind: 'none' };
  if (o.decision === 'block') return { kind: 'block', reason: reason ?? 'no reason given' };
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A hook's words as a reason: its first lines, at most 2,000 characters. */
function firstLines(text: string): string {
  const t = text.trim();
  return t.length > 2000 ? `${t.slice(0, 2000)}…` : t;
}

/**
 * The verdicts of a call's hooks, in order, as one: the first block or refusal stops there; arguments one gives are
 * what the next is shown (the caller runs them so); an approval holds unless a later hook blocks or refuses.
 */
export function combine(prev: HookVerdict, next: HookVerdict): HookVerdict {
  if (prev.kind === 'block' || prev.kind === 'refuse') return prev;
  if (next.kind === 'block' || next.kind === 'refuse') return next;
  const args = ('args' in next && next.args) || ('args' in prev && prev.args) || undefined;
  const approved = prev.kind === 'approve' || next.kind === 'approve';
  if (approved) {
    const reason = (next.kind === 'approve' && next.reason) || (prev.kind === 'approve' && prev.reason) || undefined;
    return { kind: 'approve', ...(reason ? { reason } : {}), ...(args ? { args } : {}) };
  }
  return args ? { kind: 'args', args } : { kind: 'none' };
}

/** /hooks: each event's hooks with their match, command and source. */
export function hookLines(all: Partial<Record<HookEvent, readonly SourcedHook[]>>, note: string | null): string[] {
  const lines: string[] = [];
  for (const event of HOOK_EVENTS) {
    const hooks = all[event] ?? [];
    if (hooks.length === 0) continue;
    lines.push(`${event}: ${HOOK_MEANING[event]}`);
    for (const h of hooks) {
      const match = h.match !== undefined && (event === 'before_tool' || event === 'after_tool') ? `[${h.match}] ` : '';
      const timeout = h.timeout ?? DEFAULT_HOOK_TIMEOUT_S;
      lines.push(`  ${match}${h.command}  (${timeout} s, ${h.source})`);
    }
  }
  if (lines.length === 0)
    lines.push('no hooks (config.json\'s "hooks": {"before_tool": [{"match": …, "command": …}]})');
  if (note) lines.push(note);
  return lines;
}

/** The hooks of config.json (and a trusted project's), each with where it came from. */
export function sourced(
  ...sources: ReadonlyArray<{
    hooks?: Partial<Record<HookEvent, readonly HookSpec[]>>;
    source: string;
  }>
): Partial<Record<HookEvent, SourcedHook[]>> {
  const all: Partial<Record<HookEvent, SourcedHook[]>> = {};
  for (const { hooks, source } of sources)
    for (const [event, list] of Object.entries(hooks ?? {}) as Array<[HookEvent, readonly HookSpec[]]>)
      for (const h of list ?? []) (all[event] ??= []).push({ ...h, source });
  return all;
}

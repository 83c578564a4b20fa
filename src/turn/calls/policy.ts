// Whether a call runs, is asked about or is refused: the person's deny rules first (no mode, allow rule, answer or
// hook lifts them), then the mode, the rules and the "always" answers, then the before_tool hooks; and where a
// command may run (the sandbox, or only once the person agrees).

import * as path from 'node:path';
import type { AnyTool } from '../../tools/tool';
import { prepare } from '../../tools/registry';
import { deniedPlaces as placesDenied } from '../../tools/deny-paths';
import { type DenyRule, describeDeny } from '../../settings/deny';
import { denialDetail, denyingRule } from '../../settings/deny-match';
import { readShell } from '../../tools/shell-parse';
import type { Decision } from '../../settings/approval';
import type { ApprovalMode } from '../../protocol/approvals';
import { sanitize } from '../../protocol/inert';
import type { ActiveTurn } from '../turn';
import type { Confinement, ToolCallsOptions } from './options';
import { type CallAnswer, type Refusal, type Show, refuse } from './show';

type Judged = { answer: CallAnswer } | { decision: Decision };
type Args = Record<string, unknown>;

const refused = (
  o: ToolCallsOptions,
  show: Show,
  name: string,
  why: string,
  status: Refusal,
): { answer: CallAnswer } => ({
  answer: refuse(show, o.settings.mode, name, why, status),
});

/**
 * The deny rules, the mode, then the before_tool hooks: the call's arguments and what happens to it, or its answer;
 * null when the turn was stopped meanwhile.
 */
export async function gate(
  o: ToolCallsOptions,
  turn: ActiveTurn,
  tool: AnyTool,
  args: Args,
  show: Show,
): Promise<null | { answer: CallAnswer } | { args: Args; decision: Decision }> {
  // A skill of the person's own in use this turn narrows what may be called (its allowed-tools); it never widens.
  const skill = o.narrowed?.(turn.id);
  if (skill && !skill.tools.has(tool.name)) {
    const only = [...skill.tools].join(', ');
    const why = skill.who
      ? `${skill.who} allows only ${only}`
      : `the skill ${skill.name} in use allows only ${only} (its allowed-tools)`;
    return refused(o, show, tool.name, why, 'not allowed');
  }
  const judged = judge(o, tool, args, show);
  if ('answer' in judged) return judged;
  const hooks = o.hooks;
  if (!hooks?.has('before_tool', tool.name)) return { args, decision: judged.decision };
  const v = await hooks.beforeTool(tool.name, args, turn.controller.signal);
  if (turn.cancelled) return null;
  if (v.kind === 'block' || v.kind === 'refuse') {
    const why = `a before_tool hook ${v.kind === 'block' ? 'blocked' : 'refused'} it: ${v.reason}`;
    return refused(o, show, tool.name, why, 'blocked by a hook');
  }
  const approve = (d: Decision): Decision => (v.kind === 'approve' && d === 'ask' ? 'run' : d);
  if (!('args' in v) || !v.args) return { args, decision: approve(judged.decision) };
  const again = prepare(tool, { id: 'hook', name: tool.name, args: v.args });
  if (!again.ok) {
    const why = `a before_tool hook gave it arguments that are not valid: ${again.why}`;
    return refused(o, show, tool.name, why, 'invalid arguments');
  }
  // What the hook made is judged again: a deny rule or the mode may stop it.
  const now = judge(o, tool, again.args, show);
  return 'answer' in now ? now : { args: again.args, decision: approve(now.decision) };
}

/** The deny rules, then the mode, the rules and the "always" answers. */
function judge(o: ToolCallsOptions, tool: AnyTool, args: Args, show: Show): Judged {
  const denied = deniedBy(o, tool, args);
  if (denied !== null) return refused(o, show, tool.name, denied, 'denied');
  const s = o.settings;
  const decision = s.decide({ tool: tool.name, kind: tool.kind, command: tool.ruleText?.(args) });
  if (decision === 'refuse') return refused(o, show, tool.name, notAllowed(s.mode, tool.name), 'not allowed');
  return { decision };
}

/** Why the deny rules stop this call (settings/deny-match.ts), or null. */
function deniedBy(o: ToolCallsOptions, tool: AnyTool, args: Args): string | null {
  const s = o.settings;
  if (s.deny.length === 0) return null;
  const text = tool.ruleText?.(args);
  const ws = o.workspace;
  // A command's words are paths too: `cat secrets/key` is stopped by its name (the sandbox hides it as well).
  const named = tool.kind === 'command' && text ? text.replace(/["'\\]/g, '').split(/[\s;&|()<>`=]+/) : [];
  const paths = [...(tool.paths?.(args) ?? []), ...named.filter(Boolean)].map((p) =>
    path.relative(ws, path.resolve(ws, p)).split(path.sep).join('/'),
  );
  // A command deny rule reads the command as the shell will (tools/shell-parse.ts): loaded only when one is in force.
  const ruled = tool.kind === 'command' && text && s.deny.some((r) => 'prefix' in r && r.tool === tool.name);
  const call = { tool: tool.name, text, paths, ...(ruled ? { shell: readShell(text) } : {}) };
  const rule = denyingRule(s.deny, call);
  const detail = rule && denialDetail(rule, call);
  const why = denialOf(o, rule);
  return why !== null && detail ? `${why} (${detail})` : why;
}

/** Why `rule` stops a call, naming whose rule it is; null for none. */
export function denialOf(o: ToolCallsOptions, rule: DenyRule | null): string | null {
  if (rule === null) return null;
  const s = o.settings;
  const whose = s.runRules.deny.includes(rule)
    ? 'a deny rule given for this run (--deny-tool)'
    : s.projectRules.deny.includes(rule)
      ? "a deny rule of the workspace's .milk/settings.json"
      : "the person's deny rule for this workspace";
  return `it is stopped by ${whose}: ${describeDeny(rule)}`;
}

/** What path deny rules name now (found as the call is about to run). */
export async function deniedPlaces(o: ToolCallsOptions): Promise<readonly string[]> {
  const globs = o.settings.deny.flatMap((r) => ('path' in r ? [r.path] : []));
  if (globs.length === 0) return [];
  const { places } = await placesDenied(o.workspace, globs).catch(() => ({ places: [] as string[] }));
  return places;
}

/**
 * Where a command runs: in the sandbox, or (off, or unable to run here)
 * without it, then only once the person agrees. The first command to find
 * the sandbox unable to run says so, once.
 */
export async function confinement(o: ToolCallsOptions): Promise<Confinement> {
  const s = o.settings;
  if (s.sandbox === 'off') return { sandbox: false, agree: false };
  const probe = await o.probeSandbox();
  if (probe.ok) return { sandbox: true, agree: false };
  if (s.sandboxBroken === null) {
    s.sandboxCannotRun(probe.why);
    const text =
      `no sandbox for commands: ${probe.why}. A command runs with your full rights only once you agree ` +
      `(yes at its question; --sandbox off stops asking).`;
    o.bus.emit('transcript.note', { text: sanitize(text), reveal: true });
  }
  return { sandbox: false, agree: !s.unsandboxedAgreed };
}

/** Why a call that would ask is refused where no one is there to answer (milk run). */
export function unattendedWhy(o: ToolCallsOptions, confined: Confinement): string {
  const s = o.settings;
  return confined.agree
    ? `no sandbox can run here (${s.sandboxBroken}) and no one is there to agree to running it without one (milk ` +
        `run; --sandbox off runs commands unconfined)`
    : `it needs the person's approval in ${s.mode} mode, and no one is there to give it (milk run; --approval ` +
        `auto-edit or full-auto lets such calls run)`;
}

/** Why a call is refused by the mode in force: plan mode says what it waits for. */
export function notAllowed(mode: ApprovalMode, tool: string): string {
  return mode === 'plan'
    ? `milk is in plan mode, where ${tool} is not allowed: no file changes and no commands until the person ` +
        `accepts a plan`
    : `the person set milk to ${mode} mode, where ${tool} is not allowed`;
}

// Approval modes: which tool calls run unasked, which are asked about, and
// which are refused, by what a tool does (its kind, tools/tool.ts). Pure.

import type { ApprovalMode, ToolKind } from '../protocol/approvals';

export const APPROVAL_MODES = [
  'read-only',
  'ask',
  'plan',
  'auto-edit',
  'full-auto',
] as const satisfies readonly ApprovalMode[];

export type Decision = 'run' | 'ask' | 'refuse';

const TABLE: Record<ApprovalMode, Record<ToolKind, Decision>> = {
  'read-only': { read: 'run', edit: 'refuse', command: 'refuse', network: 'refuse', other: 'refuse', state: 'run' },
  ask: { read: 'run', edit: 'ask', command: 'ask', network: 'ask', other: 'ask', state: 'run' },
  plan: { read: 'run', edit: 'refuse', command: 'refuse', network: 'refuse', other: 'refuse', state: 'run' },
  'auto-edit': { read: 'run', edit: 'run', command: 'ask', network: 'ask', other: 'ask', state: 'run' },
  'full-auto': { read: 'run', edit: 'run', command: 'run', network: 'run', other: 'run', state: 'run' },
};

/** What Shift+Tab steps through, each to the next, the last back to the first (read-only steps to ask). */
export const MODE_CYCLE: readonly ApprovalMode[] = ['ask', 'auto-edit', 'plan', 'full-auto'];

/** The mode Shift+Tab goes to from `mode`. */
export function nextMode(mode: ApprovalMode): ApprovalMode {
  const at = MODE_CYCLE.indexOf(mode);
  return at < 0 ? 'ask' : MODE_CYCLE[(at + 1) % MODE_CYCLE.length];
}

/**
 * What happens in `mode` to a call of a tool that does `kind` of thing; `always`: the person answered "always" for the
 * tool.
 */
export function decide(mode: ApprovalMode, kind: ToolKind, always: boolean): Decision {
  const d = TABLE[mode][kind];
  return d === 'ask' && always ? 'run' : d;
}

/** What a mode means, in a sentence for the model and the person. */
export const APPROVAL_MEANING: Record<ApprovalMode, string> = {
  'read-only': 'Reading and searching run; file changes and commands are refused.',
  ask:
    'Reading and searching run unasked; each file change and each command is shown to the person first, who ' +
    'approves or declines it.',
  plan:
    'Plan mode: reading and searching run; file changes and commands are refused until the person accepts a plan. ' +
    'Explore, then put the plan to the person with propose_plan.',
  'auto-edit':
    'Reading, searching and file changes inside the workspace run unasked; each command is shown to the person first.',
  'full-auto': 'Every tool call runs without asking.',
};

export function isApprovalMode(v: string): v is ApprovalMode {
  return (APPROVAL_MODES as readonly string[]).includes(v);
}

// What a call's block shows and what the model is told: a call's answer, and the blocks of a call refused or known to
// fail as sent (nobody is asked about those).

import type { Events } from '../../kernel/bus';
import type { ApprovalMode } from '../../protocol/approvals';
import type { ImagePart } from '../../protocol/images';
import { type Inert, sanitize } from '../../protocol/inert';

export const DECLINED = 'The user declined to run this tool call.';

/** What the model is told of a call; `declined`: the person said no (the log marks it). */
export interface CallAnswer {
  readonly content: string;
  readonly declined: boolean;
  /** Images the tool returned (read_file on an image). */
  readonly images?: readonly ImagePart[];
}

export const told = (content: string): CallAnswer => ({ content, declined: false });

/** The events of a call's block, without the turn's id. */
type CallEvents = {
  [K in 'tool.started' | 'tool.output' | 'tool.result' | 'tool.finished']: Omit<Events[K], 'turnId'>;
};

/**
 * Where a call's block goes: the bus (the transcript), a subagent's lines under its task, or a slot that waits for
 * the calls before it (calls run at once, shown one after the other).
 */
export type Show = <K extends keyof CallEvents>(name: K, payload: CallEvents[K]) => void;

/** Why a call was not run, as its block's status says; and what the model is told to do next. */
export type Refusal = 'invalid arguments' | 'not allowed' | 'denied' | 'blocked by a hook';
const WHAT_NEXT: Record<Refusal, string> = {
  'invalid arguments': 'Send the call again with its complete arguments as one JSON object.',
  'not allowed': 'Do without it, or ask the person to change the mode.',
  denied: 'Do not try to reach the same end another way; if the task needs it, tell the person.',
  'blocked by a hook': "Do without it, or do it otherwise as the hook's reason says.",
};

/**
 * A call that cannot be run as sent: shown as a failed block, and the model told why (`mode`: the approval mode in
 * force, for what to do next); nobody is asked about it.
 */
export function refuse(show: Show, mode: ApprovalMode, name: string, why: string, status: Refusal): CallAnswer {
  const summary = sanitize(`${name}: not run`);
  show('tool.started', {
    summary,
    detail: sanitize(`${name} call not run: ${why}`),
    declined: false,
    command: false,
  });
  show('tool.finished', { ok: false, status: sanitize(status) });
  const next =
    status === 'not allowed' && mode === 'plan'
      ? 'Go on reading and searching; when the plan is ready, put it to the person with propose_plan.'
      : WHAT_NEXT[status];
  return told(`error: this ${name} call was not run: ${why}. ${next}`);
}

/** A call that would fail as sent: shown as a failed block with why, once; the model told what a run would say. */
export function failKnown(
  show: Show,
  block: { summary: Inert; detail: Inert; command: boolean },
  why: string,
): CallAnswer {
  const content = `error: ${why}`;
  show('tool.started', { ...block, declined: false });
  show('tool.result', { text: sanitize(content) });
  show('tool.finished', { ok: false });
  return told(content);
}

// Putting things to the person: a call to approve (its answer's side effects done: "always", a rule, running without
// the sandbox), and the model's own question or plan.

import type { AnyTool, CallTurn, FileChange } from '../../tools/tool';
import { describeRule, suggestRule } from '../../settings/rules';
import { type Inert, sanitize } from '../../protocol/inert';
import type { PersonAnswer } from '../../protocol/questions';
import type { Answered, Questions } from '../approvals';
import type { ActiveTurn } from '../turn';
import type { Confinement, ToolCallsOptions } from './options';
import type { Show } from './show';

/** What a call's question shows. */
export interface Question {
  readonly summary: Inert;
  readonly detail: Inert;
  /** It runs a command (its block is marked `$`). */
  readonly command: boolean;
  readonly confined: Confinement;
  readonly change: FileChange | null;
}

/**
 * Puts a call to the person; what they answered (the answer's side effects done), or null when the turn was stopped.
 */
export async function askApproval(
  o: ToolCallsOptions,
  turn: ActiveTurn,
  call: { tool: AnyTool; args: Record<string, unknown>; id?: string },
  q: Question,
  show: Show | null,
): Promise<Answered | null> {
  const s = o.settings;
  const { tool } = call;
  const rule = suggestRule(tool.name, tool.ruleText?.(call.args));
  const answered = await o.approvals.ask(
    {
      turnId: turn.id,
      summary: q.summary,
      detail: q.detail,
      tool: tool.name,
      ...(call.id ? { callId: call.id } : {}),
      command: q.command,
      rule: rule && sanitize(describeRule(rule)),
      sandboxed: q.confined.sandbox,
      unsandboxed: q.confined.agree ? sanitize(s.sandboxBroken ?? 'the sandbox cannot run here') : null,
      fullAuto: s.force,
      // Every change's hunks: the question offers them one by one from two, and says so of one.
      ...(q.change?.hunks.length ? { hunks: q.change.hunks.map((h) => sanitize(h.text)) } : {}),
    },
    turn.controller.signal,
  );
  if (answered === 'interrupted' || turn.cancelled) return null;
  const answer = answered.approval;
  if (answer === 'no') {
    // A call's own block shows it declined; a question within a running call (a redirect's) is answered by the call.
    show?.('tool.started', { summary: q.summary, detail: q.detail, declined: true, command: q.command });
    return answered;
  }
  if (q.confined.agree) s.agreeUnsandboxed();
  if (answer === 'always') s.allowAlways(tool.name);
  if (answer === 'rule' && rule && s.addRule(rule)) {
    o.bus.emit('transcript.note', {
      text: sanitize(
        `from now on in this workspace, ${describeRule(rule)} run without asking (/permissions lists and removes ` +
          `rules)`,
      ),
    });
  }
  return answered;
}

/** Puts the model's question (or plan) to the person: their answer, or null when the turn was stopped. */
export async function askPerson(
  questions: Questions,
  turn: CallTurn,
  q: { question: string; options: readonly string[]; plan?: string },
): Promise<PersonAnswer | null> {
  const answer = await questions.ask(
    {
      turnId: turn.id,
      question: sanitize(q.question),
      options: q.options.map((option) => sanitize(option)),
      ...(q.plan === undefined ? {} : { plan: sanitize(q.plan) }),
    },
    turn.controller.signal,
  );
  return answer === 'interrupted' || turn.cancelled ? null : answer;
}

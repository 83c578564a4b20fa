// A code review as the full screen (/review) and milk run (--review) run it: the change read from git
// (agent/review-git.ts), a turn whose calls are narrowed to the tools that only read (read_file, glob, grep: whatever
// the mode), and the findings read from its answer (agent/review.ts), listed in the transcript or printed for CI.

import type { Bus } from '../kernel/bus';
import { sanitize } from '../protocol/inert';
import type { AgentContext } from '../agent/context';
import {
  type Finding,
  type Severity,
  atOrAbove,
  findingLines,
  findingsOf,
  reviewPrompt,
  reviewTarget,
} from '../agent/review';
import type { TurnRunner } from '../turn/runner';
import { reviewChange } from '../agent/review-git';

/** What a review's calls are narrowed to. */
export const REVIEW_TOOLS: readonly string[] = ['read_file', 'glob', 'grep'];

/** A review ready to run: its prompt, and how the transcript and the log show the input. */
export interface ReadyReview {
  readonly prompt: string;
  readonly display: string;
}

/** The review `arg` names, read from git; or what is wrong, in a sentence. */
export async function prepareReview(workspace: string, arg: string): Promise<ReadyReview | { problem: string }> {
  const target = reviewTarget(arg);
  if ('problem' in target) return target;
  try {
    const change = await reviewChange(workspace, target);
    const display = `/review${arg.trim() ? ` ${arg.trim()}` : ''}`;
    return { prompt: reviewPrompt(change.what, change.diff, change.untracked), display };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

export type ReviewOutcome =
  | { readonly findings: Finding[]; readonly dropped: number; readonly summary: string }
  | { readonly problem: string }
  | { readonly interrupted: true };

/** The findings of turn `turnId`'s last answer, handed to `then` once it ends (or that it was stopped). */
export function watchFindings(bus: Bus, turnId: number, then: (outcome: ReviewOutcome) => void): void {
  let answer = '';
  const offMessage = bus.on('conversation.message', ({ turnId: id, message }) => {
    if (id === turnId && message.role === 'assistant' && message.content) answer = message.content;
  });
  const offEnded = bus.on('turn.ended', ({ turnId: id, status, message }) => {
    if (id !== turnId) return;
    offMessage();
    offEnded();
    if (status === 'interrupted') return then({ interrupted: true });
    if (status === 'error') return then({ problem: `the review failed: ${message ?? 'the turn failed'}` });
    then(findingsOf(answer));
  });
}

/** /review: the change read, the turn started and narrowed, its findings said in the transcript once it ends. */
export function reviewFor(bus: Bus, workspace: string, agent: () => AgentContext) {
  return async (arg: string, start: (prompt: string, display: string) => number): Promise<string | null> => {
    const ready = await prepareReview(workspace, arg);
    if ('problem' in ready) return ready.problem;
    agent().narrowNext('a review', REVIEW_TOOLS);
    const turnId = start(ready.prompt, ready.display);
    watchFindings(bus, turnId, (outcome) => {
      if ('interrupted' in outcome) return;
      const lines = 'problem' in outcome ? [outcome.problem] : findingLines(outcome.findings, outcome.dropped);
      bus.emit('transcript.note', { text: sanitize(lines.join('\n')) });
    });
    return null;
  };
}

/** `milk run --review`'s flags: the range, the findings as JSON, the severity that fails the run. */
export interface ReviewFlags {
  readonly arg: string;
  readonly json: boolean;
  readonly failOn: Severity | null;
}

/** Exit codes of `milk run --review`, for CI. */
export const REVIEW_EXIT = { clean: 0, found: 1, error: 2 } as const;

/**
 * `milk run --review`: the review's turn, unattended; stdout gets the findings (a JSON list, or the summary and the
 * list), stderr what went wrong. 0: no finding at or above --fail-on (without it, whatever was found); 1: some; 2: an
 * error.
 */
export async function reviewOnce(
  parts: { bus: Bus; runner: TurnRunner; agent: AgentContext; workspace: string },
  flags: ReviewFlags,
  io: { out: NodeJS.WritableStream; err: NodeJS.WritableStream },
): Promise<number> {
  const say = (text: string): void => void io.err.write(`milk: ${sanitize(text)}\n`);
  const ready = await prepareReview(parts.workspace, flags.arg);
  if ('problem' in ready) {
    say(ready.problem);
    return REVIEW_EXIT.error;
  }
  parts.agent.narrowNext('a review', REVIEW_TOOLS);
  const onSigint = (): void => void parts.runner.cancel();
  process.on('SIGINT', onSigint);
  try {
    const outcome = await new Promise<ReviewOutcome>((resolve) => {
      const turnId = parts.runner.start(ready.prompt, {
        display: ready.display,
        segments: [{ type: 'text', text: ready.display }],
      });
      watchFindings(parts.bus, turnId, resolve);
    });
    if ('interrupted' in outcome) {
      say('interrupted');
      return 130;
    }
    if ('problem' in outcome) {
      say(outcome.problem);
      return REVIEW_EXIT.error;
    }
    if (flags.json) io.out.write(`${JSON.stringify(outcome.findings, null, 2)}\n`);
    else {
      if (outcome.summary) io.out.write(`${sanitize(outcome.summary)}\n\n`);
      io.out.write(`${sanitize(findingLines(outcome.findings, outcome.dropped).join('\n'))}\n`);
    }
    if (outcome.dropped) say(`${outcome.dropped} finding(s) not well formed, left out`);
    const failing = flags.failOn ? atOrAbove(outcome.findings, flags.failOn) : [];
    return failing.length > 0 ? REVIEW_EXIT.found : REVIEW_EXIT.clean;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

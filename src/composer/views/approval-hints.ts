// What a tool call's question offers, said in the transcript under the call: its choices on one line, and what each
// does once `?` asks (composer/views/approval.ts's view; tui/transcript-feed.ts shows them). Pure.

import type { CommandName } from './registry';

/** Hunk by hunk is offered from this many hunks: with one, y and n already take or refuse it. */
export const MIN_HUNKS = 2;

/** What a question offers, as the transcript's lines under its call say it. */
export interface Offered {
  readonly rule: string | null;
  readonly sandboxed: boolean;
  readonly unsandboxed: string | null;
  readonly fullAuto?: boolean;
  readonly hunks?: readonly string[];
}

/**
 * The lines under a call while its question is open: its choices on one line, what each does behind `?`; and, always,
 * a call that would run without the sandbox says so (what yes means then is no detail). `key` names a command's key
 * as bound.
 */
export function approvalChoices(q: Offered, key: (command: CommandName) => string): string[] {
  const choices = [
    `${key('approval.yes')} yes`,
    `${key('approval.no')} no`,
    `${key('approval.always')} always`,
    ...(q.rule ? [`${key('approval.rule')} rule`] : []),
    ...(q.sandboxed ? [`${key('approval.network')} network`] : []),
    ...(q.hunks && q.hunks.length >= MIN_HUNKS ? [`${key('approval.hunks')} hunks`] : []),
    // Full-auto's key answers this question too: said before anyone presses it.
    ...(q.fullAuto === false ? [`${key('app.toggleForce')} full-auto`] : []),
    `${key('approval.explain')} more`,
  ].join(' · ');
  return q.unsandboxed ? [choices, noSandbox(q.unsandboxed)] : [choices];
}

function noSandbox(why: string): string {
  return `no sandbox (${why}): yes runs it, and later commands this session, with your full rights`;
}

/**
 * What the answers would do, said in the transcript under the call once `?` asks (the status bar has no room); `key`
 * names a command's key as bound.
 */
export function approvalHints(q: Offered, key: (command: CommandName) => string): string[] {
  const hints = [`${key('approval.no')}: no, and the model is told · ${key('app.interrupt')}: stop the whole turn`];
  // Full-auto's key answers this question too: said before anyone presses it.
  if (q.fullAuto === false) hints.push(`${key('app.toggleForce')}: full-auto, yes to this call and every later one`);
  if (q.rule) hints.push(`${key('approval.rule')}: ${q.rule} run without asking from now on, in this workspace`);
  if (q.sandboxed)
    hints.push(`runs in the sandbox, without the network; ${key('approval.network')}: yes, with the network`);
  if (q.hunks && q.hunks.length >= MIN_HUNKS)
    hints.push(`${key('approval.hunks')}: take the change hunk by hunk (${q.hunks.length} hunks), as git add -p`);
  if (q.unsandboxed) hints.push(noSandbox(q.unsandboxed));
  return hints;
}

// What /status and /cost say, from the facts the app gathers: one view of
// where things stand, as Claude Code's and Codex's /status give it. Pure.

import { COMPACT_AT } from '../turn/compact';
import { type Tally, tallyText } from '../providers/pricing/cost';

/** What was spent: the last turn, this conversation (a resumed one's from its log) and this session. */
export interface Spent {
  readonly turn: Tally;
  readonly conversation: Tally;
  readonly session: Tally;
}

export interface StatusFacts {
  readonly session: string;
  readonly workspace: string;
  /** Directories added to the workspace (--add-dir, /add-dir). */
  readonly added?: readonly string[];
  readonly conversation: string;
  /** `openai · gpt-4o at http://…`, or the offline demo. */
  readonly model: string;
  readonly mode: string;
  readonly modeMeaning: string;
  readonly sandbox: string;
  readonly context: { readonly tokens: number; readonly window: number };
  readonly spent: Spent;
}

const n = (x: number): string => x.toLocaleString('en-US');

/** `12% (15,360 of 128,000 tokens)`. */
export function contextShare(c: { tokens: number; window: number }): string {
  const share = c.window > 0 ? Math.round((100 * c.tokens) / c.window) : 0;
  return `${share}% (${n(c.tokens)} of ${n(c.window)} tokens)`;
}

/** ` (6 requests)`; nothing where the money already said how many requests it covers (`for 1 of 6 requests`). */
const requests = (t: Tally): string =>
  t.priced > 0 && t.priced < t.requests ? '' : ` (${t.requests} request${t.requests === 1 ? '' : 's'})`;

/** /cost: the last turn, the conversation and the session, each in tokens and (where a price is known) money. */
export function costLines(spent: Spent): string[] {
  const s = spent.session;
  const c = spent.conversation;
  // A conversation taken up again has a cost before this session's first request.
  if (c.requests === 0 && s.requests === 0) return ['no request to a model yet this session'];
  const tally = (t: Tally): string => (t.requests === 0 ? 'nothing yet' : `${tallyText(t)}${requests(t)}`);
  const lines = [
    `last turn      ${tally(spent.turn)}`,
    `conversation   ${tally(c)}`,
    `session        ${tally(s)}`,
    'as the servers counted them; ↑ in, ↓ out and Σ both in the status bar',
  ];
  if (s.unpriced > 0 || c.unpriced > 0)
    lines.push(
      'no price is known for some models: tokens only for them (set one in config.json: ' +
        '"models": {"NAME": {"price": {"input": 3, "output": 15}}}, US dollars per million tokens)',
    );
  return lines;
}

export function statusLines(f: StatusFacts): string[] {
  return [
    `conversation  ${f.conversation} · session ${f.session}`,
    `workspace     ${f.workspace}`,
    ...(f.added?.length ? [`added dirs    ${f.added.join(', ')}`] : []),
    `model         ${f.model}`,
    `approval      ${f.mode} · ${f.modeMeaning}`,
    `sandbox       ${f.sandbox}`,
    `context       ${contextShare(f.context)} in use; compacted past ${Math.round(COMPACT_AT * 100)}%`,
    `spent         ${f.spent.session.requests === 0 ? 'nothing yet' : `${tallyText(f.spent.session)} this session`}`,
  ];
}

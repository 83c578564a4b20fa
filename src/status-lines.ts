// What /status and /cost say, from the facts the app gathers: one view of
// where things stand, as Claude Code's and Codex's /status give it. Pure.

import { COMPACT_AT } from './turn/compact';

export interface Spent {
  input: number;
  output: number;
  requests: number;
}

export interface StatusFacts {
  readonly session: string;
  readonly workspace: string;
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

export function costLines(spent: Spent): string[] {
  if (spent.requests === 0) return ['no request to a model yet this session'];
  return [
    `this session: ${n(spent.input)} tokens in, ${n(spent.output)} out, in ${spent.requests} ` +
      `request${spent.requests === 1 ? '' : 's'} (as the servers counted them; ↑ in, ↓ out and Σ both in the status ` +
      'bar)',
  ];
}

export function statusLines(f: StatusFacts): string[] {
  return [
    `conversation  ${f.conversation} · session ${f.session}`,
    `workspace     ${f.workspace}`,
    `model         ${f.model}`,
    `approval      ${f.mode} · ${f.modeMeaning}`,
    `sandbox       ${f.sandbox}`,
    `context       ${contextShare(f.context)} in use; compacted past ${Math.round(COMPACT_AT * 100)}%`,
    `tokens        ${costLines(f.spent)[0]}`,
  ];
}

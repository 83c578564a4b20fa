// The person's own status line, as data (app/status-line.ts runs it): the session's state as the JSON a command gets
// on its stdin, milk's own items as text, and what of a command's output the bar shows. Pure.

import type { StatusItem } from '../protocol/status-line';

/** What the status line is told of the session, read when it is asked for (after a turn, a mode change). */
export interface StatusFacts {
  readonly session: string;
  readonly conversation: string | null;
  readonly provider: string;
  readonly model: string | null;
  readonly workspace: string;
  readonly branch: string | null;
  readonly mode: string;
  /** The last turn's tokens in (of which cached) and out, and the conversation's total; null before any request. */
  readonly tokens: { input: number; output: number; cached: number; total: number } | null;
  /** The conversation's cost in US dollars, and as milk writes it; null where no price is known. */
  readonly usd: number | null;
  readonly money: string | null;
  /** The share of the model's window in use, in percent; null where it is not known. */
  readonly context: number | null;
  readonly version: string;
}

/** The JSON a status command reads on its stdin (docs/status-line.md lists the fields). */
export function statusPayload(f: StatusFacts): Record<string, unknown> {
  return {
    session_id: f.session,
    conversation_id: f.conversation,
    model: { id: f.model, provider: f.provider },
    workspace: { current_dir: f.workspace },
    git: { branch: f.branch },
    mode: f.mode,
    tokens: f.tokens,
    cost: f.usd === null ? null : { total_usd: f.usd, text: f.money },
    context: f.context === null ? null : { used_percent: f.context },
    version: f.version,
  };
}

const short = (n: number): string =>
  n < 1000 ? String(n) : n < 1_000_000 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1_000_000).toFixed(1)}M`;

/** One item's text, or null when the session has none yet (no branch, no request made). */
function itemText(item: StatusItem, f: StatusFacts): string | null {
  switch (item) {
    case 'model':
      return f.model ?? f.provider;
    case 'mode':
      return f.mode;
    case 'branch':
      return f.branch;
    case 'workspace':
      return f.workspace.split('/').filter(Boolean).pop() ?? f.workspace;
    case 'tokens':
      return f.tokens ? `${short(f.tokens.total)} tokens` : null;
    case 'cost':
      return f.money;
    case 'context':
      return f.context === null ? null : `${f.context}% context`;
  }
}

/** milk's own items, in the order given, those without a value left out. */
export function itemsText(items: readonly StatusItem[], f: StatusFacts): string {
  return items
    .map((i) => itemText(i, f))
    .filter((t): t is string => t !== null && t !== '')
    .join(' · ');
}

/** Characters of a command's line shown at most (the bar is one row; the rest would be cut anyway). */
export const MAX_LINE_CHARS = 200;

/** What the bar shows of a command's output: its first line, blanks at its ends taken off, cut. */
export function firstLine(stdout: string): string {
  const line = stdout.split(/\r?\n/, 1)[0] ?? '';
  return line.trim().slice(0, MAX_LINE_CHARS);
}

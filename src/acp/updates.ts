// What milk's turn looks like to an editor speaking the Agent Client Protocol: its calls as ACP tool calls (kind,
// title, where), its checklist as a plan, how a turn ended as a stop reason, a resumed conversation's lines as the
// updates that replay it. Pure: app/acp-session.ts hears the bus and sends what these make.

import type * as acp from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };
import type { ToolKind } from '../protocol/approvals';
import type { TodoItem } from '../protocol/checklist';
import type { ReplayItem } from '../protocol/replay';

/** ACP's kinds by milk's tool names where the name says more than what the tool does for approval. */
const KIND_BY_NAME: Readonly<Record<string, acp.ToolKind>> = {
  read_file: 'read',
  grep: 'search',
  glob: 'search',
  edit_file: 'edit',
  write_file: 'edit',
  shell: 'execute',
  web_fetch: 'fetch',
  todo: 'think',
  task: 'think',
};

const KIND_BY_APPROVAL: Readonly<Record<ToolKind, acp.ToolKind>> = {
  read: 'read',
  edit: 'edit',
  command: 'execute',
  network: 'fetch',
  other: 'other',
  state: 'other',
};

/** The kind an editor shows a call as (its icon): by the tool's name, else by what it does. */
export function toolKind(name: string, kind?: ToolKind): acp.ToolKind {
  return KIND_BY_NAME[name] ?? (kind ? KIND_BY_APPROVAL[kind] : 'other');
}

/** Where a call acts, as absolute paths (1-based lines where the call names one): the editor can follow it. */
export function locations(
  args: Readonly<Record<string, unknown>>,
  cwd: string,
  resolve: (cwd: string, p: string) => string,
): acp.ToolCallLocation[] {
  const p = args.path;
  if (typeof p !== 'string' || p === '') return [];
  const line = typeof args.offset === 'number' && Number.isInteger(args.offset) ? args.offset : undefined;
  return [{ path: resolve(cwd, p), ...(line !== undefined ? { line } : {}) }];
}

/** A call as the editor first hears of it, before anything ran; `title` in the words of its kind (`Run npm test`). */
export function pendingCall(
  call: { id: string; name: string; args: Readonly<Record<string, unknown>> },
  title: string,
  where: acp.ToolCallLocation[],
  kind?: ToolKind,
): acp.SessionUpdate {
  return {
    sessionUpdate: 'tool_call',
    toolCallId: call.id,
    title,
    kind: toolKind(call.name, kind),
    status: 'pending',
    ...(where.length ? { locations: where } : {}),
    rawInput: call.args,
  };
}

/** The first line of a call's block as milk heads it (`Edit app.js`, `$ npm test`): the editor's title for it. */
export function titleOf(detail: string): string {
  return (detail.split('\n', 1)[0] ?? '').trim();
}

const PLAN_STATUS: Readonly<Record<TodoItem['status'], acp.PlanEntryStatus>> = {
  pending: 'pending',
  in_progress: 'in_progress',
  done: 'completed',
};

/** The model's checklist as an ACP plan: the whole list each time, as the protocol wants. */
export function planOf(items: readonly TodoItem[]): acp.SessionUpdate {
  return {
    sessionUpdate: 'plan',
    entries: items.map((i) => ({ content: i.text, priority: 'medium', status: PLAN_STATUS[i.status] })),
  };
}

/** How a turn ended, as a prompt's stop reason; null: it failed (the prompt's answer is an error). */
export function stopReason(status: 'done' | 'interrupted' | 'error', limited: boolean): acp.StopReason | null {
  if (status === 'interrupted') return 'cancelled';
  if (status === 'error') return null;
  return limited ? 'max_turn_requests' : 'end_turn';
}

/** What milk asks about a call, as it asks it (app/acp-session.ts has it from the bus's `approval.asked`). */
export interface AskedCall {
  readonly tool: string;
  /** The rule an `r` would add, in words (settings/rules.ts' describeRule); null: none fits. */
  readonly rule: string | null;
  /** It runs in the sandbox, and may be let reach the network. */
  readonly sandboxed: boolean;
}

/**
 * milk's answers as ACP's permission options, in its question's order: y, a, r, w, n. Each option's id is milk's own
 * answer, so the editor's choice comes back as one. Hunk by hunk is not offered (an editor has no such question).
 */
export function permissionOptions(asked: AskedCall): acp.PermissionOption[] {
  return [
    { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
    { optionId: 'always', name: `Always allow ${asked.tool} (this session)`, kind: 'allow_always' },
    ...(asked.rule
      ? [{ optionId: 'rule', name: `Always for ${asked.rule}, saved`, kind: 'allow_always' as const }]
      : []),
    ...(asked.sandboxed ? [{ optionId: 'network', name: 'Yes, run with network', kind: 'allow_once' as const }] : []),
    { optionId: 'no', name: 'No', kind: 'reject_once' },
  ];
}

/** The editor's answer as milk's: an option it offered, else no (cancelled, or an id it never sent). */
export function answerOf(
  outcome: acp.RequestPermissionOutcome,
  offered: readonly acp.PermissionOption[],
): 'yes' | 'no' | 'always' | 'rule' | 'network' {
  if (outcome.outcome !== 'selected') return 'no';
  const picked = offered.find((o) => o.optionId === outcome.optionId);
  return picked ? (picked.optionId as 'yes' | 'always' | 'rule' | 'network' | 'no') : 'no';
}

const text = (t: string): acp.ContentBlock => ({ type: 'text', text: t });

/**
 * A resumed conversation's lines (session/replay.ts) as the updates an editor replays it from: what the person said,
 * what the model answered, each call with what it showed. Notes (interrupted, compacted) are the agent's words.
 */
export function replayUpdates(items: readonly { kind: ReplayItem['kind']; text: string }[]): acp.SessionUpdate[] {
  const out: acp.SessionUpdate[] = [];
  let call: string | null = null;
  let n = 0;
  for (const item of items) {
    if (item.kind === 'user') out.push({ sessionUpdate: 'user_message_chunk', content: text(item.text) });
    else if (item.kind === 'assistant') out.push({ sessionUpdate: 'agent_message_chunk', content: text(item.text) });
    else if (item.kind === 'tool' || item.kind === 'call') {
      call = `replay-${++n}`;
      out.push({
        sessionUpdate: 'tool_call',
        toolCallId: call,
        title: item.text,
        kind: item.kind === 'tool' ? 'execute' : 'other',
        status: / · declined$/.test(item.text) ? 'failed' : 'completed',
      });
    } else if ((item.kind === 'output' || item.kind === 'result') && call !== null)
      out.push({ sessionUpdate: 'tool_call_update', toolCallId: call, content: [contentOf(item.text)] });
    else out.push({ sessionUpdate: 'agent_message_chunk', content: text(`\n${item.text}\n`) });
  }
  return out;
}

/** Text as a tool call's content. */
export function contentOf(t: string): acp.ToolCallContent {
  return { type: 'content', content: text(t) };
}

/** A command's output kept for its tool call: the newest `max` characters (an editor is sent all of it each time). */
export function keptOutput(so: string, more: string, max: number): string {
  const all = so + more;
  return all.length <= max ? all : `[…]\n${all.slice(all.length - max)}`;
}

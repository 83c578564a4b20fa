// The tool calls of one model step, one at a time: each is found in the
// registry and its arguments checked (a call that cannot run as sent is
// refused and the model told why), decided by the approval mode and the
// rules (policy.ts), put to the person when the mode asks, with the change it
// would make (confirm.ts), run, a command in the sandbox where one can run
// (execute.ts), and answered: every call gets a result for the model, a
// refused, declined or failed one too (show.ts).

import type { Events } from '../../kernel/bus';
import type { ToolCall } from '../../protocol/tools';
import { prepare } from '../../tools/registry';
import { callHeading, describeCall, doneHeading } from '../../tools/visible';
import { sanitize } from '../../protocol/inert';
import type { ActiveTurn } from '../turn';
import type { ToolCallsOptions } from './options';
import { confinement, deniedPlaces, gate, unattendedWhy } from './policy';
import { detailOf, maskedWhy, unmasked } from './prepare';
import { askApproval } from './confirm';
import { execute, someHunks } from './execute';
import { type CallAnswer, DECLINED, type Show, failKnown, refuse } from './show';

export type { CallAnswer, Show } from './show';
export type { ToolCallsOptions, TurnSnapshots } from './options';

/** What an after_tool hook is shown of a call's answer, at most. */
const MAX_HOOK_RESULT = 100_000;

export class ToolCalls {
  constructor(private readonly o: ToolCallsOptions) {}

  /** A call's block in the transcript, by the turn's id. */
  onBus(turn: ActiveTurn): Show {
    return (name, payload) => this.o.bus.emit(name, { turnId: turn.id, ...payload } as Events[typeof name]);
  }

  /**
   * Answers one call: what the model is told, or null when the turn was stopped meanwhile (the runner answers it then).
   */
  async answer(turn: ActiveTurn, call: ToolCall, shown: Show = this.onBus(turn)): Promise<CallAnswer | null> {
    const o = this.o;
    // Each of the call's events names it: a front end without a screen (app/acp) follows a call by its id.
    const show: Show = (name, payload) => shown(name, { ...payload, callId: call.id });
    const prepared = prepare(o.registry.find(call.name), call);
    if (!prepared.ok) return refuse(show, o.settings.mode, call.name, prepared.why, 'invalid arguments');
    const { tool } = prepared;
    await o.rulesReady;
    if (turn.cancelled) return null;
    const gated = await gate(o, turn, tool, prepared.args, show);
    if (gated === null || 'answer' in gated) return gated && gated.answer;
    // Masked secrets (turn/secrets.ts) in the arguments are put back only for a call the person approves, seeing them.
    const masked = o.secrets?.placeholdersIn(JSON.stringify(gated.args)) ?? [];
    const args = masked.length > 0 ? unmasked(o, gated.args) : gated.args;
    let decision = masked.length > 0 ? 'ask' : gated.decision;
    const denied = await deniedPlaces(o);
    if (turn.cancelled) return null;
    const confined = tool.sandboxed ? await confinement(o) : { sandbox: false, agree: false };
    const guarded = tool.guard ? await tool.guard(args, o.workspace, (await o.controls?.()) ?? []) : null;
    if (turn.cancelled) return null;
    // A command that would run without the sandbox it should have runs only once the person agrees; a change to a
    // control file (what git or milk runs or reads as configuration), likewise.
    if (confined.agree || guarded) decision = 'ask';
    if (decision === 'ask' && o.unattended) {
      const why = masked.length > 0 ? maskedWhy(masked) : (guarded ?? unattendedWhy(o, confined));
      return refuse(show, o.settings.mode, tool.name, why, 'not allowed');
    }
    const subject = tool.subject(args);
    const summary = sanitize(describeCall(tool.name, subject));
    // A change shows what it would do before anyone is asked about it.
    const bounds = { hidden: o.hide, denied, also: o.settings.dirs };
    const preview = tool.preview ? await tool.preview(args, o.workspace, bounds) : null;
    if (turn.cancelled) return null;
    // Known to fail as sent (a file that is not there, an old_string it does not hold): no one is asked, nothing runs.
    const command = tool.kind === 'command';
    if (typeof preview === 'object' && preview !== null)
      return failKnown(show, { summary, detail: sanitize(callHeading(tool, subject)), command }, preview.fails);
    const detail = detailOf(o, { tool, subject }, preview, guarded, masked);
    const done = doneHeading(tool, subject);
    const block = { summary, detail, command, done: done === null ? null : sanitize(done) };
    let network = false;
    // A change to an existing file may be taken hunk by hunk at its question.
    const change = decision === 'ask' && tool.change ? await tool.change(args, o.workspace, bounds) : null;
    if (decision === 'ask') {
      const answer = await askApproval(o, turn, { tool, args, id: call.id }, { ...block, confined, change }, show);
      if (answer === null) return null;
      if (answer.approval === 'no') return { content: DECLINED, declined: true };
      network = answer.approval === 'network';
      if (change && answer.hunks && answer.hunks.some((t) => !t))
        return someHunks(o, turn, { ...block, denied }, { change, hunks: answer.hunks }, show);
    }
    // The workspace as it was before a command changes it: the turn's snapshot (taken at its first command). An MCP
    // server's tool counts as one: its process changes files behind the file tools' back.
    if (turn.seq >= 0 && (command || tool.kind === 'other')) await o.snapshots?.beforeCommand(turn.seq);
    else if (turn.seq >= 0 && tool.kind === 'edit') await o.snapshots?.beforeEdit(turn.seq);
    if (turn.cancelled) return null;
    const how = { ...block, sandbox: confined.sandbox, network, denied, asked: decision === 'ask' };
    const answer = await execute(o, turn, { tool, args }, how, show);
    const result = answer.content.slice(0, MAX_HOOK_RESULT);
    o.hooks?.fire('after_tool', { tool: tool.name, args, result }, tool.name);
    return answer;
  }
}

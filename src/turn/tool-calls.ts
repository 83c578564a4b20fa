// The tool calls of one model step, one at a time: each is found in the
// registry and its arguments checked (a call that cannot run as sent is
// refused and the model told why), decided by the approval mode and the
// rules, put to the person when the mode asks (with the change it would make),
// run (a command in the sandbox where one can run), and answered: every call
// gets a result for the model, a refused, declined or failed one too.

import type { Bus, Events } from '../kernel/bus';
import type { Settings } from '../settings/store';
import type { ToolCall } from '../protocol/tools';
import type { AnyTool, FileChange, ToolContext, WriteHooks } from '../tools/tool';
import { ToolRegistry, prepare, runTool } from '../tools/registry';
import { callDetail, describeCall, showControls } from '../tools/visible';
import { describeRule, suggestRule } from '../settings/rules';
import { DenyRule, describeDeny } from '../settings/deny';
import { denyingRule } from '../settings/deny-match';
import { deniedPlaces } from '../tools/deny-paths';
import * as path from 'node:path';
import type { Answered, Approvals, Questions } from './approvals';
import type { Decision } from '../settings/approval';
import type { ApprovalMode } from '../protocol/approvals';
import { Inert, sanitize } from '../protocol/inert';
import { StreamSanitizer } from '../kernel/stream-sanitizer';
import type { ActiveTurn } from './turn';
import type { ImagePart } from '../protocol/images';
import type { PersonAnswer } from '../protocol/questions';
import type { BackgroundShells } from '../tools/background';
import type { Subagents } from './subagent';
import type { Hooks } from './hook-runner';
import { mapStrings } from './secrets';
import { applyHunks, hunkReport } from '../tools/hunks';

export const DECLINED = 'The user declined to run this tool call.';

/** What the model is told of a call; `declined`: the person said no (the log marks it). */
export interface CallAnswer {
  readonly content: string;
  readonly declined: boolean;
  /** Images the tool returned (read_file on an image). */
  readonly images?: readonly ImagePart[];
}

const told = (content: string): CallAnswer => ({ content, declined: false });

/** Why a call was not run, as its block's status says; and what the model is told to do next. */
type Refusal = 'invalid arguments' | 'not allowed' | 'denied' | 'blocked by a hook';
const WHAT_NEXT: Record<Refusal, string> = {
  'invalid arguments': 'Send the call again with its complete arguments as one JSON object.',
  'not allowed': 'Do without it, or ask the person to change the mode.',
  denied: 'Do not try to reach the same end another way; if the task needs it, tell the person.',
  'blocked by a hook': "Do without it, or do it otherwise as the hook's reason says.",
};

/** What an after_tool hook is shown of a call's answer, at most. */
const MAX_HOOK_RESULT = 100_000;

export interface ToolCallsOptions {
  readonly bus: Bus;
  readonly settings: Settings;
  readonly registry: ToolRegistry;
  readonly approvals: Approvals;
  /** Commands the model started in the background (shell, shell_output, shell_kill, /shells). */
  readonly background?: BackgroundShells;
  /** Subagents for the task tool; absent within a subagent (no task within a task). */
  readonly subagents?: Subagents;
  /** What the model asks the person; absent where no one is there (milk run). */
  readonly questions?: Questions;
  /** Where tools run and what they may touch. */
  readonly workspace: string;
  /** The person's hooks: before_tool may block, refuse, approve or change a call; after_tool hears how it went. */
  readonly hooks?: Hooks;
  /** Folders a sandboxed command must not see (milk's data dir: its history may hold secrets). */
  readonly hide?: readonly string[];
  readonly killGraceMs?: number;
  /** No one is there to answer a question (milk run): a call that would ask is refused, saying so. */
  readonly unattended?: boolean;
  /** Settles once the workspace's approval rules are read: no call is decided before. */
  readonly rulesReady?: Promise<unknown>;
  /** Snapshots of the workspace (session/turn-changes.ts): only in a turn that runs a command, before the first. */
  readonly snapshots?: TurnSnapshots;

  /** This session's masked secrets (secrets.ts): the placeholders in a call's arguments, put back once approved. */
  readonly secrets?: {
    placeholdersIn(text: string): string[];
    unmask(text: string): string;
    hint(placeholder: string): string;
  };
  /** Keeps copies of the files a turn's tools change, for a rewind to put back. */
  readonly checkpoints?: { before(file: string, turn: number): Promise<void>; after(file: string): Promise<void> };
  /** Whether the sandbox can run commands here (tools/bwrap.ts, probed once). */
  readonly probeSandbox: () => Promise<{ ok: true } | { ok: false; why: string }>;
}

/** What the runner tells of a turn's life, so that the workspace's snapshots are taken when a turn needs them. */
export interface TurnSnapshots {
  /** A turn began; `commandsAlive`: a background command of the session runs, and may change files at any time. */
  turnStarted(seq: number, o: { commandsAlive: boolean }): void;
  turnEnded(seq: number): void;
  /** Before a command of turn `seq` runs: the turn's snapshot, taken the first time. */
  beforeCommand(seq: number): Promise<void>;
  /** Before a file tool changes a file: the turn's snapshot, if one is under way, finished first. */
  beforeEdit(seq: number): Promise<void>;
}

interface Confinement {
  /** The command runs in the sandbox. */
  readonly sandbox: boolean;
  /** No sandbox can run it: it runs only once the person agrees. */
  readonly agree: boolean;
}

/** The events of a call's block, without the turn's id. */
type CallEvents = {
  [K in 'tool.started' | 'tool.output' | 'tool.result' | 'tool.finished']: Omit<Events[K], 'turnId'>;
};

/**
 * Where a call's block goes: the bus (the transcript), a subagent's lines under its task, or a slot that waits for
 * the calls before it (calls run at once, shown one after the other).
 */
export type Show = <K extends keyof CallEvents>(name: K, payload: CallEvents[K]) => void;

export class ToolCalls {
  constructor(private readonly o: ToolCallsOptions) {}

  /** A call's block in the transcript, by the turn's id. */
  onBus(turn: ActiveTurn): Show {
    return (name, payload) => this.o.bus.emit(name, { turnId: turn.id, ...payload } as Events[typeof name]);
  }

  /**
   * Answers one call: what the model is told, or null when the turn was stopped meanwhile (the runner answers it then).
   */
  async answer(turn: ActiveTurn, call: ToolCall, show: Show = this.onBus(turn)): Promise<CallAnswer | null> {
    const prepared = prepare(this.o.registry.find(call.name), call);
    if (!prepared.ok) return told(this.refuse(show, call.name, prepared.why, 'invalid arguments'));
    const { tool } = prepared;
    await this.o.rulesReady;
    if (turn.cancelled) return null;
    const gate = await this.gate(turn, tool, prepared.args, show);
    if (gate === null || 'answer' in gate) return gate && gate.answer;
    // Masked secrets (secrets.ts) in the arguments are put back only for a call the person approves, seeing them.
    const masked = this.o.secrets?.placeholdersIn(JSON.stringify(gate.args)) ?? [];
    const args = masked.length > 0 ? this.unmasked(gate.args) : gate.args;
    let decision = masked.length > 0 ? 'ask' : gate.decision;
    const denied = await this.deniedPlaces();
    if (turn.cancelled) return null;
    const confined = tool.sandboxed ? await this.confinement() : { sandbox: false, agree: false };
    const guarded = tool.guard ? await tool.guard(args, this.o.workspace) : null;
    if (turn.cancelled) return null;
    // A command that would run without the sandbox it should have runs only once the person agrees; a change to what
    // git runs code from, likewise.
    if (confined.agree || guarded) decision = 'ask';
    if (decision === 'ask' && this.o.unattended) {
      const why = masked.length > 0 ? maskedWhy(masked) : (guarded ?? this.unattendedWhy(confined));
      return told(this.refuse(show, tool.name, why, 'not allowed'));
    }
    const subject = tool.subject(args);
    const summary = sanitize(describeCall(tool.name, subject));
    // A change shows what it would do before anyone is asked about it.
    const also = this.o.settings.dirs;
    const bounds = { hidden: this.o.hide, denied, also };
    const preview = tool.preview ? await tool.preview(args, this.o.workspace, bounds) : null;
    if (turn.cancelled) return null;
    // Known to fail as sent (a file that is not there, an old_string it does not hold): no one is asked, nothing runs.
    if (typeof preview === 'object' && preview !== null)
      return told(this.failKnown(show, summary, sanitize(callDetail(tool.name, subject)), preview.fails));
    const detail = this.detailOf(tool.name, subject, preview, guarded, masked);
    let network = false;
    // A change to an existing file may be taken hunk by hunk at its question.
    const change = decision === 'ask' && tool.change ? await tool.change(args, this.o.workspace, bounds) : null;
    let taken: readonly boolean[] | null = null;
    if (decision === 'ask') {
      const answer = await this.ask(turn, tool, args, { summary, detail, confined, change }, show);
      if (answer === null) return null;
      if (answer.approval === 'no') return { content: DECLINED, declined: true };
      network = answer.approval === 'network';
      if (change && answer.hunks && answer.hunks.some((t) => !t)) taken = answer.hunks;
    }
    if (change && taken) return this.someHunks(turn, { summary, detail, denied }, change, taken, show);
    // The workspace as it was before a command changes it: the turn's snapshot (taken at its first command). An MCP
    // server's tool counts as one: its process changes files behind the file tools' back.
    const command = tool.kind === 'command' || tool.kind === 'other';
    if (turn.seq >= 0 && command) await this.o.snapshots?.beforeCommand(turn.seq);
    else if (turn.seq >= 0 && tool.kind === 'edit') await this.o.snapshots?.beforeEdit(turn.seq);
    if (turn.cancelled) return null;
    const answer = await this.run(
      turn,
      tool,
      args,
      { summary, detail, sandbox: confined.sandbox, network, denied },
      show,
    );
    const result = answer.content.slice(0, MAX_HOOK_RESULT);
    this.o.hooks?.fire('after_tool', { tool: tool.name, args, result }, tool.name);
    return answer;
  }

  /**
   * The person's deny rules first (no mode, allow rule, answer or hook lifts them), the mode, then the before_tool
   * hooks: the call's arguments and what happens to it, or its answer; null when the turn was stopped meanwhile.
   */
  private async gate(
    turn: ActiveTurn,
    tool: AnyTool,
    args: Record<string, unknown>,
    show: Show,
  ): Promise<null | { answer: CallAnswer } | { args: Record<string, unknown>; decision: Decision }> {
    const judged = this.judge(tool, args, show);
    if ('answer' in judged) return judged;
    const hooks = this.o.hooks;
    if (!hooks?.has('before_tool', tool.name)) return { args, decision: judged.decision };
    const v = await hooks.beforeTool(tool.name, args, turn.controller.signal);
    if (turn.cancelled) return null;
    if (v.kind === 'block' || v.kind === 'refuse') {
      const why = `a before_tool hook ${v.kind === 'block' ? 'blocked' : 'refused'} it: ${v.reason}`;
      return { answer: told(this.refuse(show, tool.name, why, 'blocked by a hook')) };
    }
    const approve = (d: Decision): Decision => (v.kind === 'approve' && d === 'ask' ? 'run' : d);
    if (!('args' in v) || !v.args) return { args, decision: approve(judged.decision) };
    const again = prepare(tool, { id: 'hook', name: tool.name, args: v.args });
    if (!again.ok) {
      const why = `a before_tool hook gave it arguments that are not valid: ${again.why}`;
      return { answer: told(this.refuse(show, tool.name, why, 'invalid arguments')) };
    }
    // What the hook made is judged again: a deny rule or the mode may stop it.
    const now = this.judge(tool, again.args, show);
    return 'answer' in now ? now : { args: again.args, decision: approve(now.decision) };
  }

  /** The deny rules, then the mode, the rules and the "always" answers. */
  private judge(
    tool: AnyTool,
    args: Record<string, unknown>,
    show: Show,
  ): { answer: CallAnswer } | { decision: Decision } {
    const denied = this.deniedBy(tool, args);
    if (denied !== null) return { answer: told(this.refuse(show, tool.name, denied, 'denied')) };
    const s = this.o.settings;
    const decision = s.decide({ tool: tool.name, kind: tool.kind, command: tool.ruleText?.(args) });
    if (decision === 'refuse')
      return { answer: told(this.refuse(show, tool.name, notAllowed(s.mode, tool.name), 'not allowed')) };
    return { decision };
  }

  /** Why the deny rules stop this call (settings/deny-match.ts), or null. */
  private deniedBy(tool: AnyTool, args: Record<string, unknown>): string | null {
    const s = this.o.settings;
    if (s.deny.length === 0) return null;
    const text = tool.ruleText?.(args);
    const ws = this.o.workspace;
    // A command's words are paths too: `cat secrets/key` is stopped by its name (the sandbox hides it as well).
    const named = tool.kind === 'command' && text ? text.replace(/["'\\]/g, '').split(/[\s;&|()<>`=]+/) : [];
    const paths = [...(tool.paths?.(args) ?? []), ...named.filter(Boolean)].map((p) =>
      path.relative(ws, path.resolve(ws, p)).split(path.sep).join('/'),
    );
    return this.denialOf(denyingRule(s.deny, { tool: tool.name, text, paths }));
  }

  private denialOf(rule: DenyRule | null): string | null {
    if (rule === null) return null;
    const s = this.o.settings;
    const whose = s.runRules.deny.includes(rule)
      ? 'a deny rule given for this run (--deny-tool)'
      : s.projectRules.deny.includes(rule)
        ? "a deny rule of the workspace's .milk/settings.json"
        : "the person's deny rule for this workspace";
    return `it is stopped by ${whose}: ${describeDeny(rule)}`;
  }

  /** What path deny rules name now (found as the call is about to run). */
  private async deniedPlaces(): Promise<readonly string[]> {
    const globs = this.o.settings.deny.flatMap((r) => ('path' in r ? [r.path] : []));
    if (globs.length === 0) return [];
    const { places } = await deniedPlaces(this.o.workspace, globs).catch(() => ({ places: [] as string[] }));
    return places;
  }

  private unattendedWhy(confined: Confinement): string {
    const s = this.o.settings;
    return confined.agree
      ? `no sandbox can run here (${s.sandboxBroken}) and no one is there to agree to running it without one (milk ` +
          `run; --sandbox off runs commands unconfined)`
      : `it needs the person's approval in ${s.mode} mode, and no one is there to give it (milk run; --approval ` +
          `auto-edit or full-auto lets such calls run)`;
  }

  private async run(
    turn: ActiveTurn,
    tool: AnyTool,
    args: Record<string, unknown>,
    how: { summary: Inert; detail: Inert; sandbox: boolean; network: boolean; denied: readonly string[] },
    show: Show,
  ): Promise<CallAnswer> {
    const { bus, subagents } = this.o;
    show('tool.started', { summary: how.summary, detail: how.detail, declined: false });
    const output = new StreamSanitizer();
    let streamed = false;
    const ctx: ToolContext = {
      workspace: this.o.workspace,
      sandbox: how.sandbox ? { network: how.network, hide: [...(this.o.hide ?? []), ...how.denied] } : null,
      hidden: this.o.hide,
      deniedPlaces: how.denied,
      also: this.o.settings.dirs,
      denied: (host) => this.denialOf(denyingRule(this.o.settings.deny, { tool: tool.name, text: host })),
      writes: this.writeHooks(turn),
      killGraceMs: this.o.killGraceMs,
      checklist: (items) => bus.emit('checklist.changed', { items }),
      background: this.o.background,
      subagent: subagents ? (req, line) => subagents.run(turn, req, line) : undefined,
      ask: this.o.unattended ? undefined : (q) => this.askPerson(turn, q),
      onOutput: (text) => {
        streamed = true;
        const shown = output.push(text);
        if (shown && !turn.cancelled) show('tool.output', { text: shown });
      },
    };
    const result = await runTool(tool, args, ctx, turn.controller.signal);
    // A tool that streamed nothing (a read, a search) shows what the model got, as a resumed conversation does.
    if (!turn.cancelled && !streamed && result.content) show('tool.result', { text: sanitize(result.content) });
    // A failure shown as its result says why there; the block's header says only that it failed.
    const status = result.status === undefined || (!streamed && !result.ok) ? undefined : sanitize(result.status);
    if (!turn.cancelled) show('tool.finished', { ok: result.ok, status });
    return result.images?.length ? { ...told(result.content), images: result.images } : told(result.content);
  }

  /** Puts the model's question (or plan) to the person: their answer, or null when the turn was stopped. */
  private async askPerson(
    turn: ActiveTurn,
    q: { question: string; options: readonly string[]; plan?: string },
  ): Promise<PersonAnswer | null> {
    const questions = this.o.questions;
    if (!questions) return { kind: 'dismissed' };
    const answer = await questions.ask(
      {
        turnId: turn.id,
        question: sanitize(q.question),
        options: q.options.map((o) => sanitize(o)),
        ...(q.plan === undefined ? {} : { plan: sanitize(q.plan) }),
      },
      turn.controller.signal,
    );
    return answer === 'interrupted' || turn.cancelled ? null : answer;
  }

  /** A call that would fail as sent: shown as a failed block with why, once; the model told what a run would say. */
  private failKnown(show: Show, summary: Inert, detail: Inert, why: string): string {
    const content = `error: ${why}`;
    show('tool.started', { summary, detail, declined: false });
    show('tool.result', { text: sanitize(content) });
    show('tool.finished', { ok: false });
    return content;
  }

  /**
   * Where a command runs: in the sandbox, or (off, or unable to run here)
   * without it, then only once the person agrees. The first command to find
   * the sandbox unable to run says so, once.
   */
  private async confinement(): Promise<Confinement> {
    const s = this.o.settings;
    if (s.sandbox === 'off') return { sandbox: false, agree: false };
    const probe = await this.o.probeSandbox();
    if (probe.ok) return { sandbox: true, agree: false };
    if (s.sandboxBroken === null) {
      s.sandboxCannotRun(probe.why);
      const text =
        `no sandbox for commands: ${probe.why}. A command runs with your full rights only once you agree ` +
        `(yes at its question; --sandbox off stops asking).`;
      this.o.bus.emit('transcript.note', { text: sanitize(text), reveal: true });
    }
    return { sandbox: false, agree: !s.unsandboxedAgreed };
  }

  /**
   * Puts a call to the person; what they answered (the answer's side effects done), or null when the turn was stopped.
   */
  private async ask(
    turn: ActiveTurn,
    tool: AnyTool,
    args: Record<string, unknown>,
    q: { summary: Inert; detail: Inert; confined: Confinement; change: FileChange | null },
    show: Show,
  ): Promise<Answered | null> {
    const s = this.o.settings;
    const rule = suggestRule(tool.name, tool.ruleText?.(args));
    const answered = await this.o.approvals.ask(
      {
        turnId: turn.id,
        summary: q.summary,
        detail: q.detail,
        tool: tool.name,
        rule: rule && sanitize(describeRule(rule)),
        sandboxed: q.confined.sandbox,
        unsandboxed: q.confined.agree ? sanitize(s.sandboxBroken ?? 'the sandbox cannot run here') : null,
        fullAuto: s.force,
        ...(q.change && q.change.hunks.length > 1 ? { hunks: q.change.hunks.map((h) => sanitize(h.text)) } : {}),
      },
      turn.controller.signal,
    );
    if (answered === 'interrupted' || turn.cancelled) return null;
    const answer = answered.approval;
    if (answer === 'no') {
      show('tool.started', { summary: q.summary, detail: q.detail, declined: true });
      return answered;
    }
    if (q.confined.agree) s.agreeUnsandboxed();
    if (answer === 'always') s.allowAlways(tool.name);
    if (answer === 'rule' && rule && s.addRule(rule)) {
      this.o.bus.emit('transcript.note', {
        text: sanitize(
          `from now on in this workspace, ${describeRule(rule)} run without asking (/permissions lists and removes ` +
            `rules)`,
        ),
      });
    }
    return answered;
  }

  /** A call that cannot be run as sent: shown as a failed block, and the model told why; nobody is asked about it. */
  private refuse(show: Show, name: string, why: string, status: Refusal): string {
    const summary = sanitize(`${name}: not run`);
    show('tool.started', {
      summary,
      detail: sanitize(`${name} call not run: ${why}`),
      declined: false,
    });
    show('tool.finished', { ok: false, status: sanitize(status) });
    const next =
      status === 'not allowed' && this.o.settings.mode === 'plan'
        ? 'Go on reading and searching; when the plan is ready, put it to the person with propose_plan.'
        : WHAT_NEXT[status];
    return `error: this ${name} call was not run: ${why}. ${next}`;
  }

  /**
   * Some of a change's hunks taken: the file gets the old text with those applied (written as write_file writes,
   * checkpoints and snapshots included), unless it changed since the question; the model is told which.
   */
  private async someHunks(
    turn: ActiveTurn,
    how: { summary: Inert; detail: Inert; denied: readonly string[] },
    change: FileChange,
    taken: readonly boolean[],
    show: Show,
  ): Promise<CallAnswer | null> {
    const write = this.o.registry.find('write_file');
    if (!write) return told(this.refuse(show, 'write_file', 'there is no write_file tool here', 'not allowed'));
    const now = await write.change?.({ path: change.path, content: change.after }, this.o.workspace);
    if (now && now.before !== change.before) {
      const why = `${change.path} changed while the question was open; nothing was written (ask again)`;
      return told(this.refuse(show, 'edit', why, 'invalid arguments'));
    }
    const content = applyHunks(change.before.split('\n'), change.hunks, taken).join('\n');
    if (turn.seq >= 0) await this.o.snapshots?.beforeEdit(turn.seq);
    const args = { path: change.path, content };
    const answer = await this.run(turn, write, args, { ...how, sandbox: false, network: false }, show);
    return { ...answer, content: `${answer.content}\n${hunkReport(change.path, change.hunks, taken)}` };
  }

  /** What the call's block and question show: the call, the change it makes, and why it is asked about. */
  private detailOf(
    name: string,
    subject: string,
    preview: string | null,
    guarded: string | null,
    masked: readonly string[],
  ): Inert {
    return sanitize(
      (preview === null ? callDetail(name, subject) : `${callDetail(name, subject)}\n${showControls(preview)}`) +
        (guarded ? `\n(${guarded})` : '') +
        (masked.length > 0 ? `\n(${this.puttingBack(masked)})` : ''),
    );
  }

  /** The arguments with this session's masked secrets back as their values. */
  private unmasked(args: Record<string, unknown>): Record<string, unknown> {
    const secrets = this.o.secrets;
    return secrets ? (mapStrings(args, (t) => secrets.unmask(t)) as Record<string, unknown>) : args;
  }

  /** What the question says of the secrets a call puts back: each placeholder and enough of its value to know it. */
  private puttingBack(masked: readonly string[]): string {
    const secrets = this.o.secrets;
    const each = masked.map((p) => `${p} = ${secrets?.hint(p) ?? '?'}`).join(', ');
    return `puts back masked secret${masked.length === 1 ? '' : 's'}: ${each}`;
  }

  /** Copies of the files this turn changes, for a rewind. */
  private writeHooks(turn: ActiveTurn): WriteHooks | undefined {
    const cp = this.o.checkpoints;
    if (!cp || turn.seq < 0) return undefined;
    return { before: (file) => cp.before(file, turn.seq), after: (file) => cp.after(file) };
  }
}

/** Why a call with masked secrets is refused where no one can approve it (milk run). */
function maskedWhy(masked: readonly string[]): string {
  return (
    `it holds masked secrets (${masked.join(', ')}), whose values are put back only for a call the person approves, ` +
    'and no one is there to approve it'
  );
}

/** Why a call is refused by the mode in force: plan mode says what it waits for. */
function notAllowed(mode: ApprovalMode, tool: string): string {
  return mode === 'plan'
    ? `milk is in plan mode, where ${tool} is not allowed: no file changes and no commands until the person ` +
        `accepts a plan`
    : `the person set milk to ${mode} mode, where ${tool} is not allowed`;
}

// A tool call waiting for y / n / a. The question answers only after a pause
// in typing: until then every key, text and paste falls through to whatever
// is beneath (someone typing as it appears types on into the composer), and
// Shift+Tab only changes the mode for later calls. Once it is answerable a
// lone y, n or a answers; any other text (another letter, an IME commit, a
// text expander) still goes to the composer; Ctrl-C, Ctrl-Z and Ctrl+L keep
// their meaning, and other keys do nothing until it is answered.

import type { Approval } from '../../settings/approval';
import type { CommandName, KeyNames } from '../../commands';
import type { ComposerInput, ComposerState } from '../state';
import { Handled, View, ViewContext, ViewSpec, consume, pass } from './view';
import { reduce } from '../reducer';
import { Inert, sanitize } from '../../inert';

export const APPROVAL_SPEC: ViewSpec = {
  letters: true,
  keys: [
    { keys: ['y'], command: 'approval.yes' },
    { keys: ['n', 'escape'], command: 'approval.no' },
    { keys: ['a'], command: 'approval.always' },
    { keys: ['r'], command: 'approval.rule' },
    { keys: ['w'], command: 'approval.network' },
    { keys: ['C-c'], command: 'app.interrupt' },
    { keys: ['S-tab'], command: 'app.toggleForce' },
    { keys: ['C-z'], command: 'app.suspend' },
    { keys: ['C-l'], command: 'app.redraw' },
  ],
};

/**
 * A key answers only after a pause: none pressed for this long, counted from
 * the later of the question appearing and the last key.
 */
export const APPROVAL_PAUSE_MS = 400;

export function approvalAnswerable(q: { shownAt: number; lastKeyAt: number; now: number }): boolean {
  return q.now - Math.max(q.shownAt, q.lastKeyAt) >= APPROVAL_PAUSE_MS;
}

/** What the view needs of a question (the bus's approval.asked). */
export interface ApprovalQuestion {
  readonly requestId: number;
  readonly turnId: number;
  readonly summary: string;
  readonly tool: string;
  readonly rule: string | null;
  readonly sandboxed: boolean;
}

/**
 * What the answers would do, said in the transcript while the question is
 * open (the status bar has no room); `key` names a command's key as bound.
 */
export function approvalHints(
  q: { rule: string | null; sandboxed: boolean; unsandboxed: string | null; fullAuto?: boolean },
  key: (command: CommandName) => string,
): string[] {
  const hints = [`${key('approval.no')}: no, and the model is told · ${key('app.interrupt')}: stop the whole turn`];
  // Full-auto's key answers this question too: said before anyone presses it.
  if (q.fullAuto === false) hints.push(`${key('app.toggleForce')}: full-auto, yes to this call and every later one`);
  if (q.rule) hints.push(`${key('approval.rule')}: ${q.rule} run without asking from now on, in this workspace`);
  if (q.sandboxed)
    hints.push(`runs in the sandbox, without the network; ${key('approval.network')}: yes, with the network`);
  if (q.unsandboxed)
    hints.push(`no sandbox (${q.unsandboxed}): yes runs it, and later commands this session, with your full rights`);
  return hints;
}

/** What the composer beneath still does while the question is answerable. */
const PASSES: ReadonlySet<CommandName> = new Set<CommandName>(['app.interrupt', 'app.suspend', 'app.redraw']);

export class ApprovalView implements View {
  readonly mode = 'approval' as const;

  readonly requestId: number;
  readonly turnId: number;
  readonly summary: string;
  readonly tool: string;
  /** `r` adds a rule for calls like this one. */
  readonly rule: boolean;
  /** `w` runs the command with the network (it runs in the sandbox). */
  readonly network: boolean;

  /** `q`: the question as the engine asked it (turn/approvals.ts); `shownAt`: when it appeared. */
  constructor(
    q: ApprovalQuestion,
    readonly shownAt: number,
  ) {
    this.requestId = q.requestId;
    this.turnId = q.turnId;
    this.summary = q.summary;
    this.tool = q.tool;
    this.rule = q.rule !== null;
    this.network = q.sandboxed;
  }

  ready(time: { now: number; lastKeyAt: number }): boolean {
    return approvalAnswerable({ shownAt: this.shownAt, ...time });
  }

  keyMode(time: { now: number; lastKeyAt: number }): 'approval' | null {
    return this.ready(time) ? 'approval' : null;
  }

  handle(input: ComposerInput, composer: ComposerState, ctx: ViewContext): Handled {
    if (input.kind === 'turnEnded') return { view: input.turnId === this.turnId ? null : this, consumed: false };
    // Text is typing, for the composer: y, n and a reach this view as commands (the router maps a
    // lone letter), so a letter here is none of them, and text in one chunk (`okay`) is never an answer.
    if (!this.ready(ctx) || input.kind !== 'command') return pass(this);
    // r and w where the question offers no rule or network are letters like any other: typing.
    const letter =
      (input.name === 'approval.rule' && !this.rule && 'r') ||
      (input.name === 'approval.network' && !this.network && 'w');
    if (letter) {
      const typed = reduce(composer, { kind: 'text', text: letter }, ctx);
      return consume(this, { composer: typed.state, effects: typed.effects });
    }
    return this.command(input.name, ctx);
  }

  private command(name: CommandName, ctx: ViewContext): Handled {
    switch (name) {
      case 'approval.yes':
        return this.answer('yes');
      case 'approval.no':
        return this.answer('no');
      case 'approval.always':
        return this.answer('always');
      case 'approval.rule':
        return this.answer('rule');
      case 'approval.network':
        return this.answer('network');
      case 'app.toggleForce':
        // Force on, after the pause, answers this call too; off changes only later calls.
        if (ctx.force) return pass(this);
        return consume(null, {
          effects: [
            { type: 'setForce', on: true },
            { type: 'answer', requestId: this.requestId, approval: 'yes' },
          ],
        });
      default:
        return PASSES.has(name) ? pass(this) : consume(this);
    }
  }

  private answer(approval: Approval): Handled {
    return consume(null, { effects: [{ type: 'answer', requestId: this.requestId, approval }] });
  }

  status(time: { now: number; lastKeyAt: number }, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const k = (command: CommandName): string => keys.key('approval', command);
    const legend = [
      `${k('approval.yes')} yes`,
      `${k('approval.no')} no`,
      `${k('approval.always')} always`,
      ...(this.rule ? [`${k('approval.rule')} rule`] : []),
      ...(this.network ? [`${k('approval.network')} network`] : []),
    ].join(' · ');
    return {
      prompt: sanitize(`run ${this.summary}?`),
      legend: sanitize(this.ready(time) ? legend : 'typing goes to the input; pause to answer'),
    };
  }
}

// A tool call waiting for y / n / a. The question answers only after a pause
// in typing: until then every key, text and paste falls through to whatever
// is beneath (someone typing as it appears types on into the composer), and
// Shift+Tab only changes the mode for later calls. Once it is answerable it
// owns the keyboard: a lone y, n or a (r, w, h where offered) answers; any
// other typing is refused with a hint and never typed, so no stray letter is
// left after the answer; Backspace, Ctrl-U, Ctrl-W and the cursor keys still
// edit the composer (to take out what was typed before), PageUp/PageDown
// scroll the transcript, a paste goes to the composer; Ctrl-C, Ctrl-Z and
// Ctrl+L keep their meaning, and other keys do nothing until it is answered.

import type { Approval } from '../../protocol/approvals';
import type { CommandName, KeyNames } from './registry';
import type { ComposerInput, ComposerState } from '../state';
import { Handled, PaintContext, View, ViewContext, ViewPaint, consume, opensOn, pass, viewSpec } from './view';
import { GridRow, Style, fit } from '../../kernel/rows';
import { type Inert, linesOf, sanitize } from '../../protocol/inert';
import { MIN_HUNKS } from './approval-hints';

export const APPROVAL_SPEC = viewSpec({
  mode: 'approval',
  letters: true,
  commands: {
    'approval.yes': { description: 'Run this tool call' },
    'approval.hunks': {
      description: 'Take the change hunk by hunk, as git add -p: {hunks.take} or {hunks.skip} for each',
    },
    'approval.no': { description: 'Do not run it (the model is told)' },
    'approval.always': {
      description: 'Run it, and every call of this tool for the rest of the session',
    },
    'approval.network': {
      description: 'Run the command in the sandbox with the network (this call only)',
    },
    'approval.rule': {
      description:
        'Run it, and from now on in this workspace every call the rule covers (for a command: the same first words)',
    },
    'approval.explain': { description: 'Say under the call what each answer does' },
  },
  opens: opensOn('approval.asked', askApproval),
  keys: [
    { keys: ['y'], command: 'approval.yes' },
    { keys: ['n', 'escape'], command: 'approval.no' },
    { keys: ['a'], command: 'approval.always' },
    { keys: ['r'], command: 'approval.rule' },
    { keys: ['w'], command: 'approval.network' },
    { keys: ['h'], command: 'approval.hunks' },
    { keys: ['?'], command: 'approval.explain' },
    { keys: ['C-c'], command: 'app.interrupt' },
    { keys: ['S-tab'], command: 'app.toggleForce' },
    { keys: ['C-z'], command: 'app.suspend' },
    { keys: ['C-l'], command: 'app.redraw' },
  ],
});

/** The keys while a change is taken hunk by hunk (h at its question). */
export const HUNKS_SPEC = viewSpec({
  mode: 'hunks',
  letters: true,
  commands: {
    'hunks.take': { description: 'Take this hunk into the file' },
    'hunks.skip': { description: 'Leave this hunk out (the model is told)' },
    'hunks.back': { description: 'Back to the question, every hunk undecided' },
  },
  keys: [
    { keys: ['y'], command: 'hunks.take' },
    { keys: ['n'], command: 'hunks.skip' },
    { keys: ['escape', 'q'], command: 'hunks.back' },
    { keys: ['C-c'], command: 'app.interrupt' },
  ],
});

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
  /** A change to an existing file, as hunks (each as shown) to take one by one with h. */
  readonly hunks?: readonly string[];
}

/** Taking a change hunk by hunk: the hunk shown, and what was said of those before it. */
interface Picking {
  readonly at: number;
  readonly taken: readonly boolean[];
}

/** What the composer beneath still does while the question is answerable: stop, suspend, redraw, edit and scroll. */
const PASSES: ReadonlySet<CommandName> = new Set<CommandName>([
  'app.interrupt',
  'app.suspend',
  'app.redraw',
  'editor.backspace',
  'editor.delete',
  'editor.killLineStart',
  'editor.killLineEnd',
  'editor.killWordBack',
  'editor.killAlnumWordBack',
  'editor.killWordForward',
  'editor.left',
  'editor.right',
  'editor.lineStart',
  'editor.lineEnd',
  'editor.wordLeft',
  'editor.wordRight',
  'editor.undo',
  'editor.redo',
  'transcript.pageUp',
  'transcript.pageDown',
]);

export class ApprovalView implements View {
  readonly mode = 'approval' as const;
  readonly pauseMs = APPROVAL_PAUSE_MS;

  readonly requestId: number;
  readonly turnId: number;
  readonly summary: string;
  readonly tool: string;
  /** `r` adds a rule for calls like this one. */
  readonly rule: boolean;
  /** `w` runs the command with the network (it runs in the sandbox). */
  readonly network: boolean;

  /** `h` takes the change hunk by hunk. */
  readonly hunks: readonly string[];

  /** `q`: the question as the engine asked it (turn/approvals.ts); `shownAt`: when it appeared. */
  constructor(
    private readonly q: ApprovalQuestion,
    readonly shownAt: number,
    private readonly picking: Picking | null = null,
    /** Why the last key was refused, said before the question until the next key. */
    private readonly said: string | null = null,
    /** A key came after the pause: the question owns the keyboard until it is answered, however fast the next. */
    private readonly armed = false,
  ) {
    this.hunks = q.hunks ?? [];
    this.requestId = q.requestId;
    this.turnId = q.turnId;
    this.summary = q.summary;
    this.tool = q.tool;
    this.rule = q.rule !== null;
    this.network = q.sandboxed;
  }

  ready(time: { now: number; lastKeyAt: number }): boolean {
    return this.armed || approvalAnswerable({ shownAt: this.shownAt, ...time });
  }

  keyMode(time: { now: number; lastKeyAt: number }): 'approval' | 'hunks' | null {
    if (this.picking) return 'hunks';
    return this.ready(time) ? 'approval' : null;
  }

  handle(input: ComposerInput, _composer: ComposerState, ctx: ViewContext): Handled {
    if (input.kind === 'turnEnded') return { view: input.turnId === this.turnId ? null : this, consumed: false };
    if (this.picking) return this.pick(input);
    if (!this.ready(ctx)) return pass(this);
    // y, n and a reach this view as commands (the router maps a lone letter): text is any other letter, or text in
    // one chunk (`okay`, an IME's), which is never an answer, and never typed while the question waits.
    if (input.kind === 'text') return this.refuse('not typed: answer first');
    // What was said of the key before goes with the next one.
    const self = this.said === null && this.armed ? this : new ApprovalView(this.q, this.shownAt, null, null, true);
    if (input.kind !== 'command') return pass(self);
    const unoffered = this.unoffered(input.name);
    if (unoffered) return this.refuse(unoffered);
    return self.command(input.name, ctx);
  }

  /** Why an answer this question does not offer is none here (r with no rule, w outside the sandbox, h), or null. */
  private unoffered(name: CommandName): string | null {
    if (name === 'approval.rule' && !this.rule) return 'no rule fits this call: y, n or a';
    if (name === 'approval.network' && !this.network) return 'this call does not run in the sandbox: y, n or a';
    if (name !== 'approval.hunks' || this.hunks.length >= MIN_HUNKS) return null;
    return this.hunks.length === 1 ? 'one hunk: y takes it, n refuses it' : 'no hunks to take one by one: y, n or a';
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
      case 'approval.hunks':
        return consume(new ApprovalView(this.q, this.shownAt, { at: 0, taken: [] }));
      case 'approval.explain':
        return consume(this, { effects: [{ type: 'explainApproval', requestId: this.requestId }] });
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

  /** A key while the change is taken hunk by hunk: y takes the hunk shown, n leaves it out; the last one answers. */
  private pick(input: ComposerInput): Handled {
    const p = this.picking as Picking;
    if (input.kind !== 'command') return input.kind === 'text' || input.kind === 'paste' ? consume(this) : pass(this);
    if (input.name === 'app.interrupt') return pass(this);
    if (input.name === 'hunks.back') return consume(new ApprovalView(this.q, this.shownAt));
    if (input.name !== 'hunks.take' && input.name !== 'hunks.skip') return consume(this);
    const taken = [...p.taken, input.name === 'hunks.take'];
    if (taken.length < this.hunks.length)
      return consume(new ApprovalView(this.q, this.shownAt, { at: p.at + 1, taken }));
    // None taken is a no; all of them, a yes.
    const approval: Approval = taken.some(Boolean) ? 'yes' : 'no';
    return consume(null, { effects: [{ type: 'answer', requestId: this.requestId, approval, hunks: taken }] });
  }

  /** A key the question does not take, refused: said in the status bar, the question and the composer as they were. */
  private refuse(hint: string): Handled {
    return consume(new ApprovalView(this.q, this.shownAt, null, hint, true));
  }

  private answer(approval: Approval): Handled {
    return consume(null, { effects: [{ type: 'answer', requestId: this.requestId, approval }] });
  }

  status(time: { now: number; lastKeyAt: number }, keys: KeyNames): { prompt: Inert; legend: Inert } {
    if (this.picking) {
      const h = (command: CommandName): string => keys.key('hunks', command);
      return {
        prompt: sanitize(`hunk ${this.picking.at + 1} of ${this.hunks.length}: take it?`),
        legend: sanitize(`${h('hunks.take')} take · ${h('hunks.skip')} leave out · ${h('hunks.back')} back`),
      };
    }
    const k = (command: CommandName): string => keys.key('approval', command);
    const legend = [
      `${k('approval.yes')} yes`,
      `${k('approval.no')} no`,
      `${k('approval.always')} always`,
      ...(this.rule ? [`${k('approval.rule')} rule`] : []),
      ...(this.network ? [`${k('approval.network')} network`] : []),
      ...(this.hunks.length >= MIN_HUNKS ? [`${k('approval.hunks')} hunks`] : []),
    ].join(' · ');
    return {
      prompt: sanitize(`${this.said ? `${this.said} · ` : ''}run ${this.summary}?`),
      legend: sanitize(this.ready(time) ? legend : 'typing goes to the input; pause to answer'),
    };
  }

  /** While taking hunks: the one shown, in the transcript's place, its lines in the diff's colours. */
  paint(): ViewPaint | null {
    const p = this.picking;
    if (!p) return null;
    const text = this.hunks[p.at] ?? '';
    return {
      area: 'transcript',
      wanted: Infinity,
      rows: (at) => hunkRows(this.summary, p, this.hunks.length, text, at),
    };
  }
}

function hunkRows(summary: string, p: Picking, count: number, text: string, at: PaintContext): GridRow[] {
  const said = p.taken.map((t, k) => `${k + 1} ${t ? 'taken' : 'left out'}`).join(', ');
  const title = `${summary}: hunk ${p.at + 1} of ${count}${said ? ` (${said})` : ''}`;
  const rows: GridRow[] = [[{ text: fit(sanitize(title), at.width, at.emoji), style: 'bold' }], []];
  for (const line of linesOf(sanitize(text)).slice(0, Math.max(1, at.height - 2))) {
    const style: Style = line.startsWith('+')
      ? 'diffAdd'
      : line.startsWith('-')
        ? 'diffDel'
        : line.startsWith('@@')
          ? 'dim'
          : 'normal';
    rows.push([{ text: fit(line, at.width, at.emoji), style }]);
  }
  return rows;
}

/** A tool call's question, as the bus asks it. */
function askApproval(asked: ApprovalQuestion, now: number): View {
  return new ApprovalView(asked, now);
}

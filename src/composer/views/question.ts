// What the model asks the person, over the composer: a question (ask_user)
// with its options and a line for their own answer, in the rows above the
// composer; or a plan (propose_plan) in the transcript's place, with the modes
// to accept it in and a line for a note that sends it back. Number keys take
// an option, arrows move, Enter takes the highlighted one (the first at the
// start; on the answer line, what is typed there), Esc closes it unanswered,
// Ctrl-C goes on to stop the turn. As a tool's approval does, it takes keys
// only after a pause in typing: until then they go on into the composer. The
// answer is the call's result; it never enters input history.

import type { CommandName, KeyNames } from './registry';
import { type Inert, own, sanitize } from '../../protocol/inert';
import { GridRow, fit } from '../../kernel/rows';
import { PLAN_MODES } from '../../kernel/questions';
import { type AskedQuestion, type PersonAnswer } from '../../protocol/questions';
import type { ComposerInput, ComposerState, Effect } from '../state';
import { Handled, PaintContext, View, ViewContext, ViewPaint, consume, opensOn, pass, viewSpec } from './view';
import { APPROVAL_PAUSE_MS, approvalAnswerable } from './approval';

export const QUESTION_SPEC = viewSpec({
  mode: 'question',
  // Letters are the answer being typed.
  letters: false,
  commands: {
    'question.up': { description: 'The option above' },
    'question.down': {
      description: 'The option below (past the last: the line for your own answer)',
    },
    'question.take': {
      description:
        'Answer with the highlighted option, or with what is typed on the answer line (a plan: accept it in that ' +
        'mode, or keep planning with the note)',
    },
    'question.backspace': { description: 'Delete the last character of the answer' },
    'question.clear': { description: 'Clear the answer' },
    'question.pageUp': { description: 'Scroll the plan up' },
    'question.pageDown': { description: 'Scroll the plan down' },
    'question.dismiss': {
      description: 'Close it unanswered (the model is told; a plan: keep planning)',
    },
  },
  opens: opensOn('question.asked', ask),
  keys: [
    { keys: ['up', 'C-p'], command: 'question.up' },
    { keys: ['down', 'C-n', 'tab'], command: 'question.down' },
    { keys: ['enter'], command: 'question.take' },
    { keys: ['backspace', 'C-h'], command: 'question.backspace' },
    { keys: ['C-u', 'C-w'], command: 'question.clear' },
    { keys: ['pageup'], command: 'question.pageUp' },
    { keys: ['pagedown'], command: 'question.pageDown' },
    { keys: ['escape', 'C-g'], command: 'question.dismiss' },
    { keys: ['C-c'], command: 'app.interrupt' },
    { keys: ['C-z'], command: 'app.suspend' },
    { keys: ['C-l'], command: 'app.redraw' },
  ],
});

/** Characters of an answer typed in the view. */
const MAX_ANSWER = 4_000;

export class QuestionView implements View {
  readonly mode = 'question' as const;
  readonly pauseMs = APPROVAL_PAUSE_MS;

  constructor(
    readonly q: AskedQuestion,
    readonly shownAt: number,
    /** The highlighted row: an option's index, or `options.length` for the answer line. */
    readonly selected = 0,
    readonly typed = '',
    /** The plan's first row shown (PageUp/PageDown). */
    readonly scroll = 0,
    /** It has taken a key: the person is answering, and their typing no longer makes it wait for a pause. */
    readonly engaged = false,
  ) {}

  /** The rows to choose from: the options, then the answer line (when there is one). */
  private get rowCount(): number {
    return this.q.options.length + (this.q.free === false ? 0 : 1);
  }

  private with(changes: { selected?: number; typed?: string; scroll?: number }): QuestionView {
    const { selected = this.selected, typed = this.typed, scroll = this.scroll } = changes;
    return new QuestionView(this.q, this.shownAt, selected, typed, scroll, true);
  }

  keyMode(time: { now: number; lastKeyAt: number }): 'question' | null {
    return this.engaged || approvalAnswerable({ shownAt: this.shownAt, ...time }) ? 'question' : null;
  }

  handle(input: ComposerInput, _composer: ComposerState, ctx: ViewContext): Handled {
    if (input.kind === 'turnEnded') return { view: input.turnId === this.q.turnId ? null : this, consumed: false };
    if (this.keyMode(ctx) === null) return pass(this);
    switch (input.kind) {
      case 'text':
      case 'paste':
        return this.typedText(input.text);
      case 'command':
        return this.command(input.name);
      default:
        return pass(this);
    }
  }

  /** A number key takes its option while nothing is typed; anything else is the answer being written. */
  private typedText(text: string): Handled {
    const n = /^[1-9]$/.test(text) && this.typed === '' ? Number(text) : 0;
    if (n > 0 && n <= this.q.options.length) return this.answer({ kind: 'option', index: n - 1 });
    if (this.q.free === false) return consume(this);
    const typed = (this.typed + text.replace(/[\r\n]+/g, ' ')).slice(0, MAX_ANSWER);
    return consume(this.with({ typed, selected: this.q.options.length }));
  }

  private command(name: CommandName): Handled {
    const n = this.rowCount;
    switch (name) {
      case 'question.up':
        return consume(this.with({ selected: (this.selected + n - 1) % n }));
      case 'question.down':
        return consume(this.with({ selected: (this.selected + 1) % n }));
      case 'question.take':
        return this.take();
      case 'question.backspace':
        return consume(this.with({ typed: this.typed.slice(0, -1) }));
      case 'question.clear':
        return consume(this.with({ typed: '' }));
      case 'question.pageUp':
      case 'question.pageDown': {
        // A question with no plan scrolls nothing of its own: the transcript above it scrolls, so that what a question
        // of milk's (trust) lists can be read whole before the answer.
        if (this.q.plan === undefined) return pass(this);
        // Never past the plan's lines (its rows are at least as many: paint clamps to those), so PageUp moves at once.
        const most = (this.q.plan ?? '').split('\n').length;
        const scroll = this.scroll + (name === 'question.pageUp' ? -10 : 10);
        return consume(this.with({ scroll: Math.max(0, Math.min(scroll, most)) }));
      }
      case 'question.dismiss':
        return this.answer({ kind: 'dismissed' });
      case 'app.interrupt':
        // A question of milk's own (where a memory goes) has no turn to stop: Ctrl-C closes it, never quits.
        return this.q.turnId < 0 ? this.answer({ kind: 'dismissed' }) : pass(this);
      case 'app.suspend':
      case 'app.redraw':
        return pass(this);
      default:
        return consume(this.with({}));
    }
  }

  private take(): Handled {
    if (this.selected < this.q.options.length) return this.answer({ kind: 'option', index: this.selected });
    const text = this.typed.trim();
    // A plan goes back with or without a note; a question's empty answer line answers nothing.
    if (!text && this.q.plan === undefined) return consume(this);
    return this.answer(text ? { kind: 'text', text } : { kind: 'dismissed' });
  }

  private answer(answer: PersonAnswer): Handled {
    const effects: Effect[] = [];
    // A plan accepted puts its mode in force before the turn goes on.
    if (this.q.plan !== undefined && answer.kind === 'option')
      effects.push({ type: 'setMode', mode: PLAN_MODES[answer.index] ?? 'ask' });
    effects.push({ type: 'answerQuestion', requestId: this.q.requestId, answer });
    return consume(null, { effects });
  }

  status(time: { now: number; lastKeyAt: number }, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const k = (command: CommandName): string => keys.key('question', command);
    const plan = this.q.plan !== undefined;
    const n = this.q.options.length;
    const choose = `${n > 0 ? `1-${n}/` : ''}${k('question.take')} ${plan ? 'accept' : 'answer'}`;
    const legend =
      this.keyMode(time) === null
        ? 'pause to answer'
        : `${choose} · ${k('question.dismiss')} ${plan ? 'keep planning' : 'no answer'}`;
    return {
      // The question is shown whole above (its Markdown rendered): the status bar says who asks, so at 80 columns the
      // keys still fit. A question of milk's own (where a memory goes) has no turn.
      prompt: sanitize(plan ? 'the model proposes a plan' : this.q.turnId < 0 ? 'milk asks' : 'the model asks'),
      legend: sanitize(legend),
    };
  }

  paint(): ViewPaint {
    if (this.q.plan !== undefined) return { area: 'transcript', wanted: Infinity, rows: (at) => planRows(this, at) };
    const wanted = Math.min(3, this.q.question.split('\n').length) + this.rowCount;
    return { area: 'overlay', wanted, pushes: true, rows: (at) => questionRows(this, at) };
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The options and the answer line, the highlighted one lit; `note`: what the answer line is for. */
function choiceRows(v: QuestionView, width: number, at: PaintContext, note: string): GridRow[] {
  const cut = (text: string): Inert => fit(sanitize(text), width, at.emoji);
  const rows: GridRow[] = v.q.options.map((option, i) => {
    const on = v.selected === i;
    return [{ text: cut(`${on ? '›' : ' '} ${i + 1}. ${oneLine(option)}`), style: on ? 'highlight' : 'normal' }];
  });
  if (v.q.free === false) return rows;
  const on = v.selected === v.q.options.length;
  const line = v.typed ? `${v.typed}▏` : on ? '▏' : '';
  // The end of a long answer shows, as the composer shows where typing lands.
  const shown = `${on ? '›' : ' '} ${note}: ${line}`;
  rows.push([
    {
      text: cut(shown.length > width ? `…${shown.slice(shown.length - width + 1)}` : shown),
      style: on ? 'highlight' : 'dim',
    },
  ]);
  return rows;
}

/** ask_user's rows above the composer: the question (its first rows), then the choices. */
export function questionRows(v: QuestionView, at: PaintContext): GridRow[] {
  const choices = choiceRows(v, at.width, at, 'your answer');
  const room = Math.max(1, at.height - choices.length);
  const question = at.markdown(v.q.question, Math.max(1, at.width - 1));
  const head = question.slice(0, room).map((row, i): GridRow => {
    const cut = i === room - 1 && question.length > room;
    return [{ text: own` `, style: 'normal' }, ...row, ...(cut ? [{ text: own`…`, style: 'dim' as const }] : [])];
  });
  return [...head, ...choices].slice(0, at.height);
}

/** propose_plan's view in the transcript's place: a title, the plan (scrolled), then the choices. */
export function planRows(v: QuestionView, at: PaintContext): GridRow[] {
  const choices = choiceRows(v, at.width, at, 'or keep planning, with a note');
  const k = (command: CommandName): string => at.keys.key('question', command);
  const title: GridRow = [
    {
      text: fit(
        sanitize(`The model's plan (${k('question.pageUp')}/${k('question.pageDown')} scroll):`),
        at.width,
        at.emoji,
      ),
      style: 'bold',
    },
  ];
  const room = Math.max(0, at.height - choices.length - 3);
  const plan = at.markdown(v.q.plan ?? '', Math.max(1, at.width - 2));
  const top = Math.min(v.scroll, Math.max(0, plan.length - room));
  const shown = plan.slice(top, top + room).map((row): GridRow => [{ text: own`  `, style: 'normal' }, ...row]);
  const more = plan.length - top - shown.length;
  const filler: GridRow[] = Array.from({ length: room - shown.length }, () => []);
  const after: GridRow = more > 0 ? [{ text: own`  … ${more} more rows`, style: 'dim' }] : [];
  return [title, [], ...shown, ...filler, after, ...choices].slice(0, at.height);
}

/** The model's question or plan, as the bus asks it. */
function ask(asked: AskedQuestion, now: number): View {
  return new QuestionView(asked, now);
}

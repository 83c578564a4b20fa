import { CLUSTERING } from '../../src/editor/width';
import { UiState, open } from '../../src/composer/stack';
import { QuestionView, planRows, questionRows } from '../../src/composer/views/question';
import { APPROVAL_PAUSE_MS } from '../../src/composer/views/approval';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap';
import { sanitize } from '../../src/protocol/inert';
import { PLAN_OPTIONS, askAnswer, planAnswer } from '../../src/kernel/questions';
import { composer } from '../helpers/composer';
import { memoryText } from '../../src/composer/reducer';
import { markdown } from '../helpers/paint';

const asked = (plan?: string) => ({
  requestId: 4,
  turnId: 7,
  question: sanitize(plan === undefined ? 'Which colour?' : 'Carry out this plan?'),
  options: (plan === undefined ? ['red', 'green', 'blue'] : PLAN_OPTIONS).map((o) => sanitize(o)),
  ...(plan === undefined ? {} : { plan: sanitize(plan) }),
});

/** A busy composer with half a line typed, the question opened over it at 10 s; `ready`: after its pause. */
function opened(plan?: string, ready = true) {
  const c = composer([], { busy: true });
  c.type('half typed');
  c.ui = open(c.ui, [{ type: 'openView', view: new QuestionView(asked(plan), 10_000) }], { history: [] }).ui as UiState;
  if (ready) c.ctx.now = 10_000 + APPROVAL_PAUSE_MS;
  else c.ctx.lastKeyAt = 10_000;
  return c;
}
const rows = (c: ReturnType<typeof opened>, height = 9) => {
  const paint = (c.ui.views[c.ui.views.length - 1] as QuestionView).paint();
  const at = { width: 50, height, emoji: CLUSTERING, keys: DEFAULT_KEYMAP, now: 0, historyMode: 'session' as const };
  const out = paint.area === 'overlay' ? questionRows : planRows;
  return out(c.ui.views[c.ui.views.length - 1] as QuestionView, { ...at, markdown }).map((r) =>
    r.map((s) => s.text).join(''),
  );
};

describe('the question view (ask_user)', () => {
  it('lets typing through to the composer until there is a pause, as a tool question does', () => {
    const c = opened(undefined, false);
    c.type('2');
    expect(c.text).toBe('half typed2');
    expect(c.mode).toBe('question');
  });

  it('a number key takes its option at once; the answer is an effect, nothing enters the composer', () => {
    const c = opened();
    expect(c.type('2')).toEqual([{ type: 'answerQuestion', requestId: 4, answer: { kind: 'option', index: 1 } }]);
    expect(c.mode).toBe('busy');
    expect(c.text).toBe('half typed');
  });

  it('Enter takes the highlighted option, the first at the start; arrows move round to the answer line', () => {
    expect(opened().run('question.take')).toEqual([
      { type: 'answerQuestion', requestId: 4, answer: { kind: 'option', index: 0 } },
    ]);
    const c = opened();
    c.run('question.up');
    expect(rows(c).slice(-2)).toEqual(['  3. blue', '› your answer: ▏']);
    // An empty answer line takes nothing.
    expect(c.run('question.take')).toEqual([]);
    c.run('question.down', 'question.down');
    expect(c.run('question.take')).toEqual([
      { type: 'answerQuestion', requestId: 4, answer: { kind: 'option', index: 1 } },
    ]);
  });

  it('typing writes an answer of its own (digits too, once it has begun), and keeps taking keys without a pause', () => {
    const c = opened();
    c.type('teal ');
    c.ctx.lastKeyAt = c.ctx.now;
    c.type('2');
    c.run('question.backspace');
    c.type('3');
    expect(rows(c)).toEqual([' Which colour?', '  1. red', '  2. green', '  3. blue', '› your answer: teal 3▏']);
    expect(c.run('question.take')).toEqual([
      { type: 'answerQuestion', requestId: 4, answer: { kind: 'text', text: 'teal 3' } },
    ]);
  });

  it('Esc closes it unanswered; Ctrl-C goes on to stop the turn; the end of its turn closes it', () => {
    expect(opened().run('question.dismiss')).toEqual([
      { type: 'answerQuestion', requestId: 4, answer: { kind: 'dismissed' } },
    ]);
    const c = opened();
    expect(c.run('app.interrupt')).toEqual([{ type: 'cancelTurn' }]);
    expect(c.mode).toBe('question');
    c.feed({ kind: 'turnEnded', turnId: 7 });
    expect(c.mode).toBe('busy');
  });

  it('what the model is told of each answer', () => {
    const options = ['red', 'green'];
    expect(askAnswer({ kind: 'option', index: 1 }, options)).toBe('The person chose: green');
    expect(askAnswer({ kind: 'text', text: 'teal' }, options)).toBe('The person answered: teal');
    expect(askAnswer({ kind: 'dismissed' }, options)).toMatch(/closed the question without answering/);
  });
});

describe('the plan view (propose_plan)', () => {
  const plan = '# Steps\n\n1. Change **one**\n2. Test it';
  it('shows the plan rendered, then the modes to accept it in and the line for a note', () => {
    const c = opened(plan);
    expect(rows(c, 14)).toEqual([
      "The model's plan (PageUp/PageDown scroll):",
      '',
      '  Steps',
      '  ═════',
      '  ',
      '  1. Change one',
      '  2. Test it',
      '',
      '',
      '',
      '› 1. Accept, and carry on in auto-edit (edits run…',
      '  2. Accept, and carry on in ask (edits and comma…',
      '  3. Accept, and carry on in full-auto (nothing a…',
      '  or keep planning, with a note: ',
    ]);
  });

  it('accepting puts its mode in force before the answer goes back; a note or Esc keeps planning', () => {
    const c = opened(plan);
    expect(c.type('3')).toEqual([
      { type: 'setMode', mode: 'full-auto' },
      { type: 'answerQuestion', requestId: 4, answer: { kind: 'option', index: 2 } },
    ]);
    const n = opened(plan);
    n.type('split step 1');
    expect(n.run('question.take')).toEqual([
      { type: 'answerQuestion', requestId: 4, answer: { kind: 'text', text: 'split step 1' } },
    ]);
    // The note line empty: Enter on it keeps planning without a note.
    const e = opened(plan);
    e.run('question.up');
    expect(e.run('question.take')).toEqual([{ type: 'answerQuestion', requestId: 4, answer: { kind: 'dismissed' } }]);
    expect(planAnswer({ kind: 'option', index: 0 })).toMatchObject({ mode: 'auto-edit' });
    expect(planAnswer({ kind: 'text', text: 'split step 1' }).content).toMatch(/keep planning.*Their note: split/);
    expect(planAnswer({ kind: 'dismissed' })).toMatchObject({ mode: null });
  });

  it('scrolls a long plan with PageUp and PageDown, saying how much is below', () => {
    const long = Array.from({ length: 40 }, (_, i) => `- step ${i + 1}`).join('\n');
    const c = opened(long);
    expect(rows(c, 14)).toContain('  … 33 more rows');
    c.run('question.pageDown');
    expect(rows(c, 14)[2]).toBe('  • step 11');
    c.run('question.pageDown', 'question.pageDown', 'question.pageDown', 'question.pageDown');
    expect(rows(c, 14)[2]).toBe('  • step 34');
    c.run('question.pageUp');
    expect(rows(c, 14)[2]).toBe('  • step 31');
  });
});

describe('memory: a typed "# " input', () => {
  it('is its text, on one line; "#" alone, "##" or "#tag" is not one', () => {
    expect(memoryText('# we use pnpm')).toBe('we use pnpm');
    expect(memoryText('# two\nlines ')).toBe('two lines');
    for (const not of ['#', '# ', '## heading', '#tag', 'a # b']) expect(memoryText(not)).toBeNull();
  });

  it('asks where it goes, with no answer line: Enter takes the first file, a number its file, typing nothing', () => {
    const c = composer([]);
    c.type('# keep it short');
    expect(c.run('composer.submit')).toEqual([
      { type: 'record', segments: [{ type: 'text', text: '# keep it short' }] },
      { type: 'memory', text: 'keep it short' },
    ]);
    const view = new QuestionView(
      { requestId: -5, turnId: -1, question: sanitize('Where?'), options: [sanitize('a'), sanitize('b')], free: false },
      0,
    );
    c.ui = open(c.ui, [{ type: 'openView', view }], { history: [] }).ui as UiState;
    c.ctx.now = APPROVAL_PAUSE_MS + 1;
    expect(c.type('x')).toEqual([]);
    expect(rows(c)).toEqual([' Where?', '› 1. a', '  2. b']);
    c.run('question.down', 'question.down');
    expect(c.run('question.take')).toEqual([
      { type: 'answerQuestion', requestId: -5, answer: { kind: 'option', index: 0 } },
    ]);
    // With no turn to stop, Ctrl-C closes it: it never reaches the ladder (which would quit).
    c.ui = open(c.ui, [{ type: 'openView', view }], { history: [] }).ui as UiState;
    expect(c.run('app.interrupt')).toEqual([{ type: 'answerQuestion', requestId: -5, answer: { kind: 'dismissed' } }]);
    expect(c.mode).toBe('idle');
  });
});

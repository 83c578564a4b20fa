// Every key command a modal view binds does something while that view is on top, in a typical state of it: it
// changes the view, the composer beneath or the stack, or asks the coordinator for an effect. A view takes an input
// it has no answer for silently, so a command bound in its table that its `handle` forgot would compile, show in its
// legend and do nothing; it fails here. The fixtures are keyed by the registry's modes: a new modal without one does
// not compile.
import type { CommandName } from '../../src/composer/views/registry';
import { VIEW_SPECS, type ModalMode } from '../../src/composer/views/registry';
import { ApprovalView, type ApprovalQuestion } from '../../src/composer/views/approval';
import { ConfirmView } from '../../src/composer/views/confirm';
import { CopyModeView } from '../../src/composer/views/copy-mode';
import { DiffView } from '../../src/composer/views/diff';
import { HelpView } from '../../src/composer/views/help';
import { ModelPickerView } from '../../src/composer/views/model-picker';
import { PickerView } from '../../src/composer/views/picker';
import { ProviderSetupView } from '../../src/composer/views/provider-setup';
import { QuestionView } from '../../src/composer/views/question';
import { TranscriptFindView } from '../../src/composer/views/transcript-find';
import type { View } from '../../src/composer/views/view';
import { sanitize } from '../../src/protocol/inert';
import { buildCorpus } from '../../src/search/transcript-search';
import { openRewind } from '../../src/session/picker';
import { keyModes } from '../../src/composer/stack';
import { composer, entry } from '../helpers/composer';
import { ThemePickerView } from '../../src/composer/views/theme-picker';
import { themeList } from '../../src/settings/palette';

type Composer = ReturnType<typeof composer>;

const HISTORY = ['git status', 'npm test', 'npm run build', 'npm run lint'];
const COMMANDS = ['help', 'resume', 'rewind', 'model', 'provider'].map((name) => ({
  name,
  args: '',
  description: name,
}));

function over(view: View, world: Parameters<typeof composer>[1] = {}): Composer {
  const c = composer(HISTORY, { commands: () => COMMANDS, ...world });
  c.ui = { ...c.ui, views: [view] };
  return c;
}

const approval = (hunks?: string[]): ApprovalQuestion => ({
  requestId: 1,
  turnId: 1,
  summary: sanitize('shell: npm test'),
  tool: 'shell',
  rule: sanitize('shell commands starting "npm test"'),
  sandboxed: true,
  hunks: hunks?.map(sanitize),
});

const corpus = () => {
  const lines = ['› what does this do?', 'it runs a model', 'and another model', 'the end'];
  return buildCorpus(
    lines,
    lines.map((_, line) => ({ entry: 0, line })),
  );
};

/** Each modal in a state every one of its keys has something to act on: a list with room both ways, a query typed. */
const TYPICAL: Readonly<Record<ModalMode, () => Composer>> = {
  search: () => {
    const c = composer(HISTORY, { otherHistory: ['make', 'npm ci'].map(entry) });
    c.run('history.searchReverse');
    c.type('npm');
    c.run('history.searchReverse');
    return c;
  },
  confirm: () => over(new ConfirmView('go on?', [{ type: 'note', text: 'yes' }], [{ type: 'note', text: 'no' }])),
  approval: () => over(new ApprovalView(approval(['@@ -1 +1 @@\n-a\n+b', '@@ -5 +5 @@\n-c\n+d']), 0)),
  hunks: () => {
    const c = over(new ApprovalView(approval(['@@ -1 +1 @@\n-a\n+b', '@@ -5 +5 @@\n-c\n+d']), 0));
    c.run('approval.hunks');
    return c;
  },
  // A plan put to the person (propose_plan): PageUp and PageDown scroll it.
  question: () => {
    const plan = sanitize(Array.from({ length: 60 }, (_, i) => `${i + 1}. a step`).join('\n'));
    const options = ['ask', 'auto-edit', 'full-auto'].map(sanitize);
    const c = over(new QuestionView({ requestId: 2, turnId: 1, question: sanitize('the plan'), options, plan }, 0));
    c.run('question.down', 'question.pageDown');
    c.type('x');
    return c;
  },
  picker: () => {
    const c = over(new PickerView(openRewind(['one', 'two', 'three'])!));
    c.run('picker.down');
    return c;
  },
  mention: () => {
    const c = composer(HISTORY);
    c.type('look at @sr');
    const hits = ['src/a.ts', 'src/b.ts', 'scripts/c.js'].map((path) => ({ path, score: 1, indexes: [0, 1] }));
    c.feed({ kind: 'mentionResults', query: 'sr', hits, indexing: false, cut: false });
    c.run('mention.next');
    return c;
  },
  slash: () => {
    const c = composer(HISTORY, { commands: () => COMMANDS });
    c.type('/re');
    c.run('slash.next');
    return c;
  },
  setup: () => {
    const kind = (name: string) => ({
      name,
      label: name,
      baseUrl: `https://${name}.example/v1`,
      model: 'm',
      keyVar: 'K',
    });
    const c = over(ProviderSetupView.open(['openai', 'anthropic', 'openrouter'].map(kind), new Set()));
    c.run('setup.down');
    return c;
  },
  models: () => {
    const c = over(ModelPickerView.open('gpt-4o', 'http://srv/v1'));
    c.feed({ kind: 'modelList', models: ['gpt-4o', 'gpt-4o-mini', 'o3', 'gpt-5'] });
    c.type('g');
    c.run('models.next');
    return c;
  },
  themes: () => {
    const c = over(ThemePickerView.open(themeList(null), themeList(null)[0], 'theme: auto'));
    c.run('themes.next');
    return c;
  },
  copy: () => over(new CopyModeView()),
  find: () => {
    const c = over(TranscriptFindView.open(corpus(), 3));
    c.type('model');
    return c;
  },
  found: () => {
    const c = over(TranscriptFindView.open(corpus(), 3));
    c.type('model');
    c.run('find.done');
    return c;
  },
  // Scrolled into its middle, a search made: n and N have lines to go to.
  help: () => {
    const lines = Array.from({ length: 40 }, (_, i) => `key ${i}  does thing ${i % 3}`);
    const c = over(HelpView.open([{ title: 'keys', lines }]));
    c.run('help.pageDown', 'help.search');
    c.type('thing 1');
    c.run('helpQuery.done');
    return c;
  },
  helpQuery: () => {
    const c = over(HelpView.open([{ title: 'keys', lines: ['a  one', 'b  two'] }]));
    c.run('help.search');
    c.type('tw');
    return c;
  },
  diff: () => {
    const long = Array.from({ length: 200 }, (_, i) => `+line ${i}`).join('\n');
    const c = over(DiffView.open('changes', long));
    c.run('diff.pageDown');
    return c;
  },
};

/** What some commands need first to have anything to act on here: a field of the form to edit. */
const BEFORE: Partial<Record<ModalMode, Partial<Record<CommandName, readonly CommandName[]>>>> = {
  setup: { 'setup.backspace': ['setup.next'], 'setup.clear': ['setup.next'] },
};

describe.each(Object.keys(VIEW_SPECS) as ModalMode[])('in the %s view', (mode) => {
  const commands = [...new Set(VIEW_SPECS[mode].keys.map((b) => b.command))];

  it('is on top in its typical state', () => {
    const c = TYPICAL[mode]();
    expect(keyModes(c.ui, 'idle', c.ctx)[0]).toBe(mode);
  });

  it.each(commands)('%s does something', (name) => {
    const c = TYPICAL[mode]();
    c.run(...(BEFORE[mode]?.[name] ?? []));
    c.effects.length = 0;
    const before = JSON.stringify(c.ui);
    const effects = c.run(name);
    expect(JSON.stringify(c.ui) !== before || effects.length > 0).toBe(true);
  });
});

it("counts a command the view on top has no answer for as doing nothing (another view's key)", () => {
  const c = TYPICAL.copy();
  const before = JSON.stringify(c.ui);
  expect(c.run('diff.down')).toEqual([]);
  expect(JSON.stringify(c.ui)).toBe(before);
});

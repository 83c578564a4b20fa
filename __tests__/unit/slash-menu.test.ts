import { nearestCommand, prepareCommands, rankCommands } from '../../src/search/commands';
import { markdown } from '../helpers/paint';
import { SLASH_COMMANDS } from '../../src/composer/slash-commands';
import { dispatch, initialUi, shownPaint } from '../../src/composer/stack';
import { CLUSTERING } from '../../src/editor/width';
import type { ComposerInput } from '../../src/composer/state';
import type { UiState } from '../../src/composer/stack';
import { ProviderSetupView } from '../../src/composer/views/provider-setup';

const entries = [
  { name: 'help', args: '', description: 'List the keys' },
  { name: 'history', args: '[global|session]', description: 'Show the history mode' },
  { name: 'compact', args: '[FOCUS]', description: 'Summarise the conversation' },
  { name: 'context', args: '', description: 'Show what the model is sent' },
  { name: 'copy', args: '', description: 'Copy the last answer' },
  { name: 'review', args: '', description: 'Review the diff (project)' },
];
const names = (q: string) => rankCommands(prepareCommands(entries), q).map((r) => r.entry.name);

describe('ranking slash commands', () => {
  it('lists all in order for an empty query; a prefix before a substring before the letters in order', () => {
    expect(names('')).toEqual(entries.map((e) => e.name));
    expect(names('co')).toEqual(['compact', 'context', 'copy']);
    expect(names('ext')).toEqual(['context']);
    expect(names('cmp')).toEqual(['compact']);
    expect(names('HIS')).toEqual(['history']);
  });
  it('an exact name first, then the description matches, and underlines the letters matched', () => {
    expect(names('copy')[0]).toBe('copy');
    expect(names('diff')).toEqual(['review']);
    const [cmp] = rankCommands(prepareCommands(entries), 'cmp');
    expect(cmp.indexes).toEqual([0, 2, 3]);
    expect(names('zzz')).toEqual([]);
  });
  it('names the command a typo meant, and nothing for a word far from every one', () => {
    const all = SLASH_COMMANDS.map((c) => c.name);
    expect(nearestCommand(all, 'hlep')).toBe('help');
    expect(nearestCommand(all, 'stauts')).toBe('status');
    expect(nearestCommand(all, 'exti')).toBe('exit');
    expect(nearestCommand(all, 'comp')).toBe('compact');
    expect(nearestCommand(all, 'nope')).toBeNull();
    expect(nearestCommand(all, 'xyzzy')).toBeNull();
  });
});

describe('the slash menu over the composer', () => {
  const ctx = {
    history: [],
    busy: false,
    force: false,
    mode: 'ask' as const,
    now: 0,
    lastKeyAt: -Infinity,
    emoji: CLUSTERING,
    commands: () => entries,
  };
  const run = (ui: UiState, ...inputs: ComposerInput[]) => {
    let effects: unknown[] = [];
    for (const input of inputs) {
      const r = dispatch(ui, input, ctx);
      ui = r.ui;
      effects = [...effects, ...r.effects];
    }
    return { ui, effects };
  };
  const text = (t: string): ComposerInput => ({ kind: 'text', text: t });
  const key = (name: string): ComposerInput => ({ kind: 'command', name }) as ComposerInput;

  it('opens on a slash typed into an empty composer, not on one typed after text or with a space', () => {
    expect(run(initialUi, text('/')).ui.views.map((v) => v.mode)).toEqual(['slash']);
    expect(run(initialUi, text('a/')).ui.views).toEqual([]);
    expect(run(initialUi, text('/model echo')).ui.views).toEqual([]);
    // A space after the name closes it, the space kept.
    const spaced = run(initialUi, text('/'), text('co'), text(' '));
    expect(spaced.ui.views).toEqual([]);
    expect(spaced.ui.composer.editor.text).toBe('/co ');
  });
  it('Tab puts the chosen command in the composer, a space after it for its arguments; Enter runs it', () => {
    const tabbed = run(initialUi, text('/'), text('co'), key('slash.next'), key('slash.complete'));
    expect(tabbed.ui.composer.editor.text).toBe('/context ');
    expect(run(initialUi, text('/hi'), key('slash.complete')).ui.composer.editor.text).toBe('/history ');
    const ran = run(initialUi, text('/cmp'), key('slash.run'));
    expect(ran.ui.views).toEqual([]);
    expect(ran.ui.composer.editor.text).toBe('');
    expect(ran.effects).toContainEqual({ type: 'slash', name: 'compact', args: [] });
  });
  it('Enter on a name nothing matches sends what was typed, for the composer to answer; Esc leaves it', () => {
    const typo = run(initialUi, text('/stauts'), key('slash.run'));
    expect(typo.effects).toContainEqual({ type: 'note', text: expect.stringMatching(/unknown command \/stauts/) });
    const left = run(initialUi, text('/co'), key('slash.cancel'));
    expect(left.ui.views).toEqual([]);
    expect(left.ui.composer.editor.text).toBe('/co');
  });
  it('paints a title with the count and a row per command, the chosen one marked', () => {
    const { ui } = run(initialUi, text('/co'));
    const rows = shownPaint(ui).overlay!.rows({
      width: 60,
      height: 9,
      emoji: CLUSTERING,
      keys: null as never,
      now: 0,
      historyMode: 'session',
      markdown,
    });
    const lines = rows.map((r) => r.map((s) => s.text).join(''));
    expect(lines[0]).toMatch(/^ \/co · 3 commands/);
    expect(lines[1]).toMatch(/^› \/compact \[FOCUS\] +Summarise the conversation$/);
    expect(lines[2]).toMatch(/^ {2}\/context +Show what the model is sent$/);
  });
});

describe('the /provider set-up', () => {
  const { ProviderSetupView } =
    require('../../src/composer/views/provider-setup') as typeof import('../../src/composer/views/provider-setup');
  const { initialComposer } = require('../../src/composer/state') as typeof import('../../src/composer/state');
  const kinds = [
    {
      name: 'openai' as const,
      label: 'OpenAI-compatible',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt',
      keyVar: 'OPENAI_API_KEY',
    },
    {
      name: 'anthropic' as const,
      label: 'Anthropic',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude',
      keyVar: 'ANTHROPIC_API_KEY',
    },
  ];
  const cmd = (name: string) => ({ kind: 'command', name }) as ComposerInput;
  const at = {
    width: 80,
    height: 9,
    emoji: CLUSTERING,
    keys: null as never,
    now: 0,
    historyMode: 'session' as const,
    markdown,
  };
  const rows = (v: ProviderSetupView) =>
    v
      .paint()
      .rows(at)
      .map((r) => r.map((s) => s.text).join(''));
  type Step = { view: ProviderSetupView | null; effects?: readonly unknown[] };
  const step = (v: ProviderSetupView, input: ComposerInput): Step => v.handle(input, initialComposer) as Step;

  it('takes the defaults of the kind chosen, keeps what is typed (a pasted key too) out of the composer, and hands the answers on', () => {
    let v = ProviderSetupView.open(kinds, new Set(['ANTHROPIC_API_KEY']));
    v = step(v, cmd('setup.down')).view!;
    v = step(v, cmd('setup.next')).view!;
    expect(rows(v)[1]).toBe('  https://api.anthropic.com▏');
    v = step(v, cmd('setup.next')).view!;
    // The key before the model.
    expect(rows(v)[2]).toBe('  ANTHROPIC_API_KEY is set: Enter with none typed uses it');
    const pasted = step(v, { kind: 'paste', text: 'sk-ant-123\n' });
    expect(pasted.effects).toBeUndefined();
    v = pasted.view!;
    expect(rows(v).join('\n')).not.toContain('sk-ant');
    expect(rows(v)[1]).toBe('  10 characters typed▏');
    // Its models are asked for with the server and key known (never with the key in anything shown).
    const asking = step(v, cmd('setup.next'));
    const server = { provider: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant-123' };
    expect(asking.effects).toEqual([{ type: 'listSetupModels', server }]);
    v = asking.view!;
    expect(rows(v)).toEqual([
      ' The model to ask (/model changes it later) ',
      '  ▏',
      '  Enter takes claude · asking the server for its models…',
    ]);
    v = step(v, { kind: 'text', text: 'claude-3' }).view!;
    expect(step(v, cmd('setup.next'))).toEqual({
      view: null,
      consumed: true,
      effects: [{ type: 'setupProvider', answers: { ...server, model: 'claude-3' } }],
    });
  });

  it("offers the server's models: the kind's own lit, filtered as typed, a name it does not list taken as typed", () => {
    let v = ProviderSetupView.open(kinds, new Set());
    for (let i = 0; i < 3; i++) v = step(v, cmd('setup.next')).view!;
    v = step(v, { kind: 'modelList', models: ['alpha', 'gpt', 'gpt-mini\x1b[31m'] }).view!;
    expect(rows(v)).toEqual([
      ' The model to ask (/model changes it later) ',
      '  ▏',
      '  alpha',
      '› gpt',
      // The server's words, inert (an escape sequence dropped).
      '  gpt-mini',
      '  3 of 3 models the server lists; type to filter',
    ]);
    v = step(v, cmd('setup.down')).view!;
    expect(rows(v)[4]).toBe('› gpt-mini');
    v = step(v, { kind: 'text', text: 'alp' }).view!;
    expect(rows(v).slice(2)).toEqual(['› alpha', '  1 of 3 models the server lists; type to filter']);
    const answers = (view: ProviderSetupView) =>
      (step(view, cmd('setup.next')).effects as Array<{ answers: { model: string } }>)[0].answers.model;
    expect(answers(v)).toBe('alpha');
    v = step(v, { kind: 'text', text: 'x' }).view!;
    expect(rows(v)[2]).toBe('  Enter takes alpx · the server lists no model by that name');
    expect(answers(v)).toBe('alpx');
    // No list (the server said why): what is typed, or the kind's own.
    let failed = ProviderSetupView.open(kinds, new Set());
    for (let i = 0; i < 3; i++) failed = step(failed, cmd('setup.next')).view!;
    failed = step(failed, { kind: 'modelList', error: 'the server answered 401' }).view!;
    expect(rows(failed)[2]).toBe('  Enter takes gpt · no list of models from the server: the server answered 401');
    expect(answers(failed)).toBe('gpt');
    // Esc drops the request for the list too.
    expect(step(failed, cmd('setup.cancel')).effects).toEqual([
      { type: 'modelsClosed' },
      { type: 'note', text: 'no change: the provider is as it was' },
    ]);
  });

  it('holds at a base URL that is no URL, and Esc leaves everything as it was', () => {
    let v = ProviderSetupView.open(kinds, new Set());
    v = step(v, cmd('setup.next')).view!;
    v = step(v, cmd('setup.clear')).view!;
    v = step(v, { kind: 'text', text: 'localhost:8000' }).view!;
    expect(rows(step(v, cmd('setup.next')).view!)[0]).toContain('Its base URL');
    expect(step(v, cmd('setup.cancel'))).toMatchObject({
      view: null,
      effects: [{ type: 'modelsClosed' }, { type: 'note', text: expect.stringMatching(/no change/) }],
    });
  });
});

describe('the slash commands', () => {
  it('are each listed once, every group in the order /help shows, with /help first', () => {
    const { SETTINGS_COMMANDS } = require('../../src/composer/slash/settings');
    const { SESSION_COMMANDS } = require('../../src/composer/slash/session');
    const { AGENT_COMMANDS } = require('../../src/composer/slash/agent');
    const grouped = [SETTINGS_COMMANDS, SESSION_COMMANDS, AGENT_COMMANDS].flatMap((group) =>
      Object.entries(group).map(([key, c]) => {
        // Each is named by its key in its group.
        expect((c as { name: string }).name).toBe(key);
        return key;
      }),
    );
    const listed = SLASH_COMMANDS.map((c) => c?.name);
    expect(listed[0]).toBe('help');
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(['help', ...grouped].sort());
  });

  it('hand a handler its own usage line when the arguments are wrong', () => {
    const force = SLASH_COMMANDS.find((c) => c.name === 'force')!;
    expect(force.run({} as never, ['now'])).toBe('usage: /force');
    const history = SLASH_COMMANDS.find((c) => c.name === 'history')!;
    expect(history.run({} as never, ['a', 'b', 'c'])).toBe(`usage: /history ${history.args}`);
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDS, CommandName, MODES, VIEW_SPECS } from '../../src/composer/views/registry';
import { COMPOSER_COMMANDS } from '../../src/kernel/commands';
import { SLASH_COMMANDS, slashTableMarkdown } from '../../src/composer/slash-commands';
import { DEFAULT_KEYMAP, buildKeymap, describeKey, normalizeKey } from '../../src/tui/keymap';
import { firstKeysMarkdown } from '../../src/tui/first-keys';

const KEYMAP = DEFAULT_KEYMAP.tables;
const commandFor = DEFAULT_KEYMAP.commandFor.bind(DEFAULT_KEYMAP);
const helpLines = DEFAULT_KEYMAP.helpLines.bind(DEFAULT_KEYMAP);
const keyTableMarkdown = DEFAULT_KEYMAP.tableMarkdown.bind(DEFAULT_KEYMAP);

const DOCS = path.join(__dirname, '..', '..', 'docs');
const KEYS_DOC = fs.readFileSync(path.join(DOCS, 'keys.md'), 'utf8');
const COMMANDS_DOC = fs.readFileSync(path.join(DOCS, 'commands.md'), 'utf8');

describe('key tables', () => {
  it("binds every command somewhere, and a view's own only where a view declares it", () => {
    for (const name of Object.keys(COMMANDS) as CommandName[]) {
      const boundIn = MODES.filter((m) => KEYMAP[m].some((b) => b.command === name));
      expect(`${name}: ${boundIn.length > 0}`).toBe(`${name}: true`);
      if (name in COMPOSER_COMMANDS) continue;
      const strangers = boundIn.filter((m) => m === 'idle' || m === 'busy' || !(name in VIEW_SPECS[m].commands));
      expect(`${name}: ${strangers.join(',')}`).toBe(`${name}: `);
    }
  });
  it('describes every command', () => {
    for (const [name, spec] of Object.entries(COMMANDS)) expect(`${name}: ${spec.description.trim()}`).toMatch(/: \S/);
  });
  it('names no key in a description but through a binding ({command.name})', () => {
    const typed = /\b(Ctrl|Alt|Shift)\+|\bEsc\b|\bEnter\b/;
    for (const [name, spec] of Object.entries(COMMANDS)) expect(`${name}: ${spec.description}`).not.toMatch(typed);
    for (const c of SLASH_COMMANDS) expect(`/${c.name}: ${c.description}`).not.toMatch(typed);
    expect(helpLines('idle').find((l) => l.includes('undid'))).toMatch(/Redo what Ctrl\+_ undid/);
  });
  it.each(MODES)('binds no key twice in %s mode', (mode) => {
    const keys = KEYMAP[mode].flatMap((b) => b.keys);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
  it('binds only declared commands', () => {
    for (const mode of MODES)
      for (const b of KEYMAP[mode]) expect(Object.keys(COMMANDS)).toContain(b.command as CommandName);
  });
  it('routes keys by mode', () => {
    expect(commandFor('idle', 'enter')).toBe('composer.submit');
    expect(commandFor('busy', 'enter')).toBe('composer.queue');
    expect(commandFor('busy', 'C-c')).toBe('app.interrupt');
    expect(commandFor('busy', 'escape')).toBe('turn.cancel');
    expect(commandFor('search', 'C-c')).toBe('search.cancel');
    expect(commandFor('idle', 'C-c')).toBe('app.interrupt');
    expect(commandFor('idle', 'tab')).toBe('composer.complete');
  });
  it('builds help from the same table', () => {
    const help = helpLines('idle');
    // A command bound to no key (readline's prefix search, until the person binds it) has no line.
    expect(help).toHaveLength(KEYMAP.idle.filter((b) => b.keys.length > 0).length);
    expect(help.find((l) => l.startsWith('Ctrl+R'))).toMatch(/Ctrl\+R\s+Search history backwards/);
  });
  it('names keys as people write them', () => {
    expect(describeKey('C-M-left')).toBe('Ctrl+Alt+Left');
    expect(describeKey('S-enter')).toBe('Shift+Enter');
    expect(describeKey('C-r')).toBe('Ctrl+R');
  });
  it("gives the README's first keys from the same tables", () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    const table = firstKeysMarkdown(DEFAULT_KEYMAP);
    expect(readme).toContain(`<!-- first-keys:start -->\n${table}\n<!-- first-keys:end -->`);
    expect(table).toContain('| `Ctrl+R` | search what you sent before');
    const moved = buildKeymap({ 'history.searchReverse': ['C-t'] }).keymap;
    expect(firstKeysMarkdown(moved)).toContain('| `Ctrl+T` | search what you sent before');
    expect(
      table
        .split('\n')
        .slice(2)
        .every((row) => row.startsWith('| `')),
    ).toBe(true);
  });
  it('matches the key table in docs/keys.md', () => {
    expect(KEYS_DOC).toContain(`<!-- keys:start -->\n${keyTableMarkdown()}\n<!-- keys:end -->`);
  });
});

describe('keys the person binds (config.json keys)', () => {
  it("reads keys as config.json may write them, in the decoder's spelling", () => {
    expect(normalizeKey('C-r')).toBe('C-r');
    expect(normalizeKey('M-C-Left')).toBe('C-M-left');
    expect(normalizeKey('S-Enter')).toBe('S-enter');
    expect(normalizeKey('c-x  C-E')).toBe('C-x C-e');
    expect(normalizeKey('F2')).toBe('f2');
    expect(normalizeKey('y')).toBe('y');
    for (const bad of ['', 'Ctrl+R', 'C-', 'X-r', 'C-C-r', 'C-enterr', 'a b c']) expect(normalizeKey(bad)).toBeNull();
  });

  it("runs a command by the person's key in every mode it is bound in, and the legends and help name it", () => {
    const { keymap, problems } = buildKeymap({ 'history.searchReverse': ['C-f'], 'approval.yes': ['j'] });
    expect(problems).toEqual([
      'keys: Ctrl+F now runs history.searchReverse in idle mode, no longer editor.right',
      'keys: Ctrl+F now runs history.searchReverse in busy mode, no longer editor.right',
    ]);
    for (const mode of ['idle', 'busy', 'search'] as const) {
      expect(keymap.commandFor(mode, 'C-f')).toBe('history.searchReverse');
      expect(keymap.commandFor(mode, 'C-r')).toBeUndefined();
      expect(keymap.key(mode, 'history.searchReverse')).toBe('Ctrl+F');
    }
    // What lost the key keeps its others.
    expect(keymap.keys('idle', 'editor.right')).toBe('Right');
    expect(keymap.commandFor('approval', 'j')).toBe('approval.yes');
    expect(keymap.helpLines('idle').find((l) => l.includes('Search history backwards'))).toMatch(/^Ctrl\+F\s/);
    expect(DEFAULT_KEYMAP.key('idle', 'history.searchReverse')).toBe('Ctrl+R');
  });

  it('says what it cannot take, and keeps the defaults for it', () => {
    const { keymap, problems } = buildKeymap({ 'history.searchBackwards': ['C-r'], 'editor.undo': ['Ctrl+Z', 'C-_'] });
    expect(problems).toEqual([
      'keys: no command "history.searchBackwards" (docs/keys.md names them)',
      'keys: editor.undo: "Ctrl+Z" is not a key milk reads (such as "C-r", "M-enter", "C-x C-e", "f2")',
    ]);
    expect(keymap.keys('idle', 'editor.undo')).toBe('Ctrl+_');
    // None of the keys given readable: the command keeps its own.
    expect(buildKeymap({ 'editor.undo': ['Ctrl+Z'] }).keymap.keys('idle', 'editor.undo')).toBe(
      'Ctrl+_ or Ctrl+X Ctrl+U',
    );
  });

  it("reports a clash between two of the person's own bindings: the first keeps the key", () => {
    const { keymap, problems } = buildKeymap({ 'editor.undo': ['C-q'], 'editor.redo': ['C-q', 'M-_'] });
    expect(problems).toContain("keys: Ctrl+Q is editor.undo's and editor.redo's in idle mode; editor.undo keeps it");
    expect(keymap.commandFor('idle', 'C-q')).toBe('editor.undo');
    expect(keymap.keys('idle', 'editor.redo')).toBe('Alt+_');
  });

  it('reports a key that starts a chord, which could never run its command', () => {
    const { problems } = buildKeymap({ 'app.redraw': ['C-x'] });
    expect(problems).toContain('keys: Ctrl+X starts a chord in idle mode, so app.redraw never runs by it');
  });

  it('unbinds a command given no keys: it leaves help and the router', () => {
    const { keymap } = buildKeymap({ 'app.suspend': [] });
    expect(keymap.commandFor('idle', 'C-z')).toBeUndefined();
    expect(keymap.helpLines('idle').some((l) => l.includes('Suspend'))).toBe(false);
  });
});

describe('slash commands', () => {
  it('are each named once and described', () => {
    const names = SLASH_COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of SLASH_COMMANDS) expect(c.description).toMatch(/\S/);
  });
  it('match the command table in docs/commands.md', () => {
    expect(COMMANDS_DOC).toContain(
      `<!-- commands:start -->\n${slashTableMarkdown(DEFAULT_KEYMAP)}\n<!-- commands:end -->`,
    );
  });
});

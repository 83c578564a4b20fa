import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDS, CommandName, MODES, SLASH_COMMANDS, slashTableMarkdown } from '../../src/commands';
import { KEYMAP, commandFor, describeKey, helpLines, keyTableMarkdown } from '../../src/tui/keymap';

const README = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('key tables', () => {
  it('binds every command in each mode it applies in, and in no other', () => {
    for (const [name, spec] of Object.entries(COMMANDS)) {
      const boundIn = MODES.filter((m) => KEYMAP[m].some((b) => b.command === name));
      expect(`${name}: ${boundIn.join(',')}`).toBe(`${name}: ${[...spec.modes].sort((a, b) => MODES.indexOf(a) - MODES.indexOf(b)).join(',')}`);
    }
  });
  it('describes every command', () => {
    for (const [name, spec] of Object.entries(COMMANDS)) expect(`${name}: ${spec.description.trim()}`).toMatch(/: \S/);
  });
  it.each(MODES)('binds no key twice in %s mode', (mode) => {
    const keys = KEYMAP[mode].flatMap((b) => b.keys);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
  it('binds only declared commands', () => {
    for (const mode of MODES) for (const b of KEYMAP[mode]) expect(Object.keys(COMMANDS)).toContain(b.command as CommandName);
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
    expect(help).toHaveLength(KEYMAP.idle.length);
    expect(help.find((l) => l.startsWith('Ctrl+R'))).toMatch(/Ctrl\+R\s+Search history backwards/);
  });
  it('names keys as people write them', () => {
    expect(describeKey('C-M-left')).toBe('Ctrl+Alt+Left');
    expect(describeKey('S-enter')).toBe('Shift+Enter');
    expect(describeKey('C-r')).toBe('Ctrl+R');
  });
  it('matches the key table in the README', () => {
    expect(README).toContain(keyTableMarkdown());
  });
});

describe('slash commands', () => {
  it('are each named once and described', () => {
    const names = SLASH_COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of SLASH_COMMANDS) expect(c.description).toMatch(/\S/);
  });
  it('match the command table in the README', () => {
    expect(README).toContain(slashTableMarkdown());
  });
});

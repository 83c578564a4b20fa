import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDS, CommandName, KEYMAP, MODES, commandFor, describeKey, helpLines, keyTableMarkdown } from '../../src/tui/keymap';

describe('key tables', () => {
  it('binds every command in some mode', () => {
    const bound = new Set(MODES.flatMap((m) => KEYMAP[m].map((b) => b.command)));
    expect([...Object.keys(COMMANDS)].filter((c) => !bound.has(c as CommandName))).toEqual([]);
  });
  it('describes every command', () => {
    for (const [name, text] of Object.entries(COMMANDS)) expect(`${name}: ${text.trim()}`).toMatch(/: \S/);
  });
  it.each(MODES)('binds no key twice in %s mode', (mode) => {
    const keys = KEYMAP[mode].flatMap((b) => b.keys);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
  it('routes keys by mode', () => {
    expect(commandFor('idle', 'enter')).toBe('composer.submit');
    expect(commandFor('busy', 'enter')).toBe('composer.queue');
    expect(commandFor('busy', 'C-c')).toBe('app.interrupt');
    expect(commandFor('busy', 'escape')).toBe('turn.cancel');
    expect(commandFor('search', 'C-c')).toBe('search.cancel');
    expect(commandFor('idle', 'C-c')).toBe('app.interrupt');
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
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    expect(readme).toContain(keyTableMarkdown());
  });
});

// The controller's search commands with a real history service on a temp dir.
import * as fs from 'node:fs';
import { Bus } from '../../src/bus';
import { Controller } from '../../src/controller';
import { TurnRunner } from '../../src/agent/runner';
import { OfflineProvider } from '../../src/agent/offline';
import { HistoryService } from '../../src/history/service';
import * as ed from '../../src/editor/model';
import type { CommandName } from '../../src/tui/keymap';
import { tempDir } from '../helpers/pty';
import { composerView } from '../../src/tui/views';

function setup(entries: string[]) {
  const bus = new Bus();
  const dataDir = tempDir();
  const history = new HistoryService({ dataDir, sessionId: 's', workspace: '/w', displayName: 'w', maxEntries: 500, warn: () => undefined });
  history.load();
  for (const t of entries) history.record([{ type: 'text', text: t }]);
  const c = new Controller(bus, new TurnRunner(bus, new OfflineProvider({ wordDelayMs: 1 })), history, 80);
  const run = (...names: CommandName[]) => names.forEach((n) => bus.emit('command', { name: n }));
  const type = (text: string) => bus.emit('input.text', { text });
  const snapshot = () => fs.readdirSync(dataDir, { recursive: true }).map(String).sort().map((f) => [f, fs.statSync(`${dataDir}/${f}`).isFile() ? fs.readFileSync(`${dataDir}/${f}`, 'utf8') : '']);
  return { bus, c, run, type, history, snapshot };
}

describe('search in the controller', () => {
  it('8. Enter accepts: the match in the composer, cursor at the end, nothing submitted', () => {
    const { c, run, type } = setup(['deploy staging', 'run tests']);
    run('history.searchReverse');
    expect(c.mode).toBe('search');
    type('depl');
    expect(c.editor.text).toBe('deploy staging');
    expect(c.searchView?.prompt).toBe("(reverse-i-search)`depl': deploy staging");
    expect(c.searchView?.highlight).toEqual({ start: 0, end: 4 });
    run('search.accept');
    expect(c.mode).toBe('idle');
    expect(c.editor.text).toBe('deploy staging');
    expect(c.editor.cursor).toBe('deploy staging'.length);
    expect(c.transcript.rowCount).toBe(0);
  });

  it('8. cancel restores a multi-line draft with its cursor, for Esc, Ctrl+C and Ctrl+G alike', () => {
    const { c, run, type } = setup(['alpha', 'beta']);
    type('line one');
    run('editor.newline');
    type('line two');
    run('editor.up', 'editor.left');
    const before = c.editor;
    run('history.searchReverse');
    type('alp');
    expect(c.editor.text).toBe('alpha');
    run('search.cancel');
    expect(c.editor.text).toBe(before.text);
    expect(c.editor.cursor).toBe(before.cursor);
    expect(c.mode).toBe('idle');
  });

  it('8. a movement key accepts and then moves', () => {
    const { c, run, type } = setup(['first entry']);
    run('history.searchReverse');
    type('entry');
    // As the router sends it for Home: accept, then the key's own command.
    run('search.accept', 'editor.lineStart');
    expect(c.mode).toBe('idle');
    expect(c.editor.text).toBe('first entry');
    expect(c.editor.cursor).toBe(0);
  });

  it('9. a paste extends the query with its first line only', () => {
    const { c, bus, run } = setup(['one two', 'three']);
    run('history.searchReverse');
    bus.emit('input.paste', { text: 'one\nignored' });
    expect(c.searchView?.prompt).toContain("`one'");
    expect(c.editor.text).toBe('one two');
  });

  it('5. Ctrl+R on an empty query reuses the last accepted query', () => {
    const { c, run, type } = setup(['make a', 'other', 'make b']);
    run('history.searchReverse');
    type('make');
    run('search.accept');
    run('app.interrupt');
    run('history.searchReverse', 'history.searchReverse');
    expect(c.searchView?.prompt).toBe("(reverse-i-search)`make': make b");
  });

  it('walks the global list in global mode', () => {
    const { c, run, type, history } = setup(['mine']);
    // Simulate another session's entry in the global list only.
    history.mode = 'global';
    history.remember([{ type: 'text', text: 'from elsewhere' }]);
    run('history.searchReverse');
    type('elsewhere');
    expect(c.editor.text).toBe('from elsewhere');
    expect(c.searchView?.prompt).toMatch(/^\(reverse-i-search\)/);
  });

  it('10. never changes a history file', () => {
    const { run, type, snapshot } = setup(['a1', 'a2', 'b1']);
    const before = snapshot();
    run('history.searchReverse');
    type('a');
    run('history.searchReverse', 'history.searchForward', 'search.backspace', 'search.accept');
    run('history.searchForward');
    type('b');
    run('search.cancel');
    expect(snapshot()).toEqual(before);
  });

  it('2. scrolls a long multi-line match into view in the composer', () => {
    const long = Array.from({ length: 30 }, (_, i) => (i === 25 ? 'the needle is here' : `filler line ${i}`)).join('\n');
    const { c, run, type } = setup([long, 'other']);
    run('history.searchReverse');
    type('needle');
    const view = composerView(c.editor, 40, 4, 0, c.searchView!.highlight!);
    const text = view.rows.map((r) => r.map((sp) => sp.text).join(''));
    expect(text).toContain('the needle is here');
    const row = view.rows[text.indexOf('the needle is here')];
    expect(row.find((sp) => sp.style === 'match')?.text).toBe('needle');
  });

  it('after accepting, Down walks newer from the match and then restores the draft', () => {
    const { c, run, type } = setup(['old', 'mid', 'new']);
    type('draft');
    run('history.searchReverse');
    type('old');
    run('search.accept');
    expect(c.editor.text).toBe('old');
    run('editor.down');
    expect(c.editor.text).toBe('mid');
    run('editor.down', 'editor.down');
    expect(ed.expandedText(c.editor)).toBe('draft');
  });
});

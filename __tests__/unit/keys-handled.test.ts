// Every key command bound where the composer takes keys does something there: it changes the draft, the history
// walk or the views over it, or asks the coordinator for an effect. A command bound in the composer's modes that
// nothing handles (the reducer's `default:`) fails here.
import type { CommandName, Mode } from '../../src/composer/views/registry';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap';
import { composer } from '../helpers/composer';

/** What some commands need first to have anything to act on: a walk begun, an edit undone, text cut, a prefix. */
const BEFORE: Partial<Record<CommandName, readonly CommandName[]>> = {
  'history.newer': ['history.older'],
  // Nothing before the cursor: the prefix search steps as Up and Down do.
  'history.searchPrefixBackward': ['editor.lineStart'],
  'history.searchPrefixForward': ['editor.lineStart', 'history.searchPrefixBackward', 'editor.lineStart'],
  'editor.redo': ['editor.killWordBack', 'editor.undo'],
  'editor.yank': ['editor.killWordBack'],
  'editor.yankPop': ['editor.killWordBack', 'editor.killWordBack', 'editor.yank'],
};

/** A draft with room to move every way: two lines, the cursor inside the first, history on both sides. */
function ready(mode: 'idle' | 'busy') {
  const c = composer(['first entry', 'second entry'], { busy: mode === 'busy' });
  c.type('hello world');
  c.feed({ kind: 'command', name: 'editor.newline' });
  c.type('again here');
  c.run('editor.up', 'editor.left', 'editor.left', 'editor.left');
  c.effects.length = 0;
  return c;
}

describe.each<'idle' | 'busy'>(['idle', 'busy'])('in the %s composer', (mode: Mode & ('idle' | 'busy')) => {
  const commands = [...new Set(DEFAULT_KEYMAP.tables[mode].map((b) => b.command))];

  it('binds keys to commands at all', () => expect(commands.length).toBeGreaterThan(30));

  /** What a command changed: the draft and its walk through history, the views over it, or an effect asked for. */
  const changed = (name: CommandName) => {
    const c = ready(mode);
    c.run(...(BEFORE[name] ?? []));
    // Tab completes what it has a list for: a slash command's name being typed.
    if (name === 'composer.complete') {
      c.ui = composer().ui;
      c.type('/he');
    }
    const before = JSON.stringify(c.ui);
    const effects = c.run(name);
    return JSON.stringify(c.ui) !== before || effects.length > 0;
  };

  it.each(commands)('%s does something', (name) => expect(changed(name)).toBe(true));

  it("counts a command nobody handles here as doing nothing (a modal's answer, typed in the composer)", () => {
    expect(changed('confirm.yes')).toBe(false);
    expect(changed('copy.left')).toBe(false);
  });
});

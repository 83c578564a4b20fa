// The composer in vi mode (composer/vi-input.ts), driven as a person drives it: typing in the insert state, Esc to the
// normal state, vi's commands as letters, the composer's undo, Up/Down as j/k, Enter back to the insert state.
import { composer } from '../helpers/composer';
import { viHighlight, viInput, viStateName } from '../../src/composer/vi-input';

const vi = (history: string[] = []) => composer(history, { vi: viInput });

describe('the composer in vi mode', () => {
  it('types in the insert state; Esc goes to the normal state, a character back', () => {
    const c = vi();
    c.type('hello world');
    expect(viStateName(c.ui.composer.vi)).toBe('INSERT');
    c.run('session.rewind');
    expect(viStateName(c.ui.composer.vi)).toBe('NORMAL');
    expect(c.draft.cursor).toBe(10);
    // Esc in the insert state is not Esc Esc's first half: no rewind asked.
    expect(c.effects).toEqual([]);
  });

  it('takes letters as commands in the normal state, and u as the composer undo', () => {
    const c = vi();
    c.type('one two three');
    c.run('session.rewind');
    c.type('0dw');
    expect(c.text).toBe('two three');
    c.type('w');
    c.type('D');
    expect(c.text).toBe('two ');
    c.type('u');
    expect(c.text).toBe('two three');
    c.type('u');
    expect(c.text).toBe('one two three');
  });

  it('keeps a count and an operator pending across inputs (keys may come one at a time)', () => {
    const c = vi();
    c.type('a b c d');
    c.run('session.rewind');
    for (const k of '0d2w') c.type(k);
    expect(c.text).toBe('c d');
  });

  it('opens the insert state with i a A o, and a change repeats with its text', () => {
    const c = vi();
    c.type('foo bar');
    c.run('session.rewind');
    c.type('0cwbaz');
    expect(viStateName(c.ui.composer.vi)).toBe('INSERT');
    c.run('session.rewind');
    c.type('w.');
    expect(c.text).toBe('baz baz');
    c.type('o');
    c.type('next');
    expect(c.text).toBe('baz baz\nnext');
  });

  it("browses history with k and j from the draft's first and last lines, as Up and Down", () => {
    const c = vi(['older one', 'newest']);
    c.run('session.rewind');
    c.type('k');
    expect(c.text).toBe('newest');
    c.type('k');
    expect(c.text).toBe('older one');
    expect(c.draft.cursor).toBe(8);
    c.type('j');
    expect(c.text).toBe('newest');
  });

  it('moves between the lines of a multi-line draft with j and k before history', () => {
    const c = vi(['from history']);
    c.type('first line');
    c.run('editor.newline');
    c.type('second');
    c.run('session.rewind');
    c.type('k');
    expect(c.text).toBe('first line\nsecond');
    expect(c.draft.cursor).toBeLessThan(10);
    c.type('k');
    expect(c.text).toBe('from history');
  });

  it('lights a visual selection and acts on it', () => {
    const c = vi();
    c.type('keep cut this');
    c.run('session.rewind');
    c.type('0wve');
    expect(viStateName(c.ui.composer.vi)).toBe('VISUAL');
    expect(c.search).toBeNull();
    expect(viHighlight(c.ui.composer)).toEqual({ start: 5, end: 8 });
    c.type('d');
    expect(c.text).toBe('keep  this');
    expect(viStateName(c.ui.composer.vi)).toBe('NORMAL');
  });

  it('starts the next input in the insert state once one is sent', () => {
    const c = vi();
    c.type('send me');
    c.run('session.rewind');
    c.run('composer.submit');
    expect(c.text).toBe('');
    expect(viStateName(c.ui.composer.vi)).toBe('INSERT');
  });

  it("leaves emacs mode's letters as typing", () => {
    const c = composer();
    c.type('dw');
    c.run('session.rewind');
    c.type('x');
    expect(c.text).toBe('dwx');
  });

  it('puts what dw deleted where Ctrl+Y yanks (the unnamed register is the kill ring)', () => {
    const c = vi();
    c.type('alpha beta');
    c.run('session.rewind');
    c.type('0dwA ');
    c.run('editor.yank');
    expect(c.text).toBe('beta alpha ');
  });

  it('searches history with / (older) and ? (newer), and n N repeat the search', () => {
    const c = vi(['make test', 'git status', 'make build', 'ls']);
    c.run('session.rewind');
    c.type('/');
    expect(c.mode).toBe('search');
    c.type('make');
    // Non-incremental, as readline's: the query in the status bar, the draft as it was until Enter.
    expect(c.search?.prompt).toBe('/make');
    expect(c.text).toBe('');
    c.run('search.accept');
    expect(c.text).toBe('make build');
    expect(viStateName(c.ui.composer.vi)).toBe('NORMAL');
    c.type('n');
    expect(c.text).toBe('make test');
    c.type('n');
    expect(c.text).toBe('make test');
    c.type('N');
    expect(c.text).toBe('make build');
  });
});

import * as ed from '../../src/editor/model';
import * as nav from '../../src/history/navigator';
import type { HistoryEntry } from '../../src/history/rules';

const entries: HistoryEntry[] = ['first', 'two\nlines', 'newest'].map((t) => ({
  ts: 't',
  segments: [{ type: 'text', text: t }],
}));
const at = (template: string): ed.EditorState => ({
  ...ed.emptyEditor,
  text: template.replace('|', ''),
  cursor: template.indexOf('|'),
});

describe('history navigation', () => {
  it('walks newest first and saves the draft with its cursor', () => {
    const draft = at('my dr|aft');
    let step = nav.older(nav.idleNav, draft, entries)!;
    expect(step.editor.text).toBe('newest');
    expect(step.editor.cursor).toBe('newest'.length);
    step = nav.older(step.nav, step.editor, entries)!;
    expect(step.editor.text).toBe('two\nlines');
    step = nav.older(step.nav, step.editor, entries)!;
    expect(step.editor.text).toBe('first');
    expect(nav.older(step.nav, step.editor, entries)).toBeNull();
    step = nav.newer(step.nav, step.editor, entries)!;
    step = nav.newer(step.nav, step.editor, entries)!;
    step = nav.newer(step.nav, step.editor, entries)!;
    // Past the newest: the draft, exactly, cursor included.
    expect(step.editor.text).toBe('my draft');
    expect(step.editor.cursor).toBe(5);
    expect(step.nav).toEqual(nav.idleNav);
    expect(nav.newer(step.nav, step.editor, entries)).toBeNull();
  });

  it('restores a multi-line draft with pastes', () => {
    const draft = ed.insertPaste(at('a\nb|'), 'x\n'.repeat(20));
    const back = nav.newer(nav.older(nav.idleNav, draft, entries)!.nav, ed.emptyEditor, entries)!;
    expect(ed.toSegments(back.editor)).toEqual(ed.toSegments(draft));
    expect(back.editor.cursor).toBe(draft.cursor);
  });

  it('never changes a stored entry when the recall is edited', () => {
    const step = nav.older(nav.idleNav, ed.emptyEditor, entries)!;
    const edited = ed.insertText(step.editor, ' changed');
    expect(edited.text).toBe('newest changed');
    expect(entries[2].segments[0].text).toBe('newest');
    expect(nav.isUnedited(step.nav, edited)).toBe(false);
    expect(nav.isUnedited(step.nav, ed.moveLeft(step.editor))).toBe(true);
  });

  it('browses on the first line, moves the cursor elsewhere', () => {
    expect(nav.shouldBrowse(nav.idleNav, at('a|\nb'), -1)).toBe(true);
    expect(nav.shouldBrowse(nav.idleNav, at('a\nb|'), -1)).toBe(false);
    expect(nav.shouldBrowse(nav.idleNav, at('a\nb|'), 1)).toBe(true);
    expect(nav.shouldBrowse(nav.idleNav, at('a|\nb'), 1)).toBe(false);
    expect(nav.shouldBrowse(nav.idleNav, at('|'), 1)).toBe(true);
  });

  it('keeps browsing through an unedited multi-line recall wherever the cursor is', () => {
    let step = nav.older(nav.idleNav, ed.emptyEditor, entries)!;
    step = nav.older(step.nav, step.editor, entries)!;
    expect(step.editor.text).toBe('two\nlines');
    // The cursor is on the last line, yet Up still browses: the recall is unedited.
    expect(nav.shouldBrowse(step.nav, step.editor, -1)).toBe(true);
    // Once edited, Up first moves within the text.
    const edited = ed.insertText(step.editor, '!');
    expect(nav.shouldBrowse(step.nav, edited, -1)).toBe(false);
  });

  it('does nothing with an empty history', () => {
    expect(nav.older(nav.idleNav, at('x|'), [])).toBeNull();
  });
});

describe("prefix search (readline's history-search-backward and -forward)", () => {
  const list: HistoryEntry[] = ['make build', 'ls', 'make test', 'make test', 'git status', 'make lint'].map((t) => ({
    ts: 't',
    segments: [{ type: 'text', text: t }],
  }));
  const shown = (s: nav.Step | null): string | null =>
    s && `${s.editor.text.slice(0, s.editor.cursor)}|${s.editor.text.slice(s.editor.cursor)}`;

  it('walks older entries that start with the text before the cursor, the cursor left after it, a repeat passed over', () => {
    let step = nav.prefixStep(nav.idleNav, at('make|'), list, -1)!;
    expect(shown(step)).toBe('make| lint');
    step = nav.prefixStep(step.nav, step.editor, list, -1)!;
    expect(shown(step)).toBe('make| test');
    // The same text just found, once more in a row: passed over.
    step = nav.prefixStep(step.nav, step.editor, list, -1)!;
    expect(shown(step)).toBe('make| build');
    // None older: nothing changes.
    expect(nav.prefixStep(step.nav, step.editor, list, -1)).toBeNull();
    step = nav.prefixStep(step.nav, step.editor, list, 1)!;
    expect(shown(step)).toBe('make| test');
  });

  it('takes the text before the cursor, not the whole line, and begins again once the line is edited', () => {
    let step = nav.prefixStep(nav.idleNav, at('g|it'), list, -1)!;
    expect(shown(step)).toBe('g|it status');
    // Edited: a new search with what is now before the cursor.
    const typed = { ...step.editor, text: 'm', cursor: 1 };
    step = nav.prefixStep(step.nav, typed, list, -1)!;
    expect(shown(step)).toBe('m|ake test');
  });

  it('with nothing before the cursor, steps as Up and Down do; the draft comes back past the newest', () => {
    let step = nav.prefixStep(nav.idleNav, at('|'), list, -1)!;
    expect(step.editor.text).toBe('make lint');
    step = nav.prefixStep(step.nav, { ...step.editor, cursor: 0 }, list, 1)!;
    expect(step.editor.text).toBe('');
    expect(nav.prefixStep(nav.idleNav, at('zz|'), list, -1)).toBeNull();
  });
});

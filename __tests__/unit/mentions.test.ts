// @-mentions: the ranking on a fixed tree, the picker as a view over the composer, and the file segment.
import { browsePaths, mergeHits, preparePaths, rankSlice, withFolders } from '../../src/search/files';
import { top } from '../../src/composer/stack';
import type { CommandName } from '../../src/composer/views/registry';
import * as ed from '../../src/editor/model';
import { composer } from '../helpers/composer';

const TREE = [
  'README.md',
  'package.json',
  'src/main.ts',
  'src/app.ts',
  'src/tui/main-view.ts',
  'src/tui/input.ts',
  'src/editor/model.ts',
  'scripts/make-all.js',
  'docs/manual.md',
  '__tests__/unit/main.test.ts',
];

describe('ranking paths for @', () => {
  const all = withFolders(TREE);
  const prepared = preparePaths(all);
  const rank = (q: string, limit = 5) => rankSlice(q, prepared, 0, prepared.length, limit).map((h) => h.path);

  it('lists each folder once, before its files', () => {
    expect(all.slice(0, 6)).toEqual(['README.md', 'package.json', 'src/', 'src/main.ts', 'src/app.ts', 'src/tui/']);
    expect(all.filter((p) => p === 'src/').length).toBe(1);
  });
  it('ranks as fzf would on paths: contiguous runs and segment starts first, then the shorter path', () => {
    expect(rank('src/ma')[0]).toBe('src/main.ts');
    expect(rank('main')[0]).toBe('src/main.ts');
    expect(rank('mdl')).toContain('src/editor/model.ts');
    expect(rank('tui/')[0]).toBe('src/tui/');
    expect(rank('zzzz')).toEqual([]);
  });
  it('gives the matched characters for lighting them', () => {
    const [hit] = rankSlice('smain', prepared, 0, prepared.length, 1);
    expect(hit.indexes.length).toBe(5);
  });
  it('merges slices into one list, best first, as if ranked whole', () => {
    const a = rankSlice('main', prepared, 0, 5, 10);
    const b = rankSlice('main', prepared, 5, prepared.length, 10);
    expect(mergeHits(a, b, 10).map((h) => h.path)).toEqual(rank('main', 10));
  });
  it('before a query, offers the top level: folders first', () => {
    expect(browsePaths(all, 4).map((h) => h.path)).toEqual(['__tests__/', 'docs/', 'scripts/', 'src/']);
  });
});

describe('the @ picker over the composer', () => {
  /** The shared driver, typing a key at a time, with the index's answers fed in as the coordinator feeds them. */
  function picker() {
    const c = composer();
    return {
      feed: c.feed,
      ui: () => c.ui,
      list: () => c.mentions,
      text: () => ed.expandedText(c.ui.composer.editor),
      keys: (t: string) => [...t].flatMap((ch) => c.type(ch)),
      key: (name: CommandName) => c.run(name),
      results: (query: string, paths: string[]) =>
        c.feed({
          kind: 'mentionResults',
          query,
          hits: paths.map((path) => ({ path, score: 1, indexes: [] })),
          indexing: false,
          cut: false,
        }),
    };
  }

  it('opens on an @ at a word start, asks for each query, and Tab puts the chosen path in as a file chip', () => {
    const c = picker();
    c.keys('see ');
    expect(c.keys('@')).toEqual([{ type: 'mentionQuery', query: '', opened: true }]);
    expect(top(c.ui())?.mode).toBe('mention');
    expect(c.keys('ma')).toEqual([
      { type: 'mentionQuery', query: 'm' },
      { type: 'mentionQuery', query: 'ma' },
    ]);
    // An answer to an older query is dropped.
    c.results('m', ['nope']);
    expect(c.list()?.hits).toEqual([]);
    c.results('ma', ['src/main.ts', 'src/tui/main-view.ts']);
    c.key('mention.next');
    expect(c.list()?.selected).toBe(1);
    c.key('mention.prev');
    c.key('mention.accept');
    expect(top(c.ui())).toBeNull();
    expect(ed.toSegments(c.ui().composer.editor)).toEqual([
      { type: 'text', text: 'see ' },
      { type: 'file', text: 'src/main.ts' },
      { type: 'text', text: ' ' },
    ]);
    expect(c.text()).toBe('see @src/main.ts ');
    expect(ed.displayText(ed.toSegments(c.ui().composer.editor))).toBe('see @src/main.ts ');
    // The chip is one atom: one Backspace after the space takes it whole; undo brings it back.
    c.key('editor.backspace');
    c.key('editor.backspace');
    expect(c.text()).toBe('see ');
    c.key('editor.undo');
    expect(c.text()).toBe('see @src/main.ts');
  });
  it('opens with the query when the @ and what follows it came in one chunk (fast typing)', () => {
    const c = picker();
    expect(c.feed({ kind: 'text', text: 'see @src/ma' })).toEqual([
      { type: 'mentionQuery', query: 'src/ma', opened: true },
    ]);
    expect(c.list()?.query).toBe('src/ma');
  });
  it('does not open inside a word (an address); Esc leaves the @query as typed', () => {
    const c = picker();
    c.keys('me@host');
    expect(top(c.ui())).toBeNull();
    c.keys(' @src');
    expect(top(c.ui())?.mode).toBe('mention');
    c.key('mention.cancel');
    expect(top(c.ui())).toBeNull();
    expect(c.text()).toBe('me@host @src');
  });
  it('closes when the word ends or the @ is rubbed out, keeping what was typed', () => {
    const c = picker();
    c.keys('@ab');
    c.keys(' ');
    expect(top(c.ui())).toBeNull();
    expect(c.text()).toBe('@ab ');
    const d = picker();
    d.keys('@a');
    d.key('editor.backspace');
    expect(top(d.ui())?.mode).toBe('mention');
    d.key('editor.backspace');
    expect(top(d.ui())).toBeNull();
    expect(d.text()).toBe('');
  });
  it('submits the file segment; the text carries @path for the attachment to follow', () => {
    const c = picker();
    c.keys('read @');
    c.results('', ['src/']);
    c.key('mention.accept');
    c.keys('please');
    const sent = c.key('composer.submit').find((e) => e.type === 'submit');
    expect(sent).toMatchObject({
      input: {
        text: 'read @src/ please',
        segments: [
          { type: 'text', text: 'read ' },
          { type: 'file', text: 'src/' },
          { type: 'text', text: ' please' },
        ],
      },
    });
  });
});

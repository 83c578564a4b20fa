import * as router from '../../src/tui/router';
import { DEFAULT_KEYMAP, describeKey } from '../../src/tui/keymap';

const route = (a: Parameters<typeof router.route>[0], modes: Parameters<typeof router.route>[1]) =>
  router.route(a, modes, DEFAULT_KEYMAP);
const routeChord = (
  a: Parameters<typeof router.routeChord>[0],
  modes: Parameters<typeof router.routeChord>[1],
  prefix: string | null,
) => router.routeChord(a, modes, prefix, DEFAULT_KEYMAP);

const cmd = (name: string) => ({ kind: 'command', name });
const text = (t: string) => ({ kind: 'text', text: t });

describe('the key router', () => {
  it('runs the command the mode binds', () => {
    expect(route({ kind: 'key', key: 'enter' }, ['idle'])).toEqual([cmd('composer.submit')]);
    expect(route({ kind: 'key', key: 'enter' }, ['busy'])).toEqual([cmd('composer.queue')]);
    expect(route({ kind: 'key', key: 'f7' }, ['idle'])).toEqual([]);
  });
  it('looks a key up in the top view first, then in the composer beneath', () => {
    expect(route({ kind: 'key', key: 'enter' }, ['search', 'idle'])).toEqual([cmd('search.accept')]);
    // The search view itself turns a composer key into "accept, then this".
    expect(route({ kind: 'key', key: 'left' }, ['search', 'busy'])).toEqual([cmd('editor.left')]);
    expect(route({ kind: 'key', key: 'f7' }, ['search', 'idle'])).toEqual([]);
  });
  it('sends text to the composer, or the query, as text', () => {
    expect(route({ kind: 'text', text: 'hi' }, ['search', 'idle'])).toEqual([text('hi')]);
  });
  it('takes a lone letter as the answer to a question; text that came in one chunk is typing', () => {
    expect(route({ kind: 'text', text: 'Y' }, ['approval', 'busy'])).toEqual([cmd('approval.yes')]);
    expect(route({ kind: 'text', text: 'a' }, ['approval', 'busy'])).toEqual([cmd('approval.always')]);
    expect(route({ kind: 'text', text: 'okay' }, ['approval', 'busy'])).toEqual([text('okay')]);
    expect(route({ kind: 'text', text: 'yes' }, ['confirm', 'search', 'idle'])).toEqual([text('yes')]);
    expect(route({ kind: 'key', key: 'C-c' }, ['approval', 'busy'])).toEqual([cmd('app.interrupt')]);
  });
  it("takes the space bar as the key its table names `space` where a view takes letters (a pager's page down)", () => {
    expect(route({ kind: 'text', text: ' ' }, ['diff', 'idle'])).toEqual([cmd('diff.pageDown')]);
    expect(route({ kind: 'text', text: ' ' }, ['idle'])).toEqual([text(' ')]);
  });
  it('passes pastes and the wheel on', () => {
    expect(route({ kind: 'paste', text: 'a\nb' }, ['idle'])).toEqual([{ kind: 'paste', text: 'a\nb' }]);
    expect(route({ kind: 'wheel', dir: 'up' }, ['busy'])).toEqual([{ kind: 'wheel', dir: 'up' }]);
  });
});

describe('chords (Ctrl+X then a key), as readline has them', () => {
  const key = (k: string) => ({ kind: 'key' as const, key: k });
  /** Feeds keys in order, the prefix carried from one to the next; returns everything routed and the prefix left. */
  const feed = (modes: Parameters<typeof routeChord>[1], ...actions: Parameters<typeof routeChord>[0][]) => {
    let prefix: string | null = null;
    const out: unknown[] = [];
    for (const a of actions) {
      const step = routeChord(a, modes, prefix);
      prefix = step.prefix;
      out.push(...step.routed);
    }
    return { out, prefix };
  };
  it('Ctrl+X Ctrl+E opens the editor when idle, Ctrl+X Ctrl+U undoes in any composing mode', () => {
    expect(feed(['idle'], key('C-x'), key('C-e'))).toEqual({ out: [cmd('composer.externalEditor')], prefix: null });
    expect(feed(['busy'], key('C-x'), key('C-u'))).toEqual({ out: [cmd('editor.undo')], prefix: null });
    // Through a search to the composer underneath, which the search then hands it to.
    expect(feed(['search', 'idle'], key('C-x'), key('C-u')).out).toEqual([cmd('editor.undo')]);
  });
  it('holds the prefix alone, and the keys on their own still do their own jobs', () => {
    expect(feed(['idle'], key('C-x'))).toEqual({ out: [], prefix: 'C-x' });
    expect(feed(['idle'], key('C-e'), key('C-u')).out).toEqual([cmd('editor.lineEnd'), cmd('editor.killLineStart')]);
  });
  it('an unbound chord does nothing and ends; a character after the prefix is taken by it', () => {
    expect(feed(['idle'], key('C-x'), key('f7'), key('C-e'))).toEqual({ out: [cmd('editor.lineEnd')], prefix: null });
    expect(feed(['idle'], key('C-x'), { kind: 'text', text: 'ab' })).toEqual({ out: [text('b')], prefix: null });
    expect(feed(['idle'], key('C-x'), { kind: 'paste', text: 'p' })).toEqual({
      out: [{ kind: 'paste', text: 'p' }],
      prefix: null,
    });
  });
  it('names chords as people write them', () => {
    expect(describeKey('C-x C-e')).toBe('Ctrl+X Ctrl+E');
  });
});

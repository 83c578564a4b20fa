import * as s from '../../src/search/search';
import type { HistoryEntry } from '../../src/history/rules';
import type { Segment } from '../../src/protocol/segments';

const E = (...texts: string[]): HistoryEntry[] =>
  texts.map((t) => ({ ts: 't', segments: [{ type: 'text', text: t }] }));
const type = (st: s.SearchState, list: HistoryEntry[], q: string) =>
  [...q].reduce((acc, ch) => s.typeQuery(acc, list, ch), st);
const at = (st: s.SearchState) => st.match?.index ?? null;

describe('searchBack / searchForward', () => {
  const list = E('git status', 'npm test', 'git commit', 'npm run build');
  it('finds the newest match at or before from', () => {
    expect(s.searchBack(list, 'git', 3)).toEqual({ index: 2, start: 0, end: 3 });
    expect(s.searchBack(list, 'git', 1)).toEqual({ index: 0, start: 0, end: 3 });
    expect(s.searchBack(list, 'zzz', 3)).toBeNull();
  });
  it('finds the oldest match at or after from', () => {
    expect(s.searchForward(list, 'npm', 0)).toEqual({ index: 1, start: 0, end: 3 });
    expect(s.searchForward(list, 'npm', 2)).toEqual({ index: 3, start: 0, end: 3 });
    expect(s.searchForward(list, 'npm', 4)).toBeNull();
  });
  it('passes over entries the skip rule names', () => {
    expect(s.searchBack(list, 'git', 3, (t) => t === 'git commit')?.index).toBe(0);
    expect(s.searchForward(list, 'npm', 0, (t) => t.startsWith('npm t'))?.index).toBe(3);
  });
  it('is smart about case', () => {
    const l = E('Deploy NOW', 'deploy later');
    expect(s.searchBack(l, 'deploy', 1)?.index).toBe(1);
    expect(s.searchBack(l, 'Deploy', 1)?.index).toBe(0);
    expect(s.searchBack(l, 'now', 1)?.index).toBe(0);
    expect(s.searchBack(l, 'Now', 1)).toBeNull();
  });
  it('matches inside paste segments and across multi-line entries', () => {
    const l: HistoryEntry[] = [
      {
        ts: 't',
        segments: [
          { type: 'text', text: 'see ' },
          { type: 'paste', text: 'line1\nneedle here' },
        ],
      },
    ];
    expect(s.searchBack(l, 'needle', 0)).toEqual({ index: 0, start: 10, end: 16 });
  });
  it('finds the last occurrence going back and the first going forward, never across two entries', () => {
    const l = E('ab ab', 'x', 'ab');
    expect(s.searchBack(l, 'ab', 0)).toEqual({ index: 0, start: 3, end: 5 });
    expect(s.searchForward(l, 'ab', 0)).toEqual({ index: 0, start: 0, end: 2 });
    expect(s.searchBack(E('a', 'b'), 'ab', 1)).toBeNull();
    expect(s.searchBack(E('a', 'b'), 'a\u0000b', 1)).toBeNull();
  });
  it('sees entries added to a list in place, and a list that lost its oldest', () => {
    const l = E('one', 'two');
    expect(s.searchBack(l, 'thr', 1)).toBeNull();
    l.push(...E('three'));
    expect(s.searchBack(l, 'thr', 2)?.index).toBe(2);
    l.shift();
    expect(s.searchBack(l, 'one', 1)).toBeNull();
    expect(s.searchBack(l, 'thr', 1)?.index).toBe(1);
  });
  it('agrees with a plain scan of every entry, for any list and query (property)', () => {
    const fc = require('fast-check') as typeof import('fast-check');
    const word = fc.constantFrom('a', 'b', 'A', 'ab', 'B a', '\n', 'İ', 'é');
    fc.assert(
      fc.property(
        fc.array(
          fc.array(word, { maxLength: 4 }).map((w) => w.join('')),
          { minLength: 1, maxLength: 12 },
        ),
        fc.constantFrom('a', 'b', 'ab', 'A', 'B', 'a\nb', 'é'),
        fc.nat(),
        (texts, q, f) => {
          const l = E(...texts);
          const from = f % texts.length;
          const sensitive = q !== q.toLowerCase();
          const norm = (t: string) => (sensitive || t.toLowerCase().length !== t.length ? t : t.toLowerCase());
          const needle = sensitive ? q : q.toLowerCase();
          let back = null;
          for (let i = from; i >= 0 && !back; i--)
            if (norm(texts[i]).includes(needle))
              back = {
                index: i,
                start: norm(texts[i]).lastIndexOf(needle),
                end: norm(texts[i]).lastIndexOf(needle) + q.length,
              };
          let fwd = null;
          for (let i = from; i < texts.length && !fwd; i++)
            if (norm(texts[i]).includes(needle))
              fwd = { index: i, start: norm(texts[i]).indexOf(needle), end: norm(texts[i]).indexOf(needle) + q.length };
          expect(s.searchBack(l, q, from)).toEqual(back);
          expect(s.searchForward(l, q, from)).toEqual(fwd);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('search state machine', () => {
  const list = E('make build', 'git push', 'make test', 'git pull', 'make test', 'echo done');

  it('1. starts with no match and an empty query', () => {
    const st = s.startSearch('reverse');
    expect([st.query, st.match, st.failing, st.direction]).toEqual(['', null, false, 'reverse']);
  });

  it('3. stays on the current entry while it still matches, else moves on', () => {
    let st = type(s.startSearch('reverse'), list, 'ma');
    expect(at(st)).toBe(4);
    st = type(st, list, 'ke t');
    expect(at(st)).toBe(4);
    st = s.startSearch('reverse');
    st = type(st, list, 'git');
    expect(at(st)).toBe(3);
    st = type(st, list, ' pus');
    expect(at(st)).toBe(1);
  });

  it('4. repeats older with Ctrl+R, newer with Ctrl+S, skipping texts already shown', () => {
    let st = type(s.startSearch('reverse'), list, 'make');
    expect(at(st)).toBe(4);
    st = s.searchAgain(st, list, 'reverse', null);
    // Entry 2 is "make test" again: skipped.
    expect(at(st)).toBe(0);
    st = s.searchAgain(st, list, 'reverse', null);
    expect(st.failing).toBe(true);
    expect(at(st)).toBe(0);
    // As in bash: the first Ctrl+S turns around on the current match, the next one moves.
    st = s.searchAgain(st, list, 'forward', null);
    expect([st.direction, st.failing, at(st)]).toEqual(['forward', false, 0]);
    st = s.searchAgain(st, list, 'forward', null);
    expect(at(st)).toBe(2);
    // Going on in one direction still passes over a text shown on the way (entry 4 is "make test" again).
    st = s.searchAgain(st, list, 'forward', null);
    expect([st.failing, at(st)]).toEqual([true, 2]);
  });

  it('2. turns around as bash does: make build-all, test-unit, test-e2e and Ctrl+R make ^R ^R ^S ^S gives test-unit', () => {
    const l = E('make build-all', 'make test-unit', 'make test-e2e');
    const steps: Array<'reverse' | 'forward'> = ['reverse', 'reverse', 'forward', 'forward'];
    const seen: Array<number | null> = [];
    let st = type(s.startSearch('reverse'), l, 'make');
    for (const d of steps) {
      st = s.searchAgain(st, l, d, null);
      seen.push(at(st));
    }
    expect(seen).toEqual([1, 0, 0, 1]);
    // And back again: one Ctrl+R turns, the next moves older.
    st = s.searchAgain(st, l, 'reverse', null);
    expect([st.direction, at(st)]).toEqual(['reverse', 1]);
    st = s.searchAgain(st, l, 'reverse', null);
    expect(at(st)).toBe(0);
  });

  it('2. a repeat walks the occurrences inside the current entry before leaving it, as readline does', () => {
    const l = E('printf a\nprintf b', 'other', 'printf c\nprintf d');
    let st = type(s.startSearch('reverse'), l, 'printf');
    expect(st.match).toEqual({ index: 2, start: 9, end: 15 });
    st = s.searchAgain(st, l, 'reverse', null);
    expect(st.match).toEqual({ index: 2, start: 0, end: 6 });
    st = s.searchAgain(st, l, 'reverse', null);
    expect(st.match).toEqual({ index: 0, start: 9, end: 15 });
    st = s.searchAgain(st, l, 'forward', null);
    st = s.searchAgain(st, l, 'forward', null);
    expect(st.match).toEqual({ index: 2, start: 0, end: 6 });
  });

  it('2. a failing repeat turns around without failing, on the match it kept', () => {
    const l = E('make build-all', 'make test-unit', 'make test-e2e');
    let st = type(s.startSearch('reverse'), l, 'make');
    st = s.searchAgain(s.searchAgain(s.searchAgain(st, l, 'reverse', null), l, 'reverse', null), l, 'reverse', null);
    expect([st.failing, at(st)]).toEqual([true, 0]);
    st = s.searchAgain(st, l, 'forward', null);
    expect([st.failing, at(st)]).toEqual([false, 0]);
  });

  it('2. a query no entry holds stays failing when the direction switches (^R makez ^S), as in bash', () => {
    const l = E('make build-all', 'make test-unit', 'make test-e2e');
    let st = type(s.startSearch('reverse'), l, 'makez');
    expect([st.failing, at(st)]).toEqual([true, 2]);
    st = s.searchAgain(st, l, 'forward', null);
    expect([st.direction, st.failing, at(st)]).toEqual(['forward', true, 2]);
    st = s.searchAgain(st, l, 'reverse', null);
    expect([st.direction, st.failing, at(st)]).toEqual(['reverse', true, 2]);
  });

  it('2. after a forward search fails past the newest, the first Ctrl+R moves older', () => {
    const l = E('make build-all', 'make test-unit', 'make test-e2e');
    let st = type(s.startSearch('reverse'), l, 'make');
    st = s.searchAgain(s.searchAgain(st, l, 'forward', null), l, 'forward', null);
    expect([st.failing, at(st)]).toEqual([true, 2]);
    st = s.searchAgain(st, l, 'reverse', null);
    expect([st.failing, at(st)]).toEqual([false, 1]);
    st = s.searchAgain(st, l, 'reverse', null);
    expect(at(st)).toBe(0);
  });

  it('2. a reverse search failing with older entries left moves on when it turns (readline scans on from the oldest)', () => {
    const l = E('zz', 'make a', 'q', 'make b');
    let st = type(s.startSearch('reverse'), l, 'make');
    st = s.searchAgain(s.searchAgain(st, l, 'reverse', null), l, 'reverse', null);
    expect([st.failing, at(st)]).toEqual([true, 1]);
    st = s.searchAgain(st, l, 'forward', null);
    expect([st.failing, at(st)]).toEqual([false, 3]);
  });

  it('4. switches direction and finds entries not yet shown', () => {
    let st = type(s.startSearch('reverse'), list, 'git');
    expect(at(st)).toBe(3);
    st = s.searchAgain(st, list, 'reverse', null);
    expect(at(st)).toBe(1);
    st = type(s.startSearch('forward'), list, 'git');
    expect(at(st)).toBe(1);
    st = s.searchAgain(st, list, 'forward', null);
    expect(at(st)).toBe(3);
  });

  it('2. fails without losing the last match', () => {
    let st = type(s.startSearch('reverse'), list, 'echo');
    st = type(st, list, 'x');
    expect(st.failing).toBe(true);
    expect(st.query).toBe('echox');
    expect(at(st)).toBe(5);
  });

  it('5. reuses the last accepted query on an empty Ctrl+R', () => {
    let st = s.searchAgain(s.startSearch('reverse'), list, 'reverse', 'push');
    expect(st.query).toBe('push');
    expect(at(st)).toBe(1);
    // The reused query shortens one character at a time, like a typed one.
    expect(s.backspaceQuery(s.searchAgain(s.startSearch('reverse'), list, 'reverse', 'push'), list).query).toBe('pus');
    st = s.searchAgain(s.startSearch('reverse'), list, 'reverse', null);
    expect(st.query).toBe('');
    expect(st.match).toBeNull();
  });

  it('6. Backspace keeps the entry shown while it holds the shorter query, and does nothing on empty', () => {
    let st = type(s.startSearch('reverse'), list, 'git');
    expect(at(st)).toBe(3);
    st = type(st, list, ' pus');
    expect(at(st)).toBe(1);
    // `git pu` first matched entry 3; readline stays on 1, which holds it too (the bash oracle agrees).
    st = s.backspaceQuery(st, list);
    expect(st.query).toBe('git pu');
    expect(at(st)).toBe(1);
    st = type(st, list, 'zz');
    expect(st.failing).toBe(true);
    st = s.backspaceQuery(s.backspaceQuery(st, list), list);
    expect(st.failing).toBe(false);
    for (let i = 0; i < 6; i++) st = s.backspaceQuery(st, list);
    expect(st.query).toBe('');
    expect(s.backspaceQuery(st, list)).toBe(st);
  });

  it('6b. Backspace stays on the entry a repeat moved to while it still holds the shorter query, as readline', () => {
    const git = E('git push origin main', 'ls', 'git diff HEAD', 'git status');
    let st = type(s.startSearch('reverse'), git, 'git');
    st = s.searchAgain(s.searchAgain(st, git, 'reverse', null), git, 'reverse', null);
    expect(at(st)).toBe(0);
    st = s.backspaceQuery(st, git);
    expect([st.query, at(st), st.failing]).toEqual(['gi', 0, false]);
    expect(st.match).toMatchObject({ start: 0, end: 2 });
    // Emptied, the entry last matched stays shown (bash's), its match empty, the search not failing.
    st = s.backspaceQuery(s.backspaceQuery(st, git), git);
    expect([st.query, st.match, st.failing]).toEqual(['', { index: 0, start: 0, end: 0 }, false]);
  });

  it('7. applies smart case to the whole search', () => {
    const l = E('Fix Bug', 'fix bug');
    expect(at(type(s.startSearch('reverse'), l, 'fix'))).toBe(1);
    expect(at(type(s.startSearch('reverse'), l, 'Fix'))).toBe(0);
  });

  it('finds nothing in an empty history', () => {
    const st = type(s.startSearch('reverse'), [], 'a');
    expect(st.failing).toBe(true);
    expect(st.match).toBeNull();
  });
});

describe('bufferRange', () => {
  const segs: Segment[] = [
    { type: 'text', text: 'ab' },
    { type: 'paste', text: 'PASTE' },
    { type: 'text', text: 'cd' },
  ];
  it('maps text matches one to one', () => {
    expect(s.bufferRange(segs, 0, 2)).toEqual({ start: 0, end: 2 });
    expect(s.bufferRange(segs, 7, 9)).toEqual({ start: 3, end: 5 });
  });
  it('lights the whole paste when the match is inside it', () => {
    expect(s.bufferRange(segs, 3, 5)).toEqual({ start: 2, end: 3 });
    expect(s.bufferRange(segs, 1, 8)).toEqual({ start: 1, end: 4 });
  });
});

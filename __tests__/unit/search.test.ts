import * as s from '../../src/search/search';
import type { HistoryEntry } from '../../src/history/rules';
import type { Segment } from '../../src/editor/model';

const E = (...texts: string[]): HistoryEntry[] => texts.map((t) => ({ ts: 't', segments: [{ type: 'text', text: t }] }));
const type = (st: s.SearchState, list: HistoryEntry[], q: string) => [...q].reduce((acc, ch) => s.typeQuery(acc, list, ch), st);
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
    const l: HistoryEntry[] = [{ ts: 't', segments: [{ type: 'text', text: 'see ' }, { type: 'paste', text: 'line1\nneedle here' }] }];
    expect(s.searchBack(l, 'needle', 0)).toEqual({ index: 0, start: 10, end: 16 });
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
    st = s.searchAgain(st, list, 'forward', null);
    expect(st.direction).toBe('forward');
    // Forward from "make build": "make test" was shown already, so nothing new.
    expect(st.failing).toBe(true);
    expect(at(st)).toBe(0);
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
    expect(s.backspaceQuery(s.searchAgain(s.startSearch('reverse'), list, 'reverse', 'push')).query).toBe('pus');
    st = s.searchAgain(s.startSearch('reverse'), list, 'reverse', null);
    expect(st.query).toBe('');
    expect(st.match).toBeNull();
  });

  it('6. Backspace returns to where the shorter query matched, and does nothing on empty', () => {
    let st = type(s.startSearch('reverse'), list, 'git');
    expect(at(st)).toBe(3);
    st = type(st, list, ' pus');
    expect(at(st)).toBe(1);
    st = s.backspaceQuery(st);
    expect(st.query).toBe('git pu');
    expect(at(st)).toBe(3);
    st = type(st, list, 'zz');
    expect(st.failing).toBe(true);
    st = s.backspaceQuery(s.backspaceQuery(st));
    expect(st.failing).toBe(false);
    st = s.backspaceQuery(s.backspaceQuery(s.backspaceQuery(s.backspaceQuery(s.backspaceQuery(s.backspaceQuery(st))))));
    expect(st.query).toBe('');
    expect(s.backspaceQuery(st)).toBe(st);
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
  const segs: Segment[] = [{ type: 'text', text: 'ab' }, { type: 'paste', text: 'PASTE' }, { type: 'text', text: 'cd' }];
  it('maps text matches one to one', () => {
    expect(s.bufferRange(segs, 0, 2)).toEqual({ start: 0, end: 2 });
    expect(s.bufferRange(segs, 7, 9)).toEqual({ start: 3, end: 5 });
  });
  it('lights the whole paste when the match is inside it', () => {
    expect(s.bufferRange(segs, 3, 5)).toEqual({ start: 2, end: 3 });
    expect(s.bufferRange(segs, 1, 8)).toEqual({ start: 1, end: 4 });
  });
});

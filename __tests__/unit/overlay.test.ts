import { CLUSTERING } from '../../src/editor/width';

// The search overlay's rows: which matches, in which order, around the current one.
import { markdown } from '../helpers/paint';
import * as s from '../../src/search/search';
import { COUNT_CAP, searchOverlay } from '../../src/search/overlay';
import type { HistoryEntry } from '../../src/history/rules';

const E = (...texts: string[]): HistoryEntry[] =>
  texts.map((t) => ({ ts: 't', segments: [{ type: 'text', text: t }] }));
const type = (st: s.SearchState, list: HistoryEntry[], q: string) =>
  [...q].reduce((acc, ch) => s.typeQuery(acc, list, ch), st);
const shown = (st: s.SearchState, list: HistoryEntry[], max = 8) => {
  const o = searchOverlay(st, list, max);
  return {
    rows: o.rows.map((r) => `${r.current ? '>' : ' '}${list[r.index].segments[0].text}`),
    count: `${o.position}/${o.total}${o.more ? '+' : ''}`,
  };
};

describe('the search overlay', () => {
  const list = E('make a', 'ls', 'make b', 'make c', 'git', 'make d', 'make e');

  it('lists the most recent distinct entries before a query, none of them current', () => {
    expect(shown(s.startSearch('reverse'), list, 4)).toEqual({ rows: [' git', ' make d', ' make e'], count: '0/0' });
    expect(searchOverlay(s.startSearch('reverse'), list).recent).toBe(true);
    expect(shown(s.startSearch('reverse'), E('x', 'y', 'x', 'x'))).toEqual({ rows: [' y', ' x'], count: '0/0' });
    expect(shown(s.startSearch('reverse'), E())).toEqual({ rows: [], count: '0/0' });
    // Once typed, the query decides again.
    expect(searchOverlay(type(s.startSearch('reverse'), list, 'git'), list).recent).toBeUndefined();
  });
  it('a reverse search: older matches above the current, the newer ones below, oldest first', () => {
    let st = type(s.startSearch('reverse'), list, 'make');
    expect(shown(st, list)).toEqual({ rows: [' make a', ' make b', ' make c', ' make d', '>make e'], count: '1/5' });
    st = s.searchAgain(st, list, 'reverse', null);
    st = s.searchAgain(st, list, 'reverse', null);
    expect(shown(st, list)).toEqual({ rows: [' make a', ' make b', '>make c', ' make d', ' make e'], count: '3/5' });
  });
  it('gives the way ahead most rows when there are more than fit, and keeps two for the way back', () => {
    const many = E(...Array.from({ length: 20 }, (_, i) => `make ${String(i).padStart(2, '0')}`));
    let st = type(s.startSearch('reverse'), many, 'make');
    for (let i = 0; i < 5; i++) st = s.searchAgain(st, many, 'reverse', null);
    expect(shown(st, many, 8)).toEqual({
      rows: [' make 09', ' make 10', ' make 11', ' make 12', ' make 13', '>make 14', ' make 15', ' make 16'],
      count: '6/20',
    });
    // Forward: the newer side is ahead.
    st = s.searchAgain(st, many, 'forward', null);
    expect(shown(st, many, 8).rows).toEqual([
      ' make 12',
      ' make 13',
      '>make 14',
      ' make 15',
      ' make 16',
      ' make 17',
      ' make 18',
      ' make 19',
    ]);
  });
  it('one row per text, as the keys would reach them, and counts distinct texts', () => {
    const dups = E('npm test', 'npm run a', 'npm test', 'npm run b', 'npm test');
    const st = type(s.startSearch('reverse'), dups, 'npm');
    expect(shown(st, dups)).toEqual({ rows: [' npm run a', ' npm run b', '>npm test'], count: '1/3' });
  });
  it('after a direction switch the rows are where the next presses go', () => {
    const l = E('make build-all', 'make test-unit', 'make test-e2e');
    let st = type(s.startSearch('reverse'), l, 'make');
    st = s.searchAgain(s.searchAgain(st, l, 'reverse', null), l, 'reverse', null);
    st = s.searchAgain(st, l, 'forward', null);
    expect(shown(st, l)).toEqual({ rows: ['>make build-all', ' make test-unit', ' make test-e2e'], count: '3/3' });
  });
  it('a query that matches nothing more shows the kept entry alone, and 0/0', () => {
    const st = type(s.startSearch('reverse'), list, 'makez');
    expect(st.failing).toBe(true);
    expect(shown(st, list)).toEqual({ rows: ['>make e'], count: '0/0' });
  });
  it('a failing repeat still shows where the query matches', () => {
    let st = type(s.startSearch('reverse'), list, 'git');
    st = s.searchAgain(st, list, 'reverse', null);
    expect(st.failing).toBe(true);
    expect(shown(st, list)).toEqual({ rows: ['>git'], count: '1/1' });
  });
  it('stops counting at the cap and says there are more', () => {
    const big = E(...Array.from({ length: COUNT_CAP + 50 }, (_, i) => `entry ${i}`));
    const st = type(s.startSearch('reverse'), big, 'entry');
    const o = searchOverlay(st, big);
    expect([o.position, o.total, o.more, o.rows.length]).toEqual([1, COUNT_CAP + 1, true, 8]);
  });
  it(
    'counts exactly when a query matches fewer than the cap each way, and keeps that list for a longer query and ' +
      'for repeats',
    () => {
      const many = E(...Array.from({ length: 2000 }, (_, i) => `item ${i} ${i % 2 ? 'odd' : 'even'}`));
      let st = type(s.startSearch('reverse'), many, 'item');
      expect(searchOverlay(st, many)).toMatchObject({ position: 1, total: COUNT_CAP + 1, more: true });
      st = type(st, many, ' 1');
      const o = searchOverlay(st, many);
      // item 1, item 10-19, 100-199, 1000-1999: more than the cap, so counted to it.
      expect([o.position, o.total, o.more]).toEqual([1, COUNT_CAP + 1, true]);
      st = type(st, many, '2');
      // item 12, 120-129, 1200-1299: 111, all counted; then a longer query filters what was listed.
      expect(searchOverlay(st, many)).toMatchObject({ position: 1, total: 111, more: false });
      st = type(st, many, '3');
      expect(searchOverlay(st, many)).toMatchObject({ position: 1, total: 11, more: false });
      st = s.searchAgain(s.searchAgain(st, many, 'reverse', null), many, 'reverse', null);
      expect(searchOverlay(st, many)).toMatchObject({ position: 3, total: 11 });
      // The list changed under the search (an entry appended): counted afresh.
      many.push(...E('item 123 new'));
      expect(searchOverlay(st, many).total).toBe(12);
    },
  );
  it('a forward search lists the same way: older above, newer below', () => {
    const st = type(s.startSearch('forward'), list, 'make');
    expect(shown(st, list)).toEqual({ rows: ['>make a', ' make b', ' make c', ' make d', ' make e'], count: '5/5' });
  });
});

describe('the overlay rows on screen', () => {
  it('lines the match column up after origins of any script (padded by display width)', () => {
    const { overlayRows } =
      require('../../src/composer/views/search') as typeof import('../../src/composer/views/search');
    const { DEFAULT_KEYMAP } = require('../../src/tui/keymap') as typeof import('../../src/tui/keymap');
    const { stringWidth } = require('../../src/editor/width') as typeof import('../../src/editor/width');
    const entries: HistoryEntry[] = [
      { ts: '2026-01-01T00:00:00.000Z', segments: [{ type: 'text', text: 'make one' }], from: 'shop' },
      { ts: '2026-01-01T00:00:00.000Z', segments: [{ type: 'text', text: 'make two' }], from: '店舗' },
    ];
    const st = type(s.startSearch('reverse'), entries, 'make');
    const overlay = searchOverlay(st, entries);
    const rows = overlayRows(
      { overlay, entries, scope: 'global' },
      {
        width: 60,
        height: 3,
        now: Date.parse('2026-01-02T00:00:00.000Z'),
        emoji: CLUSTERING,
        keys: DEFAULT_KEYMAP,
        historyMode: 'global',
        markdown,
      },
    );
    const matchAt = rows.slice(1).map((row) => {
      const text = row.map((sp) => sp.text).join('');
      return stringWidth(text.slice(0, text.indexOf('make')), CLUSTERING);
    });
    expect(matchAt[0]).toBe(matchAt[1]);
  });
});

// Selection geometry (wide characters, clusters, soft wraps, a scrolled view) and the transcript search's matching,
// counts and stepping: the pure cores behind the mouse, copy mode and Ctrl+X Ctrl+F.
import * as fc from 'fast-check';
import { sanitize as t } from '../../src/protocol/inert';
import { CLUSTERING } from '../../src/editor/width';
import { markCells } from '../../src/kernel/rows';
import { TranscriptModel } from '../../src/tui/transcript-model';
import { TranscriptSelect } from '../../src/tui/transcript-select';
import { between, cellText, click, lineRows, nextWord, rowCells, selectedText, wordAt } from '../../src/tui/selection';
import {
  MAX_MATCHES,
  buildCorpus,
  countText,
  findAll,
  firstFrom,
  lineAt,
  matchRef,
  occurrences,
  positionOf,
} from '../../src/search/transcript-search';
import { InputDecoder } from '../../src/tui/input';
import { Keymap, DEFAULT_TABLES } from '../../src/tui/keymap';
import { routeChord } from '../../src/tui/router';

const E = CLUSTERING;

describe('selection geometry', () => {
  it('takes a wide character or a cluster whole when a cell of it is inside', () => {
    // 日 takes cells 2-3, 本 4-5.
    expect(cellText('ab日本cd', 3, 5, E)).toBe('日本');
    expect(cellText('ab日本cd', 0, 3, E)).toBe('ab日');
    // A family emoji is one cluster, two cells.
    expect(cellText('x👨‍👩‍👧y', 1, 2, E)).toBe('👨‍👩‍👧');
    expect(cellText('x👨‍👩‍👧y', 3, 4, E)).toBe('y');
  });

  it('orders its points and says which cells of each row it covers', () => {
    const sel = between({ serial: 12, col: 3 }, { serial: 10, col: 5 });
    expect(sel.from).toEqual({ serial: 10, col: 5 });
    expect(rowCells(sel, 10)).toEqual({ from: 5, to: Infinity });
    expect(rowCells(sel, 11)).toEqual({ from: 0, to: Infinity });
    expect(rowCells(sel, 12)).toEqual({ from: 0, to: 4 });
    expect(rowCells(sel, 13)).toBeNull();
  });

  it('joins a soft-wrapped line back with the blank the wrap dropped, other rows with newlines', () => {
    const rows = [{ text: 'the quick' }, { text: 'brown fox', cont: ' ' }, { text: 'next line' }];
    const sel = between({ serial: 0, col: 4 }, { serial: 2, col: 3 });
    expect(selectedText(rows, sel, E)).toBe('quick brown fox\nnext');
    // A word cut inside (no blank) joins with nothing.
    const cut = [{ text: 'abcd' }, { text: 'efgh', cont: '' }];
    expect(selectedText(cut, between({ serial: 0, col: 2 }, { serial: 1, col: 1 }), E)).toBe('cdef');
    expect(lineRows(rows, 1)).toEqual([0, 1]);
    expect(lineRows(rows, 2)).toEqual([2, 2]);
  });

  it('finds the word under a cell, and the next and previous word', () => {
    expect(wordAt('say héllo_1 there', 6, E)).toEqual({ from: 4, to: 11 });
    expect(wordAt('a 日本語 b', 3, E)).toEqual({ from: 2, to: 8 });
    // Off a word: the one cell; past the end: nothing.
    expect(wordAt('a, b', 1, E)).toEqual({ from: 1, to: 2 });
    expect(wordAt('ab', 9, E)).toEqual({ from: 9, to: 9 });
    expect(nextWord('one two three', 0, E, 1)).toBe(4);
    expect(nextWord('one two three', 8, E, -1)).toBe(4);
    expect(nextWord('one', 0, E, 1)).toBeNull();
  });

  it('counts double and triple clicks by time and place, and starts over after three', () => {
    let c = click(null, 5, 5, 0);
    c = click(c, 5, 5, 100);
    expect(c.count).toBe(2);
    c = click(c, 6, 5, 200);
    expect(c.count).toBe(3);
    expect(click(c, 6, 5, 300).count).toBe(1);
    expect(click(click(null, 5, 5, 0), 5, 5, 1000).count).toBe(1);
    expect(click(click(null, 5, 5, 0), 5, 6, 10).count).toBe(1);
  });

  it('marks cells across spans, a wide character whole, links kept', () => {
    const row = [
      { text: t('› '), style: 'user' as const },
      { text: t('ab日'), style: 'normal' as const, link: 'https://x' },
      { text: t('cd'), style: 'bold' as const },
    ];
    expect(markCells(row, 3, 5, 'highlight', E)).toEqual([
      { text: '› ', style: 'user' },
      { text: 'a', style: 'normal', link: 'https://x' },
      { text: 'b日', style: 'highlight', link: 'https://x' },
      { text: 'cd', style: 'bold' },
    ]);
  });

  it('every selection covers its two ends and nothing outside them (property)', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(20), fc.nat(50), fc.nat(20), fc.nat(60), (s1, c1, s2, c2, probe) => {
        const sel = between({ serial: s1, col: c1 }, { serial: s2, col: c2 });
        const r = rowCells(sel, probe);
        if (probe < Math.min(s1, s2) || probe > Math.max(s1, s2)) return r === null;
        return r === null || r.to > r.from;
      }),
    );
  });
});

describe('the transcript model under a selection', () => {
  it('keeps a row serial while rows arrive below, and lapses it when the width changes', () => {
    const m = new TranscriptModel(40);
    m.add('user', t('first'));
    m.add('note', t('second'));
    m.setHeight(3);
    const serial = m.serialOf(0);
    expect(m.rowsAbove(m.fromBottom(serial), 1)[0].text).toBe('second');
    const epoch = m.epoch;
    m.add('note', t('third'));
    m.add('note', t('fourth\nfifth'));
    expect(m.rowsAbove(m.fromBottom(serial), 1)[0].text).toBe('second');
    expect(m.epoch).toBe(epoch);
    m.setWidth(30);
    expect(m.epoch).not.toBe(epoch);
  });

  it('marks the rows a wrap made with what joined them, and their line', () => {
    const m = new TranscriptModel(14);
    m.add('note', t('alpha beta gamma delta\nnext'));
    const rows = m.visible(10);
    expect(rows.map((r) => [r.text, r.line, r.cont])).toEqual([
      ['alpha beta', 0, undefined],
      ['gamma delta', 0, ' '],
      ['next', 1, undefined],
    ]);
  });

  it('shows a search line folded away: the entry unfolded, the view moved; restoring folds it again', () => {
    const m = new TranscriptModel(40);
    m.setHeight(5);
    m.add('output', t(Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n')));
    m.add('note', t('after'));
    const saved = m.saveView();
    const { lines, refs } = m.searchLines();
    const at = lines.indexOf('line 50');
    expect(refs[at]).toEqual({ entry: 0, line: 50 });
    const serial = m.showLine(0, 50, 5);
    expect(serial).not.toBeNull();
    expect(m.visible(5).map((r) => r.text)).toContain('line 50');
    expect(m.rowsAbove(m.fromBottom(serial as number), 1)[0].text).toBe('line 50');
    m.restoreView(saved);
    expect(m.visible(5).map((r) => r.text)).toContain('after');
    expect(m.visible(100).map((r) => r.text)).not.toContain('line 50');
  });

  it("lays out an answer's rows for the search, and shows one of them", () => {
    const m = new TranscriptModel(30);
    m.setHeight(3);
    const a = m.add('assistant', t(''));
    m.append(a, t(Array.from({ length: 40 }, (_, i) => `para ${i}\n`).join('\n')));
    m.settle(a);
    m.visible(3);
    const { lines, refs } = m.searchLines();
    const k = lines.indexOf('para 3');
    expect(k).toBeGreaterThanOrEqual(0);
    m.showLine(refs[k].entry, refs[k].line, 3);
    expect(m.visible(3).map((r) => r.text)).toContain('para 3');
  });
});

describe('the transcript search', () => {
  const corpus = buildCorpus(
    ['Alpha beta', 'gamma alpha', 'nothing', 'ALPHA alpha'],
    [
      { entry: 0, line: 0 },
      { entry: 1, line: 0 },
      { entry: 1, line: 1 },
      { entry: 3, line: 0 },
    ],
  );

  it('matches smart case, newest first, and counts', () => {
    const all = findAll(corpus, 'alpha');
    expect(all.matches).toHaveLength(4);
    expect(all.matches).toEqual([...all.matches].sort((a, b) => b - a));
    expect(findAll(corpus, 'Alpha').matches).toHaveLength(1);
    expect(findAll(corpus, 'ALPHA').matches).toHaveLength(1);
    expect(findAll(corpus, 'zeta').matches).toHaveLength(0);
    expect(countText(all, 0)).toBe('1/4');
    expect(countText(findAll(corpus, 'zeta'), -1)).toBe('0/0');
  });

  it('narrows an extended query from the last one, with the same answer as searching afresh', () => {
    const a = findAll(corpus, 'al');
    expect(findAll(corpus, 'alp', a)).toEqual(findAll(corpus, 'alp'));
    // Smart case changes with an upper-case letter: searched afresh.
    expect(findAll(corpus, 'alP', a).matches).toHaveLength(0);
  });

  it('names each match by entry, line and which of the line it is', () => {
    const all = findAll(corpus, 'alpha');
    expect(matchRef(corpus, all, 0)).toEqual({ entry: 3, line: 0, nth: 1 });
    expect(matchRef(corpus, all, 1)).toEqual({ entry: 3, line: 0, nth: 0 });
    expect(matchRef(corpus, all, 3)).toEqual({ entry: 0, line: 0, nth: 0 });
    expect(lineAt(corpus, corpus.starts[2])).toBe(2);
  });

  it('starts at the first match above where the view is, wrapping to the newest when none is above', () => {
    const all = findAll(corpus, 'alpha');
    const origin = positionOf(corpus, 2, 0) - 1;
    expect(matchRef(corpus, all, firstFrom(all, origin))).toMatchObject({ entry: 1, line: 0 });
    expect(firstFrom(all, -1)).toBe(0);
  });

  it('collects at most MAX_MATCHES and says there are more', () => {
    const big = buildCorpus(
      Array.from({ length: 3000 }, () => 'e e e e'),
      Array.from({ length: 3000 }, (_, i) => ({ entry: i, line: 0 })),
    );
    const found = findAll(big, 'e');
    expect(found.matches).toHaveLength(MAX_MATCHES);
    expect(found.more).toBe(true);
    expect(countText(found, 2)).toBe(`3/${MAX_MATCHES}+`);
  });

  it('finds occurrences in a row for lighting, smart case', () => {
    expect(occurrences('Foo foo FOO', 'foo')).toEqual([
      [0, 3],
      [4, 7],
      [8, 11],
    ]);
    expect(occurrences('Foo foo FOO', 'Foo')).toEqual([[0, 3]]);
  });

  it('agrees with a plain scan for any query over any lines (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[abAB ]{0,12}$/), { maxLength: 20 }),
        fc.stringMatching(/^[abAB]{1,3}$/),
        (lines, q) => {
          const c = buildCorpus(
            lines,
            lines.map((_, i) => ({ entry: i, line: 0 })),
          );
          const exact = q !== q.toLowerCase();
          let expected = 0;
          for (const line of lines) {
            const hay = exact ? line : line.toLowerCase();
            const needle = exact ? q : q.toLowerCase();
            for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) expected++;
          }
          return findAll(c, q).matches.length === expected;
        },
      ),
    );
  });
});

describe('the mouse and chords as keys', () => {
  it('decodes SGR presses, drags and releases of the left button; other buttons are dropped', () => {
    const d = new InputDecoder();
    expect(d.feed('\x1b[<0;5;3M\x1b[<32;6;3M\x1b[<0;7;4m\x1b[<2;1;1M')).toEqual([
      { kind: 'mouse', event: 'press', x: 4, y: 2 },
      { kind: 'mouse', event: 'drag', x: 5, y: 2 },
      { kind: 'mouse', event: 'release', x: 6, y: 3 },
    ]);
  });

  it('completes Ctrl+X with a character: Ctrl+X [ opens copy mode; Ctrl+X Ctrl+F the search', () => {
    const keymap = new Keymap(DEFAULT_TABLES);
    const first = routeChord({ kind: 'key', key: 'C-x' }, ['idle'], null, keymap);
    expect(first.prefix).toBe('C-x');
    expect(routeChord({ kind: 'text', text: '[' }, ['idle'], 'C-x', keymap).routed).toEqual([
      { kind: 'command', name: 'transcript.copyMode' },
    ]);
    expect(routeChord({ kind: 'key', key: 'C-f' }, ['idle'], 'C-x', keymap).routed).toEqual([
      { kind: 'command', name: 'transcript.find' },
    ]);
  });
});

describe('selecting with the mouse over a scrolled view', () => {
  function setup(lines: number, height: number) {
    const model = new TranscriptModel(30);
    model.setHeight(height);
    model.add('output', t(Array.from({ length: lines }, (_, i) => `row ${i} 日本 end`).join('\n')));
    model.toggleLastFold();
    const copied: string[] = [];
    const select = new TranscriptSelect({
      model,
      emoji: () => E,
      area: () => ({ top: 1, left: 0, height }),
      copy: (text) => {
        copied.push(text);
        return 'copied';
      },
      hint: () => {},
      render: () => {},
    });
    return { model, select, copied };
  }

  it('maps a screen cell to the row shown there, scrolled back or not, and copies what the drag covered', () => {
    const { model, select, copied } = setup(50, 5);
    // Scrolled back 10 rows: the view's bottom row is row 39 of the output.
    model.scroll(-10, 5);
    expect(model.visible(5).map((r) => r.text)[4]).toBe('row 39 日本 end');
    // Screen row 1 is the view's first row (row 35); from its "3" to the wide 本 of the next row, taken whole.
    select.mouse('press', 2 + 5, 1, 0);
    select.mouse('drag', 2 + 10, 2, 0);
    select.mouse('release', 2 + 10, 2, 0);
    expect(copied).toEqual(['5 日本 end\nrow 36 日本']);
    // The lit cells are the selection's, row by row.
    const marks = select.marks();
    expect(marks?.selection).not.toBeNull();
  });

  it('keeps the selection on its text while rows arrive below', () => {
    const { model, select } = setup(10, 5);
    // Rows 2 and 3 of the screen (its first row would scroll under a drag).
    select.mouse('press', 2, 2, 0);
    select.mouse('drag', 6, 3, 0);
    const before = select.marks()?.selection;
    model.add('note', t('one more\nand another'));
    const after = select.marks()?.selection;
    expect(after).toEqual(before);
    expect(model.rowsAbove(model.fromBottom(after!.from.serial), 1)[0].text).toBe('row 6 日本 end');
    expect(model.rowsAbove(model.fromBottom(after!.to.serial), 1)[0].text).toBe('row 7 日本 end');
  });

  it('a click selects nothing; a press off the rows drops the selection', () => {
    const { select, copied } = setup(3, 10);
    select.mouse('press', 3, 2, 0);
    select.mouse('release', 3, 2, 0);
    expect(select.marks()).toBeNull();
    expect(copied).toEqual([]);
    select.mouse('press', 3, 2, 1000);
    select.mouse('drag', 5, 2, 1000);
    select.mouse('press', 3, 9, 5000);
    expect(select.marks()).toBeNull();
  });

  it("copy mode's cursor starts again on the last row when rows move above the bottom (a new width)", () => {
    const { model, select } = setup(4, 10);
    select.enterCopyMode();
    select.copyKey('copy.up');
    select.copyKey('copy.mark');
    model.setWidth(20);
    const marks = select.marks();
    expect(marks?.cursor).toEqual({ serial: model.serialOf(model.below), col: 0 });
    expect(marks?.selection).toBeNull();
  });

  it('copy mode moves its cursor by rows, words and ends of rows, and copies from its mark', () => {
    const { select, copied } = setup(4, 10);
    select.enterCopyMode();
    expect(select.cursorAt).toMatchObject({ col: 0 });
    select.copyKey('copy.up');
    select.copyKey('copy.wordNext');
    select.copyKey('copy.mark');
    select.copyKey('copy.lineEnd');
    expect(select.copyKey('copy.yank')).toBe(true);
    expect(copied).toEqual(['2 日本 end']);
    expect(select.cursorAt).toBeNull();
  });
});

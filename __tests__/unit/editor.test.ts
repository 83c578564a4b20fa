import { CLUSTERING } from '../../src/editor/width';
import * as fc from 'fast-check';
import * as ed from '../../src/editor/model';
import type { Segment } from '../../src/protocol/segments';
import { layout, scrollTop } from '../../src/editor/layout';

/** Builds a state from a template where `|` marks the cursor. */
function at(template: string): ed.EditorState {
  const cursor = template.indexOf('|');
  const text = template.replace('|', '');
  return { ...ed.emptyEditor, text, cursor };
}
function show(s: ed.EditorState): string {
  return s.text.slice(0, s.cursor) + '|' + s.text.slice(s.cursor);
}
function apply(template: string, ...fns: Array<(s: ed.EditorState) => ed.EditorState>): string {
  return show(fns.reduce((s, f) => f(s), at(template)));
}

describe('editor: inserting', () => {
  it('inserts at the cursor, not at the end', () => {
    expect(show(ed.insertText(at('ab|cd'), 'XY'))).toBe('abXY|cd');
  });
  it('drops control characters but keeps newlines and tabs', () => {
    expect(show(ed.insertText(at('|'), 'a\x1b[31mb\x07c\r\nd\te'))).toBe('a[31mbc\nd\te|');
  });
  it('drops the paste mark so marks always match pastes', () => {
    expect(ed.insertText(at('|'), 'a\ufffcb').text).toBe('ab');
  });
  it('inserts a newline with newline()', () => {
    expect(apply('ab|cd', ed.newline)).toBe('ab\n|cd');
  });
});

describe('editor: moving', () => {
  it.each([
    ['ab|c', 'a|bc', ed.moveLeft],
    ['|abc', '|abc', ed.moveLeft],
    ['a|bc', 'ab|c', ed.moveRight],
    ['abc|', 'abc|', ed.moveRight],
    ['x\nab|c\ny', 'x\n|abc\ny', ed.moveLineStart],
    ['x\na|bc\ny', 'x\nabc|\ny', ed.moveLineEnd],
    ['x\na|bc', '|x\nabc', ed.moveBufferStart],
    ['x|\nabc', 'x\nabc|', ed.moveBufferEnd],
    ['foo bar-baz|', 'foo bar-|baz', ed.moveWordLeft],
    ['foo bar |', 'foo |bar ', ed.moveWordLeft],
    ['|foo bar', 'foo| bar', ed.moveWordRight],
    ['foo| bar', 'foo bar|', ed.moveWordRight],
  ])('%s → %s', (from, to, fn) => {
    expect(apply(from, fn as (s: ed.EditorState) => ed.EditorState)).toBe(to);
  });

  it('moves over a whole emoji and a whole combined grapheme', () => {
    expect(apply('a😀|b', ed.moveLeft)).toBe('a|😀b');
    expect(apply('a|😀b', ed.moveRight)).toBe('a😀|b');
    expect(apply('e\u0301|x', ed.moveLeft)).toBe('|e\u0301x');
    expect(apply('👩‍👩‍👧|', ed.moveLeft)).toBe('|👩‍👩‍👧');
  });

  it('moves left across a newline', () => {
    expect(apply('a\n|b', ed.moveLeft)).toBe('a|\nb');
    expect(apply('a|\nb', ed.moveRight)).toBe('a\n|b');
  });

  it('keeps a goal column through shorter lines', () => {
    let s = at('abcdef|\nab\nabcdefgh');
    s = ed.moveVertical(s, 1, CLUSTERING)!;
    expect(show(s)).toBe('abcdef\nab|\nabcdefgh');
    s = ed.moveVertical(s, 1, CLUSTERING)!;
    expect(show(s)).toBe('abcdef\nab\nabcdef|gh');
    s = ed.moveVertical(s, -1, CLUSTERING)!;
    s = ed.moveVertical(s, -1, CLUSTERING)!;
    expect(show(s)).toBe('abcdef|\nab\nabcdefgh');
  });

  it('counts display columns, not code units, for the goal column', () => {
    // 日本 is four columns; below it the cursor lands after "abcd".
    const s = ed.moveVertical(at('日本|\nabcdef'), 1, CLUSTERING)!;
    expect(show(s)).toBe('日本\nabcd|ef');
    // Going up into wide text never lands inside a character.
    const up = ed.moveVertical(at('日本語\nabc|'), -1, CLUSTERING)!;
    expect(show(up)).toBe('日|本語\nabc');
  });

  it('returns null at the first and last line so the caller can browse history', () => {
    expect(ed.moveVertical(at('ab|c'), -1, CLUSTERING)).toBeNull();
    expect(ed.moveVertical(at('ab|c'), 1, CLUSTERING)).toBeNull();
    expect(ed.moveVertical(at('a\nb|'), 1, CLUSTERING)).toBeNull();
  });

  it('resets the goal column on any horizontal move', () => {
    let s = ed.moveVertical(at('abcdef|\nab\nabcdefgh'), 1, CLUSTERING)!;
    s = ed.moveLeft(s);
    s = ed.moveVertical(s, 1, CLUSTERING)!;
    expect(show(s)).toBe('abcdef\nab\na|bcdefgh');
  });

  it('knows the first and last line', () => {
    expect(ed.onFirstLine(at('ab|\nc'))).toBe(true);
    expect(ed.onLastLine(at('ab|\nc'))).toBe(false);
    expect(ed.onLastLine(at('ab\n|c'))).toBe(true);
  });
});

describe('editor: deleting, killing and yanking', () => {
  it.each([
    ['ab|c', 'a|c', ed.backspace],
    ['|abc', '|abc', ed.backspace],
    ['a\n|b', 'a|b', ed.backspace],
    ['a😀|b', 'a|b', ed.backspace],
    ['a|bc', 'a|c', ed.deleteForward],
    ['abc|', 'abc|', ed.deleteForward],
    ['a|\nb', 'a|b', ed.deleteForward],
    ['ab|cd\nef', 'ab|\nef', ed.killToLineEnd],
    ['ab|\nef', 'ab|ef', ed.killToLineEnd],
    ['x\nab|cd', 'x\n|cd', ed.killToLineStart],
    ['x\n|cd', 'x|cd', ed.killToLineStart],
    ['foo bar-baz |', 'foo |', ed.killWordBack],
    ['foo bar-baz|', 'foo bar-|', ed.killAlnumWordBack],
    ['foo| bar baz', 'foo| baz', ed.killWordForward],
  ])('%s → %s', (from, to, fn) => {
    expect(apply(from, fn as (s: ed.EditorState) => ed.EditorState)).toBe(to);
  });

  it('yanks back what the last kill removed, at the cursor', () => {
    const s = ed.killWordBack(at('hello world|'));
    expect(show(s)).toBe('hello |');
    expect(show(ed.yank(ed.moveBufferStart(s)))).toBe('world|hello ');
  });

  it('does nothing on yank with an empty kill buffer', () => {
    const s = at('ab|');
    expect(ed.yank(s)).toBe(s);
  });

  it('keeps the kill buffer when the composer is cleared', () => {
    const s = ed.clear(ed.killToLineStart(at('secret|')));
    expect(show(ed.yank(s))).toBe('secret|');
  });
});

describe('editor: continuation and blank input', () => {
  it('turns a trailing backslash into a newline', () => {
    expect(show(ed.continueLine(at('ls \\|'))!)).toBe('ls \n|');
  });
  it('leaves a backslash in the middle alone', () => {
    expect(ed.continueLine(at('a\\|b'))).toBeNull();
    expect(ed.continueLine(at('ab|'))).toBeNull();
  });
  it('treats whitespace-only input as blank', () => {
    expect(ed.isBlank(at('  \n\t|'))).toBe(true);
    expect(ed.isBlank(at(' x|'))).toBe(false);
  });
});

describe('editor: segments and pastes', () => {
  const big = Array.from({ length: 12 }, (_, i) => `row ${i}`).join('\n');

  it('keeps a small paste as text, newlines included', () => {
    const s = ed.insertPaste(at('a|b'), 'x\r\ny');
    expect(show(s)).toBe('ax\ny|b');
    expect(ed.toSegments(s)).toEqual([{ type: 'text', text: 'ax\nyb' }]);
  });

  it('turns a paste of more than 10 lines into one paste segment', () => {
    const s = ed.insertPaste(at('see |!'), big);
    expect(ed.toSegments(s)).toEqual([
      { type: 'text', text: 'see ' },
      { type: 'paste', text: big },
      { type: 'text', text: '!' },
    ]);
    expect(ed.expandedText(s)).toBe(`see ${big}!`);
    expect(ed.isBlank(s)).toBe(false);
  });

  it('turns a paste of more than 1,000 characters into a paste segment', () => {
    const s = ed.insertPaste(at('|'), 'x'.repeat(1001));
    expect(ed.toSegments(s)).toEqual([{ type: 'paste', text: 'x'.repeat(1001) }]);
    expect(ed.pasteLabel('x'.repeat(1001))).toBe('[pasted 1001 chars]');
  });

  it('labels a paste by its lines, a final newline not counting as one more', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n');
    expect(ed.pasteLabel(twelve)).toBe('[pasted 12 lines]');
    expect(ed.pasteLabel(twelve + '\n')).toBe('[pasted 12 lines]');
    expect(ed.pasteLabel(twelve + '\n\n')).toBe('[pasted 13 lines]');
  });

  it('deletes a paste segment as one unit and keeps the others in order', () => {
    let s = ed.insertPaste(at('|'), big + 'A');
    s = ed.insertText(s, ' and ');
    s = ed.insertPaste(s, big + 'B');
    s = ed.moveBufferStart(s);
    s = ed.deleteForward(s);
    expect(ed.toSegments(s)).toEqual([
      { type: 'text', text: ' and ' },
      { type: 'paste', text: big + 'B' },
    ]);
  });

  it('kills and yanks a paste segment with its content', () => {
    let s = ed.insertPaste(at('x |'), big);
    s = ed.killWordBack(s);
    expect(ed.toSegments(s)).toEqual([{ type: 'text', text: 'x ' }]);
    s = ed.yank(ed.moveBufferStart(s));
    expect(ed.toSegments(s)).toEqual([
      { type: 'paste', text: big },
      { type: 'text', text: 'x ' },
    ]);
  });

  it('round-trips segments', () => {
    const segs: Segment[] = [
      { type: 'text', text: 'a\nb' },
      { type: 'paste', text: big },
      { type: 'text', text: 'c' },
    ];
    expect(ed.toSegments(ed.fromSegments(segs))).toEqual(segs);
  });

  it('keeps marks and pastes in step under any sequence of edits', () => {
    const op = fc.oneof(
      fc.string({ maxLength: 4 }).map((t) => (s: ed.EditorState) => ed.insertText(s, t)),
      fc.integer({ min: 0, max: 2 }).map((n) => (s: ed.EditorState) => ed.insertPaste(s, 'p\n'.repeat(11) + n)),
      fc.constantFrom(
        ed.backspace,
        ed.deleteForward,
        ed.moveLeft,
        ed.moveRight,
        ed.killWordBack,
        ed.yank,
        ed.killToLineEnd,
        ed.moveWordLeft,
        ed.newline,
        ed.moveBufferStart,
        ed.killToLineStart,
      ),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const s = ops.reduce((st, f) => f(st), ed.emptyEditor);
        const marks = s.text.split(ed.PASTE_MARK).length - 1;
        expect(marks).toBe(s.pastes.length);
        expect(s.cursor).toBeGreaterThanOrEqual(0);
        expect(s.cursor).toBeLessThanOrEqual(s.text.length);
        expect(ed.toSegments(ed.fromSegments(ed.toSegments(s)))).toEqual(ed.toSegments(s));
      }),
    );
  });
});

describe('editor layout', () => {
  it('wraps long lines and puts the cursor in the right cell', () => {
    const l = layout(at('abcdefgh|ij'), 4, CLUSTERING);
    expect(l.rows.map((r) => r.atoms.map((a) => a.display).join(''))).toEqual(['abcd', 'efgh', 'ij']);
    expect([l.cursorRow, l.cursorCol]).toEqual([2, 0]);
  });

  it('never starts a soft-wrapped row with the blank it wrapped at: the blank hangs at the end of the row before', () => {
    const rowsOf = (text: string, w: number) =>
      layout(at(text), w, CLUSTERING).rows.map((r) => r.atoms.map((a) => a.display).join(''));
    expect(rowsOf('abcd efgh ij|', 4)).toEqual(['abcd', 'efgh', 'ij']);
    // Only the one blank hangs; a second one is text and starts the row.
    expect(rowsOf('abcd  ef|', 4)).toEqual(['abcd', ' ef']);
    // A cursor on the hung blank shows at the next row's start; typing there goes before the next word.
    const l = layout(at('abcd| efgh'), 4, CLUSTERING);
    expect([l.cursorRow, l.cursorCol]).toEqual([1, 0]);
    const after = layout(at('abcd |efgh'), 4, CLUSTERING);
    expect([after.cursorRow, after.cursorCol]).toEqual([1, 0]);
  });

  it('puts a cursor after a full row at the start of the next row', () => {
    const l = layout(at('abcd|'), 4, CLUSTERING);
    expect(l.rows.length).toBe(2);
    expect([l.cursorRow, l.cursorCol]).toEqual([1, 0]);
  });

  it('never splits a wide character across rows', () => {
    const l = layout(at('ab日本|'), 5, CLUSTERING);
    expect(l.rows.map((r) => r.atoms.map((a) => a.display).join(''))).toEqual(['ab日', '本']);
    expect([l.cursorRow, l.cursorCol]).toEqual([1, 2]);
  });

  it('counts emoji as two cells', () => {
    const l = layout(at('😀x|'), 10, CLUSTERING);
    expect(l.cursorCol).toBe(3);
  });

  it('shows a paste segment as its label (twenty lines and their newlines are twenty lines)', () => {
    const s = ed.insertPaste(at('a|'), 'x\n'.repeat(20));
    const l = layout(s, 40, CLUSTERING);
    expect(l.rows[0].atoms.map((a) => a.display).join('')).toBe('a[pasted 20 lines]');
    expect(l.cursorCol).toBe(1 + '[pasted 20 lines]'.length);
  });

  it('scrolls just enough to keep the cursor row visible', () => {
    expect(scrollTop(0, 5, 10, 3)).toBe(3);
    expect(scrollTop(3, 4, 10, 3)).toBe(3);
    expect(scrollTop(3, 1, 10, 3)).toBe(1);
  });
});

describe('pastes are cleaned as typed text is', () => {
  it('drops control characters and escape bytes from a paste, small or collapsed, and keeps newlines and tabs', () => {
    const hostile = 'a\x1b]0;pwned\x07b\tc\nd\x1b[2J';
    expect(ed.insertPaste(ed.emptyEditor, hostile).text).toBe('a]0;pwnedb\tc\nd[2J');
    const big = Array.from({ length: 12 }, () => hostile).join('\n');
    const collapsed = ed.insertPaste(ed.emptyEditor, big);
    expect(collapsed.pastes[0]).not.toMatch(/[\x07\x1b]/);
  });
});

describe('the kill ring', () => {
  const typed = (text: string) => ed.insertText(ed.emptyEditor, text);

  it('Alt+Y after Ctrl+Y puts the kill before it in place, round the ring', () => {
    let s = typed('one two three');
    s = ed.killWordBack(s);
    s = ed.killWordBack(s);
    s = ed.killWordBack(s);
    expect(ed.expandedText(s)).toBe('');
    s = ed.insertText(s, '> ');
    s = ed.yank(s);
    expect(ed.expandedText(s)).toBe('> one ');
    s = ed.yankPop(s);
    expect(ed.expandedText(s)).toBe('> two ');
    s = ed.yankPop(s);
    expect(ed.expandedText(s)).toBe('> three');
    s = ed.yankPop(s);
    expect(ed.expandedText(s)).toBe('> one ');
    expect(s.cursor).toBe('> one '.length);
  });

  it('does nothing unless it follows a yank at the cursor', () => {
    let s = ed.killWordBack(typed('alpha beta'));
    s = ed.killWordBack(s);
    expect(ed.yankPop(s)).toBe(s);
    s = ed.yank(s);
    s = ed.insertText(s, 'x');
    expect(ed.yankPop(s)).toBe(s);
  });
});

import { CLUSTERING } from '../../src/editor/width';
// The editor's promise: the cursor always sits on a grapheme boundary and no
// edit ever splits a grapheme (an accent from its letter, a ZWJ emoji, a flag).
import * as fc from 'fast-check';
import * as ed from '../../src/editor/model';
import { graphemes } from '../../src/editor/width';

// Whole graphemes only; any text built from them segments back into them.
const ALPHABET = [
  'a',
  'Z',
  '7',
  '_',
  ' ',
  '.',
  '-',
  '\n',
  '\t',
  'e\u0301', // é, decomposed
  'n\u0303\u0301', // two combining marks
  '日',
  '本',
  '한',
  '👍',
  '👍🏽',
  '👩‍👩‍👧',
  '🏳️‍🌈',
  '🇫🇷',
  '🇯🇵',
  '❤️',
];
const KNOWN = new Set(ALPHABET);

const COMMANDS: Array<[string, (s: ed.EditorState) => ed.EditorState]> = [
  ['left', ed.moveLeft],
  ['right', ed.moveRight],
  ['lineStart', ed.moveLineStart],
  ['lineEnd', ed.moveLineEnd],
  ['bufferStart', ed.moveBufferStart],
  ['bufferEnd', ed.moveBufferEnd],
  ['wordLeft', ed.moveWordLeft],
  ['wordRight', ed.moveWordRight],
  ['up', (s) => ed.moveVertical(s, -1, CLUSTERING) ?? s],
  ['down', (s) => ed.moveVertical(s, 1, CLUSTERING) ?? s],
  ['backspace', ed.backspace],
  ['delete', ed.deleteForward],
  ['killLineEnd', ed.killToLineEnd],
  ['killLineStart', ed.killToLineStart],
  ['killWordBack', ed.killWordBack],
  ['killAlnumWordBack', ed.killAlnumWordBack],
  ['killWordForward', ed.killWordForward],
  ['yank', ed.yank],
  ['newline', ed.newline],
  ['continueLine', (s) => ed.continueLine(s) ?? s],
];

const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 24 }).map((gs) => gs.join(''));
const op = fc.oneof(
  fc.constantFrom(...COMMANDS),
  fc
    .constantFrom(...ALPHABET)
    .map((g): [string, (s: ed.EditorState) => ed.EditorState] => [
      `type ${JSON.stringify(g)}`,
      (s) => ed.insertText(s, g),
    ]),
);

function boundaries(t: string): Set<number> {
  const out = new Set<number>([0]);
  let at = 0;
  for (const g of graphemes(t)) out.add((at += g.length));
  return out;
}

describe('editor: grapheme invariant (property)', () => {
  it('keeps the cursor on a boundary and every grapheme whole, for any text and any commands', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.array(op, { maxLength: 40 }), (start, pos, ops) => {
        const marks = [...boundaries(start)];
        let s: ed.EditorState = { ...ed.emptyEditor, text: start, cursor: marks[pos % marks.length] };
        for (const [, run] of ops) {
          s = run(s);
          expect(boundaries(s.text).has(s.cursor)).toBe(true);
          for (const g of graphemes(s.text)) expect(KNOWN.has(g)).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('editor: word motions over decomposed and joined text', () => {
  const at = (t: string): ed.EditorState => ({ ...ed.emptyEditor, text: t, cursor: 0 });
  it('Alt+F over a decomposed café stops after the accent', () => {
    const s = ed.moveWordRight(at('cafe\u0301 au lait'));
    expect(s.cursor).toBe('cafe\u0301'.length);
  });
  it('Alt+D leaves no orphan accent', () => {
    const s = ed.killWordForward(at('cafe\u0301 noir'));
    expect(s.text).toBe(' noir');
    expect(s.killed?.text).toBe('cafe\u0301');
  });
  it('Alt+B from the end lands before the word, accent included', () => {
    const t = 'un cafe\u0301';
    expect(ed.moveWordLeft({ ...at(t), cursor: t.length }).cursor).toBe(3);
  });
  it('Ctrl+W removes a ZWJ family emoji whole', () => {
    const t = 'hi 👩‍👩‍👧';
    const s = ed.killWordBack({ ...at(t), cursor: t.length });
    expect(s.text).toBe('hi ');
  });
});

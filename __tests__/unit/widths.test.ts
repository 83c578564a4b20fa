import { sanitize } from '../../src/protocol/inert';
import * as fc from 'fast-check';
import {
  CLUSTERING,
  EmojiWidths,
  codePointWidth,
  graphemes,
  graphemeWidth,
  isAmbiguous,
  stringWidth,
} from '../../src/editor/width';
import { widthsFrom } from '../../src/tui/width-probe';
import { InputDecoder } from '../../src/tui/input';
import { Look, paintRow, Style, themeAttrs } from '../../src/tui/grid';
import type { Background } from '../../src/settings/theme';
import { ITALIC, STRIKE } from '../../src/tui/draw';

const XTERM: EmojiWidths = { zwj: 'sum', modifier: 'sum', vs16: 1, flag: 2 };

describe('emoji widths', () => {
  it('draws sequences in two cells on a clustering terminal', () => {
    for (const g of ['👍🏽', '👩‍👩‍👧', '🇯🇵', '❤️', '🏳️‍🌈']) expect([g, graphemeWidth(g, CLUSTERING)]).toEqual([g, 2]);
  });
  it('adds up code points as xterm.js does once the terminal says so', () => {
    const xterm = (g: string) => graphemeWidth(g, XTERM);
    expect(['👍🏽', '👩‍👩‍👧', '🇯🇵', '❤️', '🏳️‍🌈', '⚠️'].map(xterm)).toEqual([4, 6, 2, 1, 3, 1]);
    expect(['日', 'é', 'e\u0301', '👍', 'x'].map(xterm)).toEqual([2, 1, 1, 2, 1]);
  });
  it('names the graphemes terminals disagree on', () => {
    expect(['👍🏽', '👩‍👩‍👧', '🇯🇵', '❤️'].every(isAmbiguous)).toBe(true);
    expect(['👍', '日', 'e\u0301', 'a'].some(isAmbiguous)).toBe(false);
  });
  it('reads the probe answers, keeping what they do not settle', () => {
    expect(widthsFrom([6, 4, 1, 2], CLUSTERING)).toEqual(XTERM);
    expect(widthsFrom([2, 2, 2, 2], XTERM)).toEqual(CLUSTERING);
    expect(widthsFrom([3, 9], XTERM)).toEqual(XTERM);
  });
});

describe('the wide table', () => {
  it('is the Unicode data of get-east-asian-width, regenerated and compared', () => {
    const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
    const path = require('node:path') as typeof import('node:path');
    const r = spawnSync(
      process.execPath,
      [path.join(__dirname, '..', '..', 'scripts', 'gen-wide-ranges.js'), '--check'],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
  it('draws recent wide ideographs wide and ambiguous circled numbers narrow', () => {
    for (const cp of [0x16ff0, 0x16ff1, 0x18d00, 0x18d08, 0x1aff0, 0x1affe, 0x4e00, 0xac00])
      expect([cp.toString(16), codePointWidth(cp)]).toEqual([cp.toString(16), 2]);
    for (const cp of [0x3248, 0x324f, 0x00e9, 0x2500])
      expect([cp.toString(16), codePointWidth(cp)]).toEqual([cp.toString(16), 1]);
  });
});

describe('the segmenter-free fast path', () => {
  // Characters the fast path takes (box drawing, bullets, kana, CJK, Hangul, fullwidth) next to
  // ones it must leave to the segmenter (combining marks, ZWJ, selectors, jamo, emoji, controls).
  const ALPHABET = [
    'a',
    ' ',
    '~',
    'é',
    'Σ',
    'ж',
    '\u0483',
    '\u0488',
    '•',
    '─',
    '│',
    '▎',
    '→',
    '日',
    'カ',
    '한',
    'Ａ',
    '☀',
    '\u0301',
    '\u200d',
    '\ufe0f',
    '\u1161',
    '\u11a8',
    '\u1100',
    '👍',
    '\u{1f3fd}',
    '\u3099',
    '\uff9e',
    '\x07',
    '\u00ad',
    '\u2028',
  ];
  it('splits and measures exactly as the segmenter does', () => {
    const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const expected = [...seg.segment(text)].map((s) => s.segment);
        expect(graphemes(text)).toEqual(expected);
        expect(stringWidth(text, CLUSTERING)).toBe(expected.reduce((w, g) => w + graphemeWidth(g, CLUSTERING), 0));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('cursor position reports', () => {
  it('decodes a report below the first row, and leaves Ctrl+F3 (CSI 1;5R) a key', () => {
    const d = new InputDecoder();
    expect(d.feed('\x1b[24;7R')).toEqual([{ kind: 'cpr', row: 24, col: 7 }]);
    expect(d.feed('\x1b[1;5R')).toEqual([{ kind: 'key', key: 'C-f3' }]);
  });
});

describe('painting a disputed grapheme', () => {
  it('blanks its cells, draws it, then moves the cursor to where the next cell starts', () => {
    const line = Object.assign(
      Array.from({ length: 10 }, () => [0, ' '] as [number, string]),
      { dirty: false },
    );
    const look: Look = {
      attrs: themeAttrs({ colors: 256, noColor: false, background: 'dark', italic: true }),
      hyperlinks: true,
    };
    const ambiguous = paintRow(line, 1, 9, [{ text: sanitize('👍🏽z'), style: 'normal' }], CLUSTERING, look, 4);
    expect(ambiguous).toBe(true);
    expect(line[1][1]).toBe('  \x1b[2D👍🏽\x1b[5;4H');
    expect(line[3][1]).toBe('z');
    expect(paintRow(line, 1, 9, [{ text: sanitize('日z'), style: 'normal' }], CLUSTERING, look, 4)).toBe(false);
  });
});

describe('the theme fits the terminal', () => {
  let attrs = themeAttrs({ colors: 256, noColor: false, background: 'dark', italic: true });
  const styleAttr = (style: Style) => attrs[style];
  const fg = (style: Style) => (styleAttr(style) >> 9) & 0x1ff;
  const bg = (style: Style) => styleAttr(style) & 0x1ff;
  const flags = (style: Style) => styleAttr(style) >> 18;
  const reversed = (style: Style) => (flags(style) & 8) !== 0;
  const theme = (colors: number, noColor: boolean, background: Background = 'dark', italic = true) =>
    void (attrs = themeAttrs({ colors, noColor, background, italic }));
  afterEach(() => theme(256, false));
  it('uses a grey status bar and grey dim text on 256 colours', () => {
    theme(256, false);
    expect([bg('status'), reversed('status'), fg('dim'), fg('codeKeyword')]).toEqual([236, false, 8, 5]);
  });
  it('draws the status bar in reverse video below 256 colours, where its grey would turn black', () => {
    theme(16, false);
    expect([bg('status'), reversed('status'), reversed('statusStrong'), fg('dim')]).toEqual([0x1ff, true, true, 8]);
  });
  it('gives dim text the terminal foreground on 8 colours, which have no grey', () => {
    theme(8, false);
    expect([fg('dim'), fg('codeComment'), fg('codeKeyword'), reversed('status')]).toEqual([0x1ff, 0x1ff, 5, true]);
  });
  it('has no colour at all under NO_COLOR or on a terminal without colours, and comes back when asked', () => {
    for (const [colors, noColor] of [
      [256, true],
      [-1, false],
    ] as const) {
      theme(colors, noColor);
      const styles: Style[] = ['dim', 'user', 'error', 'status', 'codeKeyword', 'diffAdd', 'match', 'force'];
      expect(styles.filter((s) => fg(s) !== 0x1ff || bg(s) !== 0x1ff)).toEqual([]);
      expect(['status', 'match', 'force', 'highlight'].every((s) => reversed(s as Style))).toBe(true);
    }
    theme(256, false);
    expect(fg('error')).toBe(1);
  });
  it('gives italic, strike-through and links one attribute each, with colour, on 16 colours and under NO_COLOR', () => {
    for (const [colors, noColor] of [
      [256, false],
      [16, false],
      [256, true],
    ] as const) {
      theme(colors, noColor);
      expect(flags('italic')).toBe(ITALIC);
      expect(flags('strike')).toBe(STRIKE);
      // A link is underlined: emphasis is not.
      expect(flags('link') & 2).toBe(2);
      expect(flags('italic') & 2).toBe(0);
    }
  });
  it('keeps h1, h2 and h3 apart without colour: bold over a rule (render.ts), bold, bold italic', () => {
    for (const noColor of [false, true]) {
      theme(256, noColor);
      expect([flags('heading'), flags('heading2'), flags('heading3')]).toEqual([1, 1, 1 | ITALIC]);
      expect(flags('heading3')).not.toBe(flags('bold'));
    }
  });
  it('underlines where the terminal has no italic', () => {
    theme(256, false, 'dark', false);
    expect([flags('italic'), flags('heading3')]).toEqual([2, 1 | 2]);
  });
  it('takes darker colours and a light grey status bar on a light background', () => {
    theme(256, false, 'light');
    expect([bg('status'), fg('dim'), fg('code'), fg('heading'), fg('codeType')]).toEqual([253, 243, 130, 25, 130]);
    // Below 256 colours the base colours serve both backgrounds.
    theme(16, false, 'light');
    expect([fg('code'), reversed('status')]).toEqual([3, true]);
  });
});

import { isInert, joinInert, linesOf, own, repeatInert, sanitize, sliceInert, spaces } from '../../src/protocol/inert';
import type { Span } from '../../src/kernel/rows';
import { checklistRows } from '../../src/kernel/checklist';
import { renderMarkdown } from '../../src/markdown/render';
import { CLUSTERING } from '../../src/editor/width';
import { layout } from '../../src/editor/layout';
import { emptyEditor } from '../../src/editor/model';
import { StreamSanitizer } from '../../src/kernel/stream-sanitizer';

describe('sanitize', () => {
  it.each([
    ['colours', 'a\x1b[31mred\x1b[0m', 'ared'],
    ['cursor moves', 'x\x1b[2J\x1b[10;10Hy', 'xy'],
    ['an OSC title', '\x1b]0;pwned\x07ok', 'ok'],
    ['an OSC 52 clipboard write', '\x1b]52;c;ZXZpbA==\x1b\\ok', 'ok'],
    ['a bell and backspaces', 'a\x07b\x08c', 'abc'],
    ['C1 CSI', 'a\x9b2Jb', 'ab'],
    ['carriage returns', 'a\r\nb\rc', 'a\nbc'],
    ['tabs', 'a\tb', 'a    b'],
    ['a lone surrogate', 'a\ud800b', 'a\ufffdb'],
  ])('removes %s', (_name, input, output) => {
    expect(sanitize(input)).toBe(output);
  });
  it('keeps text, emoji and braces', () => {
    expect(sanitize('{bold}日本 😀{/bold}')).toBe('{bold}日本 😀{/bold}');
  });
  it('holds a sequence cut between chunks', () => {
    const s = new StreamSanitizer();
    expect(s.push('red: \x1b[3')).toBe('red: ');
    expect(s.push('1mX')).toBe('X');
    expect(s.push('\x1b]0;ti')).toBe('');
    expect(s.push('tle\x07done')).toBe('done');
    expect(s.push('end\x1b')).toBe('end');
    expect(s.end()).toBe('');
  });
});

describe('bidirectional controls', () => {
  const { sanitize } = require('../../src/protocol/inert') as typeof import('../../src/protocol/inert');
  it('names overrides and isolates, so text cannot read otherwise than it is, and keeps right-to-left text', () => {
    expect(sanitize('rm -rf \u202e/ tsil\u202c')).toBe('rm -rf <U+202E>/ tsil<U+202C>');
    expect(sanitize('a\u2066b\u2069')).toBe('a<U+2066>b<U+2069>');
    expect(sanitize('שלום \u200fworld')).toBe('שלום \u200fworld');
  });
});

describe('one door to the screen, by type', () => {
  it('leaves clean text as it is after one test, and changes the same text the full pass would', () => {
    const clean = 'plain words, 日本語 and an emoji 😀\nover two lines';
    expect(sanitize(clean)).toBe(clean);
    for (const bad of ['a\x1b[31mb', 'a\u202eb', 'a\tb', 'a\r\nb', 'a\ud800', '\x9b2J', 'a\u2066b'])
      expect(isInert(bad)).toBe(false);
    // Surrogates (an emoji's) take the full pass, which keeps whole pairs.
    expect(isInert('plain words, 日本語\nover two lines')).toBe(true);
  });

  it("keeps milk's own words and inert holes inert: own, cut, joined, repeated, padded", () => {
    const name = sanitize('evil\x1b]0;title\x07name');
    expect(own`file ${name}: ${3} lines`).toBe('file evilname: 3 lines');
    expect(joinInert([own`a`, name], own`, `)).toBe('a, evilname');
    expect(repeatInert(own`─`, 3)).toBe('───');
    expect(spaces(2)).toBe('  ');
    expect(spaces(-1)).toBe('');
    expect(linesOf(own`a\nb`)).toEqual(['a', 'b']);
    // A cut through an emoji's pair leaves no half of it.
    const emoji = own`x😀y`;
    expect(sliceInert(emoji, 0, 2)).toBe('x\ufffd');
    expect(sliceInert(emoji, 2)).toBe('\ufffdy');
    expect(sliceInert(emoji, 1, 3)).toBe('😀');
  });

  it('a span takes only inert text: a raw string does not compile', () => {
    // @ts-expect-error a raw string is not a span's text
    const raw: Span = { text: 'x', style: 'normal' };
    const made: Span = { text: own`x`, style: 'normal' };
    expect(raw.text).toBe(made.text);
  });

  it("Markdown's entities cannot bring back what sanitize took out (a bidi override, a carriage return)", () => {
    const rows = renderMarkdown(sanitize('abc &#x202E; def &#13; x &#x2066; y'), 80, CLUSTERING);
    const text = rows.map((r) => r.map((s) => s.text).join('')).join('\n');
    expect(text).toBe('abc <U+202E> def  x <U+2066> y');
  });

  it("the model's checklist items are drawn inert", () => {
    const items = [{ text: 'step \x1b]52;c;ZXZpbA==\x07one \u202e', status: 'pending' as const }];
    const rows = checklistRows(items, { folded: false, height: 5, width: 60, emoji: CLUSTERING, toggle: '/todo' });
    expect(rows.map((r) => r.map((s) => s.text).join(''))).toEqual([
      ' checklist 0/1 done · /todo folds it',
      ' [ ] step one <U+202E>',
    ]);
  });

  it('a bidi override typed or pasted into the composer is drawn named, as wide as its name', () => {
    const state = { ...emptyEditor, text: 'a\u202eb', cursor: 3 };
    const l = layout(state, 40, CLUSTERING);
    expect(l.rows[0].atoms.map((a) => a.display).join('')).toBe('a<U+202E>b');
    expect(l.cursorCol).toBe(10);
  });
});

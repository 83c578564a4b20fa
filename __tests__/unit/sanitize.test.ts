import { sanitize } from '../../src/protocol/inert';
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

import { InputDecoder } from '../../src/tui/input';

function decode(...chunks: string[]) {
  const d = new InputDecoder();
  return chunks.flatMap((c) => d.feed(c));
}
const key = (k: string) => ({ kind: 'key', key: k });

describe('input decoder', () => {
  it('groups typed text and splits out control keys', () => {
    expect(decode('ab\rc\x7f')).toEqual([
      { kind: 'text', text: 'ab' },
      key('enter'),
      { kind: 'text', text: 'c' },
      key('backspace'),
    ]);
  });
  it.each([
    ['\x12', 'C-r'],
    ['\x13', 'C-s'],
    ['\x03', 'C-c'],
    ['\n', 'C-j'],
    ['\t', 'tab'],
    ['\x1b[A', 'up'],
    ['\x1bOB', 'down'],
    ['\x1b[1;5A', 'C-up'],
    ['\x1b[1;5D', 'C-left'],
    ['\x1b[1;3C', 'M-right'],
    ['\x1b[H', 'home'],
    ['\x1b[4~', 'end'],
    ['\x1b[3~', 'delete'],
    ['\x1b[5~', 'pageup'],
    ['\x1b[Z', 'S-tab'],
    ['\x1bb', 'M-b'],
    ['\x1b\r', 'M-enter'],
    ['\x1b\x7f', 'M-backspace'],
    ['\x1b[13;2u', 'S-enter'],
    ['\x1b[27;2;13~', 'S-enter'],
    ['\x1b[1;5H', 'C-home'],
    ['\x1bOP', 'f1'],
    ['\x1b[11~', 'f1'],
    ['\x1b[15~', 'f5'],
    ['\x1b[17~', 'f6'],
    ['\x1b[21~', 'f10'],
    ['\x1b[24~', 'f12'],
    ['\x1b[15;5~', 'C-f5'],
  ])('decodes %j as %s', (bytes, name) => {
    expect(decode(bytes)).toEqual([key(name)]);
  });
  it.each([
    // kitty's disambiguation: keys with modifiers (and Esc) as CSI u, named as legacy terminals name them.
    ['\x1b[114;5u', 'C-r'],
    ['\x1b[99;5u', 'C-c'],
    ['\x1b[27u', 'escape'],
    ['\x1b[98;3u', 'M-b'],
    ['\x1b[45;6u', 'C-_'],
    ['\x1b[47;5u', 'C-_'],
    ['\x1b[45;4u', 'M-_'],
    ['\x1b[44;4u', 'M-<'],
    ['\x1b[13;3u', 'M-enter'],
    ['\x1b[32;5u', 'C-space'],
    ['\x1b[9;2u', 'S-tab'],
    ['\x1b[127;3u', 'M-backspace'],
    ['\x1b[97;6u', 'C-S-a'],
    // xterm's modifyOtherKeys level 2: the same keys as CSI 27;modifiers;codepoint ~.
    ['\x1b[27;5;114~', 'C-r'],
    ['\x1b[27;5;99~', 'C-c'],
    ['\x1b[27;3;13~', 'M-enter'],
    ['\x1b[27;5;13~', 'C-enter'],
    ['\x1b[27;6;45~', 'C-_'],
    ['\x1b[27;4;46~', 'M->'],
  ])('decodes the keyboard protocols: %j as %s', (bytes, name) => {
    expect(decode(bytes)).toEqual([key(name)]);
  });
  it('takes a shifted character reported as a key as the character typed', () => {
    expect(decode('\x1b[27;2;97~\x1b[27;2;49~')).toEqual([
      { kind: 'text', text: 'A' },
      { kind: 'text', text: '!' },
    ]);
  });
  it('reports the answers to the keyboard queries, never as keys', () => {
    expect(decode('\x1b[?0u\x1b[?62;22c')).toEqual([
      { kind: 'report', what: 'kitty' },
      { kind: 'report', what: 'attributes' },
    ]);
    expect(decode('\x1b[?1;2c')).toEqual([{ kind: 'report', what: 'attributes' }]);
  });
  it('turns a bracketed paste into one paste action, newlines included', () => {
    expect(decode('x\x1b[200~a\rb\nc\x1b[201~y')).toEqual([
      { kind: 'text', text: 'x' },
      { kind: 'paste', text: 'a\rb\nc' },
      { kind: 'text', text: 'y' },
    ]);
  });
  it('joins a paste split across chunks, even inside its markers', () => {
    expect(decode('\x1b[20', '0~hel', 'lo\x1b[2', '01~')).toEqual([{ kind: 'paste', text: 'hello' }]);
  });
  it('closes a paste whose end marker never comes, and later keys are keys again', () => {
    const d = new InputDecoder();
    expect(d.feed('\x1b[200~half a paste\x1b[20')).toEqual([]);
    expect(d.pasteOpen()).toBe(true);
    // The terminal's idle timer fires: what came is the paste, a partial marker included.
    expect(d.closePaste()).toEqual([{ kind: 'paste', text: 'half a paste\x1b[20', unclosed: true }]);
    expect(d.pasteOpen()).toBe(false);
    expect(d.feed('\x03x')).toEqual([key('C-c'), { kind: 'text', text: 'x' }]);
  });
  it('caps a paste: the rest up to its end marker is dropped and the paste says it was cut', () => {
    // A 64-character cap stands in for the 8 Mi one; what matters is the bound and the flag.
    const d = new InputDecoder(64);
    const out = [...d.feed('\x1b[200~' + 'a'.repeat(50)), ...d.feed('b'.repeat(10_000)), ...d.feed('\x1b[201~\r')];
    expect(out).toEqual([{ kind: 'paste', text: 'a'.repeat(50) + 'b'.repeat(14), cut: true }, key('enter')]);
  });
  it('ignores a CSI-u key whose code point is no character, and goes on decoding', () => {
    // These threw RangeError (Invalid code point) and took the draft down with milk.
    expect(decode('a\x1b[1114112ub', '\x1b[99999999999u', '\x1b[55296uc')).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'text', text: 'b' },
      { kind: 'text', text: 'c' },
    ]);
  });
  it('waits for the rest of a sequence cut between chunks', () => {
    const d = new InputDecoder();
    expect(d.feed('\x1b[1;')).toEqual([]);
    expect(d.hasPending()).toBe(true);
    expect(d.feed('5A')).toEqual([key('C-up')]);
  });
  it('tells a sequence already begun (worth waiting for) from a lone Esc', () => {
    const d = new InputDecoder();
    d.feed('\x1b');
    expect(d.pendingSequence()).toBe(false);
    d.feed('[1;');
    expect(d.pendingSequence()).toBe(true);
    expect(d.feed('5A')).toEqual([key('C-up')]);
    expect(d.hasPending()).toBe(false);
  });
  it('takes a lone Esc as Esc when the timer fires', () => {
    const d = new InputDecoder();
    expect(d.feed('\x1b')).toEqual([]);
    expect(d.flushPending()).toEqual([key('escape')]);
  });
  it('keeps emoji whole and does not drop chunks with focus reports in them (taken as focus, mode 1004)', () => {
    expect(decode('😀\x1b[Iok')).toEqual([
      { kind: 'text', text: '😀' },
      { kind: 'focus', focused: true },
      { kind: 'text', text: 'ok' },
    ]);
  });
  it('decodes SGR wheel events and the left button; the others are dropped', () => {
    expect(decode('\x1b[<64;10;5M\x1b[<65;10;5M\x1b[<0;1;1M\x1b[<0;1;1m\x1b[<1;1;1M\x1b[<2;3;3m')).toEqual([
      { kind: 'wheel', dir: 'up' },
      { kind: 'wheel', dir: 'down' },
      { kind: 'mouse', event: 'press', x: 0, y: 0 },
      { kind: 'mouse', event: 'release', x: 0, y: 0 },
    ]);
  });
  it('decodes a megabyte of typed text as one text action', () => {
    expect(decode('x'.repeat(1_000_000))).toEqual([{ kind: 'text', text: 'x'.repeat(1_000_000) }]);
  });
});

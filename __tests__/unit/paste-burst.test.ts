// The paste-burst rule alone: reads with their arrival times, no timers.
import { BURST_WAIT_MS, PasteBurst } from '../../src/tui/paste-burst';
import { InputDecoder, InputAction } from '../../src/tui/input';

/** Feeds raw reads at the given times, then lets the timer run out; returns everything handed on. */
function run(reads: Array<[number, string]>): InputAction[] {
  const decoder = new InputDecoder();
  const burst = new PasteBurst();
  const out: InputAction[] = [];
  let now = 0;
  for (const [at, bytes] of reads) {
    now = at;
    out.push(...burst.tick(now));
    out.push(...burst.feed(decoder.feed(bytes), now));
  }
  out.push(...burst.tick(now + BURST_WAIT_MS));
  return out;
}

const text = (t: string) => ({ kind: 'text', text: t });
const enter = { kind: 'key', key: 'enter' };

describe('the paste-burst rule', () => {
  it('a read with text, an Enter and more text is one paste: its Enters are newlines', () => {
    expect(run([[0, 'line one\rline two\rline three']])).toEqual([
      { kind: 'paste', text: 'line one\nline two\nline three' },
    ]);
  });
  it('a burst split over reads that follow at once stays one paste, a trailing newline included', () => {
    expect(
      run([
        [0, 'a\rb'],
        [5, 'c\r'],
        [12, 'd\r'],
      ]),
    ).toEqual([{ kind: 'paste', text: 'a\nbc\nd\n' }]);
  });
  it('a read that ends with an Enter waits a moment: more text at once makes it a paste', () => {
    expect(
      run([
        [0, 'first\r'],
        [10, 'second'],
      ]),
    ).toEqual([text('first'), { kind: 'paste', text: '\nsecond' }]);
  });
  it('an Enter with nothing after it is a key; typed text is handed on at once', () => {
    const burst = new PasteBurst();
    const d = new InputDecoder();
    expect(burst.feed(d.feed('ls -la\r'), 0)).toEqual([text('ls -la')]);
    expect(burst.due(0)).toBe(BURST_WAIT_MS);
    expect(burst.tick(BURST_WAIT_MS - 1)).toEqual([]);
    expect(burst.tick(BURST_WAIT_MS)).toEqual([enter]);
    expect(burst.due(BURST_WAIT_MS)).toBeNull();
  });
  it('a typed Enter after a pause sends at once', () => {
    const burst = new PasteBurst();
    const d = new InputDecoder();
    burst.feed(d.feed('l'), 0);
    burst.feed(d.feed('s'), 120);
    expect(burst.feed(d.feed('\r'), 400)).toEqual([enter]);
    expect(burst.due(400)).toBeNull();
  });
  it('an Enter in a read of its own right after fast text waits too (a paste split at a newline)', () => {
    expect(
      run([
        [0, 'echo one'],
        [4, '\recho two'],
      ]),
    ).toEqual([text('echo one'), { kind: 'paste', text: '\necho two' }]);
  });
  it('200 keystrokes with newlines, however the reads fall, send nothing', () => {
    const keys = Array.from({ length: 200 }, (_, i) =>
      i % 20 === 19 ? '\r' : String.fromCharCode(97 + (i % 26)),
    ).join('');
    for (const size of [1, 7, 64, 200]) {
      const reads: Array<[number, string]> = [];
      for (let i = 0; i < keys.length; i += size) reads.push([i / size, keys.slice(i, i + size)]);
      const out = run(reads);
      expect(out.some((a) => a.kind === 'key' && a.key === 'enter')).toBe(false);
      const joined = out.map((a) => (a.kind === 'text' || a.kind === 'paste' ? a.text : '')).join('');
      expect(joined).toBe(keys.replace(/\r/g, '\n'));
    }
  });
  it('another key ends the burst: the paste first, then the key', () => {
    expect(run([[0, 'a\rb\x1b[D']])).toEqual([
      { kind: 'paste', text: 'a\nb' },
      { kind: 'key', key: 'left' },
    ]);
    expect(run([[0, 'x\r\x03']])).toEqual([text('x'), enter, { kind: 'key', key: 'C-c' }]);
  });
  it('a Tab inside a burst is a tab, not a completion; a lone Tab stays a key', () => {
    expect(run([[0, 'if x:\r\treturn']])).toEqual([{ kind: 'paste', text: 'if x:\n\treturn' }]);
    expect(run([[0, '/mo\t']])).toEqual([text('/mo'), { kind: 'key', key: 'tab' }]);
  });
  it('a burst ends once nothing comes for a moment; later text is typing again', () => {
    expect(
      run([
        [0, 'a\rb'],
        [100, 'c'],
        [300, '\r'],
      ]),
    ).toEqual([{ kind: 'paste', text: 'a\nb' }, text('c'), enter]);
  });
});

// The palette's choice, the terminal's background as it answers OSC 11 (or
// COLORFGBG says), and where hyperlinks are sent.
import {
  backgroundOf,
  backgroundOfColorFgBg,
  hyperlinksFor,
  italicFor,
  mayAskBackground,
  paletteFor,
  parseColor,
} from '../../src/settings/theme';
import { InputDecoder } from '../../src/tui/input';

describe("the terminal's background", () => {
  it('reads OSC 11 answers of 1 to 4 hex digits a channel, rgba too', () => {
    expect(parseColor('rgb:ffff/ffff/ffff')).toEqual([1, 1, 1]);
    expect(parseColor('rgb:0/0/0')).toEqual([0, 0, 0]);
    expect(parseColor('rgb:80/80/80')?.map((c) => Math.round(c * 100))).toEqual([50, 50, 50]);
    expect(parseColor('rgba:ffff/ffff/ffff/ffff')).toEqual([1, 1, 1]);
    for (const bad of ['', '#ffffff', 'rgb:ffff/ffff', 'rgb:fffff/0/0', 'rgb:gg/00/00'])
      expect(parseColor(bad)).toBeNull();
  });
  it('calls white, light grey and solarized light light; black, dark grey and solarized dark dark', () => {
    const of = (spec: string) => backgroundOf(parseColor(spec) as [number, number, number]);
    expect(['rgb:ffff/ffff/ffff', 'rgb:d0/d0/d0', 'rgb:fd/f6/e3'].map(of)).toEqual(['light', 'light', 'light']);
    expect(['rgb:0000/0000/0000', 'rgb:30/30/30', 'rgb:00/2b/36', 'rgb:1e/1e/2e'].map(of)).toEqual([
      'dark',
      'dark',
      'dark',
      'dark',
    ]);
  });
  it('falls back on COLORFGBG: its last field, 7 and 9–15 light', () => {
    expect(backgroundOfColorFgBg('0;15')).toBe('light');
    expect(backgroundOfColorFgBg('15;0')).toBe('dark');
    expect(backgroundOfColorFgBg('15;default;0')).toBe('dark');
    expect(backgroundOfColorFgBg('0;default;7')).toBe('light');
    for (const bad of [undefined, '', 'x', '0;default', '0;200']) expect(backgroundOfColorFgBg(bad)).toBeNull();
  });
  it('draws as chosen, else as the terminal said, else dark', () => {
    expect(paletteFor('light', 'dark')).toBe('light');
    expect(paletteFor('auto', 'light')).toBe('light');
    expect(paletteFor('auto', null)).toBe('dark');
  });
  it('does not ask the Linux console, which would print the question', () => {
    expect(mayAskBackground({ TERM: 'linux' })).toBe(false);
    expect(mayAskBackground({ TERM: 'xterm-256color' })).toBe(true);
  });
});

describe('the answer among the keys', () => {
  const feed = (...chunks: string[]) => {
    const d = new InputDecoder();
    return chunks.flatMap((c) => d.feed(c));
  };
  it('takes the answer, BEL- or ST-ended, whole or split, as a background report and nothing typed', () => {
    expect(feed('\x1b]11;rgb:ffff/ffff/ffff\x1b\\')).toEqual([{ kind: 'background', color: 'rgb:ffff/ffff/ffff' }]);
    expect(feed('\x1b]11;rgb:0/0/0\x07a')).toEqual([
      { kind: 'background', color: 'rgb:0/0/0' },
      { kind: 'text', text: 'a' },
    ]);
    expect(feed('\x1b]11;rgb:ff', 'ff/ffff/ffff\x1b', '\\b')).toEqual([
      { kind: 'background', color: 'rgb:ffff/ffff/ffff' },
      { kind: 'text', text: 'b' },
    ]);
    // Another OSC answer is swallowed whole.
    expect(feed('\x1b]10;rgb:0/0/0\x1b\\')).toEqual([]);
  });
  it("takes the terminal's report that its theme changed (mode 2031), whole or split, and nothing typed", () => {
    expect(feed('\x1b[?997;1n')).toEqual([{ kind: 'theme', background: 'dark' }]);
    expect(feed('\x1b[?99', '7;2nx')).toEqual([
      { kind: 'theme', background: 'light' },
      { kind: 'text', text: 'x' },
    ]);
    // Any other status report is swallowed.
    expect(feed('\x1b[?997;3n')).toEqual([]);
  });
  it('leaves Alt+] a key: alone, before a letter, and when what looked like an answer never ends', () => {
    expect(feed('\x1b]x')).toEqual([
      { kind: 'key', key: 'M-]' },
      { kind: 'text', text: 'x' },
    ]);
    const d = new InputDecoder();
    expect(d.feed('\x1b]')).toEqual([]);
    expect(d.pendingSequence()).toBe(true);
    expect(d.flushPending()).toEqual([{ kind: 'key', key: 'M-]' }]);
    expect(d.feed('\x1b]1')).toEqual([]);
    expect(d.flushPending()).toEqual([
      { kind: 'key', key: 'M-]' },
      { kind: 'text', text: '1' },
    ]);
    expect(feed('\x1b]1' + '2'.repeat(80))[0]).toEqual({ kind: 'key', key: 'M-]' });
  });
});

describe('where hyperlinks go', () => {
  it('auto: everywhere but the terminals known to show or drop them', () => {
    expect(hyperlinksFor('auto', { TERM: 'xterm-256color' })).toBe(true);
    expect(hyperlinksFor('auto', { TERM: 'tmux-256color', TMUX: '/tmp/x' })).toBe(true);
    expect(hyperlinksFor('auto', { TERM: 'screen-256color', TMUX: '/tmp/x' })).toBe(true);
    for (const env of [
      { TERM: 'linux' },
      { TERM: 'dumb' },
      { TERM: 'screen' },
      { TERM: 'xterm', INSIDE_EMACS: '29,term' },
      { TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal' },
    ]) {
      expect(hyperlinksFor('auto', env)).toBe(false);
    }
  });
  it('on and off as the config says', () => {
    expect(hyperlinksFor('off', { TERM: 'xterm-256color' })).toBe(false);
    expect(hyperlinksFor('on', { TERM: 'linux' })).toBe(true);
  });
});

describe('italic', () => {
  it(
    'is drawn where the terminal draws it, underline standing in for the Linux console and TERM=screen (tmux shows ' +
      'reverse there)',
    () => {
      expect(
        ['xterm-256color', 'tmux-256color', 'xterm-kitty', 'alacritty'].map((TERM) => italicFor({ TERM })),
      ).toEqual([true, true, true, true]);
      expect(['linux', 'screen', 'screen-256color', 'vt100', 'dumb'].map((TERM) => italicFor({ TERM }))).toEqual([
        false,
        false,
        false,
        false,
        false,
      ]);
    },
  );
});

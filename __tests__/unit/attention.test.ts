import { desktopProtocol, notification, setTitle, titleFor } from '../../src/tui/attention';
import { InputDecoder } from '../../src/tui/input';

describe('what milk puts in the title and how it calls for attention', () => {
  it('names the state and the workspace, with nothing in it a terminal would act on', () => {
    expect(titleFor('idle', 'shop')).toBe('milk · shop');
    expect(titleFor('working', 'shop')).toBe('milk: working · shop');
    expect(titleFor('waiting for you', 'shop')).toBe('milk: waiting for you · shop');
    // A folder named to end the title early and write the clipboard: inert.
    const hostile = titleFor('idle', 'x\x07\x1b]52;c;ZXZpbA==\x07y');
    expect(hostile).not.toMatch(/[\x00-\x1f\x7f]/);
    expect(titleFor('idle', 'a'.repeat(100))).toHaveLength('milk · '.length + 40);
    expect(setTitle('milk')).toBe('\x1b]2;milk\x1b\\');
  });

  it('rings the bell by default, sends the desktop notification the terminal shows, and nothing when off', () => {
    expect(notification('bell', {}, 'done')).toBe('\x07');
    expect(notification('off', { TERM_PROGRAM: 'iTerm.app' }, 'done')).toBe('');
    expect(notification('desktop', { TERM_PROGRAM: 'iTerm.app' }, 'milk: done')).toBe('\x1b]9;milk: done\x07');
    expect(notification('desktop', { TERM: 'foot' }, 'a;b\nc')).toBe('\x1b]777;notify;milk;a b c\x07');
    // A terminal not known to show either: the bell.
    expect(notification('desktop', { TERM: 'xterm-256color' }, 'done')).toBe('\x07');
    expect(desktopProtocol({ TERM_PROGRAM: 'WezTerm' })).toBe('osc9');
    expect(desktopProtocol({ WT_SESSION: 'x' })).toBe('osc9');
    expect(desktopProtocol({ VTE_VERSION: '7600' })).toBe('osc777');
    expect(notification('desktop', { TERM_PROGRAM: 'ghostty' }, 'run \x1b]0;x\x07 ls?')).toBe('\x1b]9;run  ls?\x07');
  });

  it('reads focus reports (mode 1004) as focus, never as keys', () => {
    const d = new InputDecoder();
    expect(d.feed('\x1b[Oa\x1b[I')).toEqual([
      { kind: 'focus', focused: false },
      { kind: 'text', text: 'a' },
      { kind: 'focus', focused: true },
    ]);
  });
});

describe("the terminal's answer about synchronized output", () => {
  it('reads DECRQM answers for mode 2026 whole, known or not, and other mode reports as nothing', () => {
    const d = new InputDecoder();
    expect(d.feed('\x1b[?2026;2$ya\x1b[?2026;0$y\x1b[?1004;1$yb')).toEqual([
      { kind: 'syncReport', known: true },
      { kind: 'text', text: 'a' },
      { kind: 'syncReport', known: false },
      { kind: 'text', text: 'b' },
    ]);
  });
});

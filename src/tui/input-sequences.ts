// What one escape sequence, or one key, from the terminal means: CSI keys with their modifiers (xterm's and the kitty
// keyboard protocol's), a lone Esc and Alt+key, OSC answers (the background colour), focus, mouse reports and the
// cursor position report; and a key named as the keymap names it (`C-x`, `M-b`, `S-up`). Pure.

import type { InputAction, MouseEvent } from './input';

// prettier-ignore
const CSI_TILDE: Record<string, string> = {
  '1': 'home', '2': 'insert', '3': 'delete', '4': 'end', '5': 'pageup', '6': 'pagedown', '7': 'home', '8': 'end',
  // The function keys as xterm (and rxvt, for F1-F4) send them: a key the person may bind (config.json keys).
  '11': 'f1', '12': 'f2', '13': 'f3', '14': 'f4', '15': 'f5', '17': 'f6',
  '18': 'f7', '19': 'f8', '20': 'f9', '21': 'f10', '23': 'f11', '24': 'f12',
};

// prettier-ignore
const CSI_LETTER: Record<string, string> = {
  A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', P: 'f1', Q: 'f2', R: 'f3', S: 'f4',
};

function withMods(name: string, mod: number): string {
  // xterm encodes modifiers as 1 + (shift 1 | alt 2 | ctrl 4).
  const m = Math.max(0, mod - 1);
  return (m & 4 ? 'C-' : '') + (m & 2 ? 'M-' : '') + (m & 1 ? 'S-' : '') + name;
}

/**
 * Shift with a US-layout key as the character it types: kitty and modifyOtherKeys report the key, legacy terminals the
 * character.
 */
// prettier-ignore
const SHIFTED: Record<string, string> = {
  '-': '_', '=': '+', ',': '<', '.': '>', '/': '?', ';': ':', "'": '"', '[': '{', ']': '}', '\\': '|', '`': '~',
  '1': '!', '2': '@', '3': '#', '4': '$', '5': '%', '6': '^', '7': '&', '8': '*', '9': '(', '0': ')',
};

/**
 * A key reported by code point and modifiers (kitty's CSI u, xterm's
 * modifyOtherKeys CSI 27 ~), named as the legacy encoding names it, so one
 * key table serves every terminal: Alt+Shift+- is M-_, Ctrl+/ is C-_ as a
 * legacy terminal sends it. Null: no such character.
 */
function codepointKey(cp: number, mod: number): string | null {
  if (!Number.isInteger(cp) || cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  const special: Record<number, string> = {
    13: 'enter',
    9: 'tab',
    27: 'escape',
    127: 'backspace',
    8: 'backspace',
    32: 'space',
  };
  let name = special[cp] ?? String.fromCodePoint(cp).toLowerCase();
  let m = Math.max(0, mod - 1);
  if (m & 1 && (SHIFTED[name] !== undefined || (/^[a-z]$/.test(name) && !(m & 4)))) {
    // Shift with a character key is the character (Ctrl+Shift+letter stays as is: legacy sends Ctrl+letter).
    name = SHIFTED[name] ?? name.toUpperCase();
    m &= ~1;
  }
  if (m & 4 && name === '/') name = '_';
  if (name === 'space' && m === 0) return ' ';
  return withMods(name, m + 1);
}

export function controlKey(code: number): string {
  // prettier-ignore
  switch (code) {
    case 0x0d: return 'enter';
    case 0x0a: return 'C-j';
    case 0x09: return 'tab';
    case 0x7f: case 0x08: return 'backspace';
    case 0x1b: return 'escape';
    case 0x00: return 'C-space';
    case 0x1c: return 'C-\\';
    case 0x1d: return 'C-]';
    case 0x1e: return 'C-^';
    case 0x1f: return 'C-_';
    default: return 'C-' + String.fromCharCode(code + 0x60);
  }
}

interface Parsed {
  action: InputAction | null;
  length: number;
}

/** A key read as a code point: a character is text, a named key a key; null (no such character) is none. */
function codepointAction(key: string | null): InputAction | null {
  return key === null ? null : key.length === 1 ? { kind: 'text', text: key } : { kind: 'key', key };
}

/** Parses one CSI sequence at the start of `s` (ESC [): parameters and intermediates, then a final byte in @..~. */
function parseCsi(s: string): Parsed | null {
  let i = 2;
  while (i < s.length && /[0-9;:<=>?]/.test(s[i])) i++;
  const params = s.slice(2, i);
  // Intermediate bytes (DECRQM's answer has `$`): part of the sequence, never text after it.
  const from = i;
  while (i < s.length && /[ -/]/.test(s[i])) i++;
  if (i >= s.length) return null;
  const intermediates = s.slice(from, i);
  const final = s[i];
  const length = i + 1;
  if (intermediates === '$' && final === 'y' && params.startsWith('?2026;'))
    return { action: { kind: 'syncReport', known: params !== '?2026;0' }, length };
  if (intermediates) return { action: null, length };
  if (params.startsWith('<') && (final === 'M' || final === 'm')) {
    const [b, x, y] = params.slice(1).split(';').map(Number);
    if (final === 'M' && (b & 64) !== 0) return { action: { kind: 'wheel', dir: b & 1 ? 'down' : 'up' }, length };
    // SGR reports (mode 1006): the button in the low bits (0: the left one), 32 for motion, `m` for a release.
    if ((b & 3) !== 0 || !(x >= 1 && y >= 1)) return { action: null, length };
    const event: MouseEvent = final === 'm' ? 'release' : b & 32 ? 'drag' : 'press';
    return { action: { kind: 'mouse', event, x: x - 1, y: y - 1 }, length };
  }
  // Answers to milk's keyboard queries: kitty's flags, the device attributes.
  if (params.startsWith('?') && final === 'u') return { action: { kind: 'report', what: 'kitty' }, length };
  if (params.startsWith('?') && final === 'c') return { action: { kind: 'report', what: 'attributes' }, length };
  if (params === '' && (final === 'I' || final === 'O'))
    return { action: { kind: 'focus', focused: final === 'I' }, length };
  // The terminal's theme changed (mode 2031, which milk turns on where it asks for the background).
  if ((params === '?997;1' || params === '?997;2') && final === 'n')
    return { action: { kind: 'theme', background: params.endsWith('1') ? 'dark' : 'light' }, length };
  const nums = params.split(';').map((p) => Number(p.split(':')[0]) || 0);
  if (final === '~') {
    // xterm's modifyOtherKeys: 27;modifiers;codepoint.
    if (nums[0] === 27 && nums.length >= 3) {
      return { action: codepointAction(codepointKey(nums[2], nums[1])), length };
    }
    const name = CSI_TILDE[String(nums[0])];
    return { action: name ? { kind: 'key', key: withMods(name, nums[1] ?? 1) } : null, length };
  }
  if (final === 'u') {
    // kitty / CSI-u: codepoint;modifiers. No such character (past U+10FFFF, a surrogate): no key.
    return { action: codepointAction(codepointKey(nums[0], nums[1] ?? 1)), length };
  }
  if (final === 'Z') return { action: { kind: 'key', key: 'S-tab' }, length };
  // A cursor position report. F3 with modifiers is CSI 1;m R, so reports are only asked for below row 1.
  if (final === 'R' && nums.length === 2 && nums[0] > 1)
    return { action: { kind: 'cpr', row: nums[0], col: nums[1] }, length };
  const name = CSI_LETTER[final];
  // Focus reports (I/O) and anything unknown are swallowed whole.
  return { action: name ? { kind: 'key', key: withMods(name, nums[1] ?? 1) } : null, length };
}

/** Parses one escape sequence at the start of `s` (which begins with ESC). Null: incomplete. */
export function parseEscape(s: string): Parsed | null {
  if (s.length === 1) return null;
  const c = s[1];
  if (c === '[') return parseCsi(s);
  if (c === ']') return parseOsc(s);
  if (c === 'O') {
    if (s.length < 3) return null;
    const name = CSI_LETTER[s[2]];
    return { action: name ? { kind: 'key', key: name } : null, length: 3 };
  }
  if (c === '\x1b') {
    // ESC ESC [A style: Alt with an arrow in some terminals.
    const inner = parseEscape(s.slice(1));
    if (inner === null) return s.length === 2 ? { action: { kind: 'key', key: 'escape' }, length: 1 } : null;
    if (inner.action?.kind === 'key' && !inner.action.key.includes('M-')) {
      return { action: { kind: 'key', key: 'M-' + inner.action.key }, length: inner.length + 1 };
    }
    return { action: { kind: 'key', key: 'escape' }, length: 1 };
  }
  const code = c.charCodeAt(0);
  if (code === 0x0d) return { action: { kind: 'key', key: 'M-enter' }, length: 2 };
  if (code === 0x7f || code === 0x08) return { action: { kind: 'key', key: 'M-backspace' }, length: 2 };
  if (code < 0x20) return { action: { kind: 'key', key: 'M-' + controlKey(code) }, length: 2 };
  const cp = s.codePointAt(1) ?? code;
  return { action: { kind: 'key', key: 'M-' + String.fromCodePoint(cp) }, length: cp > 0xffff ? 3 : 2 };
}

/** The longest terminal answer (OSC) waited for: past it, the bytes are keys (Alt+] and text). */
const MAX_OSC = 64;

/**
 * `ESC ]`: an operating system command, which only comes as a terminal's
 * answer (milk asks OSC 11 for the background), ended by BEL or ST. Alt+]
 * sends the same two bytes: with nothing after them, or anything but a
 * number and `;`, it is that key.
 */
function parseOsc(s: string): Parsed | null {
  if (s.length === 2) return null;
  // eslint-disable-next-line no-control-regex
  if (!/^\d/.test(s[2]) || !/^\x1b\]\d*(;|$)/.test(s.slice(0, 8)))
    return { action: { kind: 'key', key: 'M-]' }, length: 2 };
  const bel = s.indexOf('\x07', 2);
  const st = s.indexOf('\x1b\\', 2);
  const end = bel === -1 ? st : st === -1 ? bel : Math.min(bel, st);
  if (end === -1) return s.length >= MAX_OSC ? { action: { kind: 'key', key: 'M-]' }, length: 2 } : null;
  const body = s.slice(2, end);
  const length = end + (end === bel ? 1 : 2);
  return { action: body.startsWith('11;') ? { kind: 'background', color: body.slice(3) } : null, length };
}

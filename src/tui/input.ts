// Decodes the raw bytes a terminal sends into key, text, paste and mouse
// actions. milk owns this instead of blessed's key parser: blessed splits
// bracketed pastes into Enter presses, types Alt+Enter / Shift+Enter as junk,
// drops chunks that contain focus-report lookalikes and splits emoji in two.
// Pure: the caller feeds chunks and owns the Esc timer.

export type InputAction =
  | { kind: 'key'; key: string }
  | { kind: 'text'; text: string }
  /** `cut`: the paste passed MAX_PASTE_CHARS and the rest was dropped; `unclosed`: its end marker never came. */
  | { kind: 'paste'; text: string; cut?: boolean; unclosed?: boolean }
  | { kind: 'wheel'; dir: 'up' | 'down' }
  /** The left button pressed, moved while down, or let go, at a cell (0-based). */
  | { kind: 'mouse'; event: MouseEvent; x: number; y: number }
  /** The terminal's answer to a cursor position request (1-based). */
  | { kind: 'cpr'; row: number; col: number }
  /** The terminal's answer to the kitty keyboard query (it speaks the protocol) or to the device attributes query. */
  | { kind: 'report'; what: 'kitty' | 'attributes' }
  /** The terminal's answer to DECRQM for synchronized output (mode 2026): 1 or 2 it knows the mode, 0 it does not. */
  | { kind: 'syncReport'; known: boolean }
  /** The terminal's answer to OSC 11: its background colour, as it wrote it (`rgb:ffff/ffff/ffff`). */
  | { kind: 'background'; color: string }
  /** The terminal's palette turned dark or light (its report under mode 2031, CSI ? 997 ; 1|2 n). */
  | { kind: 'theme'; background: 'dark' | 'light' }
  /** The terminal gained or lost focus (its report under mode 1004: CSI I, CSI O). */
  | { kind: 'focus'; focused: boolean };

export type MouseEvent = 'press' | 'drag' | 'release';

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/**
 * The most of one paste kept: 8 Mi characters, hundreds of times any prompt,
 * a second or so of a terminal's paste. Past it the rest is dropped (and the
 * person told) up to the end marker, so a paste never grows without bound.
 */
export const MAX_PASTE_CHARS = 8 * 1024 * 1024;

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

function controlKey(code: number): string {
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
function parseEscape(s: string): Parsed | null {
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

export class InputDecoder {
  private pending = '';
  private pasting: string | null = null;
  /** The open paste went past the cap: what follows, up to its end, is dropped. */
  private pasteCut = false;

  constructor(private readonly maxPaste: number = MAX_PASTE_CHARS) {}

  private addToPaste(text: string): void {
    const room = this.maxPaste - (this.pasting as string).length;
    if (text.length > room) this.pasteCut = true;
    this.pasting += room > 0 ? text.slice(0, room) : '';
  }

  private takePaste(unclosed: boolean): InputAction {
    const action: InputAction = { kind: 'paste', text: this.pasting ?? '' };
    if (this.pasteCut) action.cut = true;
    if (unclosed) action.unclosed = true;
    this.pasting = null;
    this.pasteCut = false;
    return action;
  }

  /** Feeds a chunk; returns the complete actions. An incomplete tail waits for more. */
  feed(chunk: string): InputAction[] {
    const s = this.pending + chunk;
    const out: InputAction[] = [];
    let i = 0;
    let textFrom = -1;
    const flushText = (to: number): void => {
      if (textFrom !== -1 && to > textFrom) out.push({ kind: 'text', text: s.slice(textFrom, to) });
      textFrom = -1;
    };

    while (i < s.length) {
      if (this.pasting !== null) {
        const end = s.indexOf(PASTE_END, i);
        if (end === -1) {
          // Keep a possible partial end marker for the next chunk.
          const keep = partialSuffix(s, PASTE_END);
          this.addToPaste(s.slice(i, s.length - keep));
          i = s.length - keep;
          break;
        }
        this.addToPaste(s.slice(i, end));
        out.push(this.takePaste(false));
        i = end + PASTE_END.length;
        continue;
      }
      const code = s.charCodeAt(i);
      if (code === 0x1b) {
        flushText(i);
        if (s.startsWith(PASTE_START, i)) {
          this.pasting = '';
          i += PASTE_START.length;
          continue;
        }
        const rest = s.slice(i, i + 64);
        if (PASTE_START.startsWith(rest)) break;
        const parsed = parseEscape(rest);
        if (parsed === null) break;
        if (parsed.action) out.push(parsed.action);
        i += parsed.length;
        continue;
      }
      if (code < 0x20 || code === 0x7f) {
        flushText(i);
        out.push({ kind: 'key', key: controlKey(code) });
        i++;
        continue;
      }
      // A lone high surrogate at the end of a chunk waits for its other half.
      if (code >= 0xd800 && code <= 0xdbff && i === s.length - 1) break;
      if (textFrom === -1) textFrom = i;
      i++;
    }
    flushText(i);
    this.pending = s.slice(i);
    return out;
  }

  /** True while a bracketed paste is open; the caller closes it when no bytes come for a while. */
  pasteOpen(): boolean {
    return this.pasting !== null;
  }

  /**
   * The paste's end marker never came (a terminal that lost it, a program
   * that wrote only the start): what arrived is the paste, and the keys after
   * it are keys again. A partial end marker held back is part of the paste.
   */
  closePaste(): InputAction[] {
    if (this.pasting === null) return [];
    this.addToPaste(this.pending);
    this.pending = '';
    return [this.takePaste(true)];
  }

  /** True when a lone ESC (or a partial sequence) is waiting; the caller times it out. */
  hasPending(): boolean {
    return this.pending.length > 0 && this.pasting === null;
  }

  /**
   * True when what waits is the start of a sequence (`ESC [`, `ESC O`, a
   * CSI with some of its parameters), not a lone Esc: over a jittery link
   * its rest may come much later, and it is worth waiting for.
   */
  pendingSequence(): boolean {
    return (
      this.hasPending() &&
      this.pending.length > 1 &&
      (this.pending[1] === '[' || this.pending[1] === 'O' || this.pending[1] === ']')
    );
  }

  /** The Esc timer fired: whatever is waiting is taken as typed. */
  flushPending(): InputAction[] {
    const s = this.pending;
    this.pending = '';
    if (!s) return [];
    // An answer that never ended is Alt+] and what was typed after it.
    const osc = s.startsWith('\x1b]');
    const out: InputAction[] = [{ kind: 'key', key: osc ? 'M-]' : 'escape' }];
    if (s.length > 1) for (const a of this.feed(s.slice(osc ? 2 : 1))) out.push(a);
    return out;
  }
}

function partialSuffix(s: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, s.length); n > 0; n--) {
    if (marker.startsWith(s.slice(s.length - n))) return n;
  }
  return 0;
}

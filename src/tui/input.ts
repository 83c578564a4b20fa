// Decodes the raw bytes a terminal sends into key, text, paste and mouse
// actions. milk owns this instead of blessed's key parser: blessed splits
// bracketed pastes into Enter presses, types Alt+Enter / Shift+Enter as junk,
// drops chunks that contain focus-report lookalikes and splits emoji in two.
// Pure: the caller feeds chunks and owns the Esc timer.

import { controlKey, parseEscape } from './input-sequences';

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

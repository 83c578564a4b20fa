// The real terminal's input side: raw mode, bracketed paste and wheel
// reporting on, keys that tell Shift+Enter from Enter where the terminal can,
// bytes through the decoder and the paste-burst rule, a short timer to tell
// a lone Esc from the start of a sequence. Undone by restore(), which is safe
// to repeat.

import { InputAction, InputDecoder } from './input';
import { PasteBurst } from './paste-burst';
import { BACKGROUND_QUERY } from '../settings/theme';

// Bracketed paste, the mouse (mode 1002: presses, releases and motion while a button is down, for the wheel and
// selecting; SGR reports) and focus reports (mode 1004: a notification only when it is away); the title is pushed
// (xterm's CSI 22 t) so that milk's own is popped off at the end. Shift with the mouse is still the terminal's own
// selection.
const ENABLE = '\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b[?1004h\x1b[22;0t';
const DISABLE = '\x1b[23;0t\x1b[?1004l\x1b[?1006l\x1b[?1002l\x1b[?1000l\x1b[?2004l';
/** Mode 2031: the terminal reports when its palette turns dark or light (contour, ghostty, kitty); others ignore it. */
export const THEME_REPORTS_ON = '\x1b[?2031h';
export const THEME_REPORTS_OFF = '\x1b[?2031l';
/**
 * Which keyboard protocol the terminal speaks is asked once: kitty's query,
 * then the device attributes, which every terminal answers. An answer to the
 * first means kitty's protocol (its "disambiguate" flag pushed, popped
 * whenever the terminal is handed back); the attributes alone mean xterm's
 * modifyOtherKeys level 2 is asked for instead, which terminals without it ignore.
 */
export const KEYBOARD_QUERY = '\x1b[?u\x1b[c';
/** Whether the terminal knows synchronized output (DECRQM, mode 2026), asked with the keyboard query: /doctor. */
export const SYNC_QUERY = '\x1b[?2026$p';
export const KITTY_PUSH = '\x1b[>1u';
export const KITTY_POP = '\x1b[<u';
export const MODIFY_OTHER_KEYS_ON = '\x1b[>4;2m';
export const MODIFY_OTHER_KEYS_OFF = '\x1b[>4;0m';
type Keyboard = 'unknown' | 'asking' | 'kitty' | 'modifyOtherKeys' | 'legacy';
const ESC_TIMEOUT_MS = 30;
/**
 * Once `ESC [` (or `ESC O`) has come, the rest of the sequence is waited for
 * this long: an arrow or a report split by an ssh link must not become an Esc
 * (which interrupts a turn) and text. tmux waits 500 ms for any Esc; milk
 * keeps a lone Esc at 30 ms and waits only for a sequence already begun.
 */
export const SEQUENCE_TIMEOUT_MS = 500;
/**
 * A paste whose end marker has not come after this long with no bytes is
 * closed: a terminal sends a paste as fast as the line allows (over a slow
 * ssh link, gaps of tens of milliseconds), while a lost marker would
 * otherwise swallow every later key, Ctrl-C included.
 */
export const PASTE_IDLE_MS = 1000;

export class TerminalInput {
  private readonly decoder = new InputDecoder();
  private readonly burst = new PasteBurst();
  private timer: NodeJS.Timeout | null = null;
  private burstTimer: NodeJS.Timeout | null = null;
  private active = false;
  private keyboard: Keyboard = 'unknown';
  private sync: 'known' | 'unknown' | 'not answered' = 'not answered';
  private readonly onData = (data: Buffer | string): void => {
    this.clearTimer();
    this.emit(this.decoder.feed(typeof data === 'string' ? data : data.toString('utf8')));
    if (this.decoder.pasteOpen()) {
      this.timer = setTimeout(() => this.emit(this.decoder.closePaste()), this.pasteIdleMs);
    } else if (this.decoder.hasPending()) {
      this.timer = setTimeout(
        () => this.emit(this.decoder.flushPending()),
        this.decoder.pendingSequence() ? SEQUENCE_TIMEOUT_MS : ESC_TIMEOUT_MS,
      );
    }
  };

  constructor(
    private readonly input: NodeJS.ReadStream,
    private readonly output: NodeJS.WriteStream,
    private readonly handler: (action: InputAction) => void,
    private readonly pasteIdleMs: number = PASTE_IDLE_MS,
    /**
     * Asks the terminal its background colour (OSC 11) with the keyboard query, the answer coming as a
     * `background` action, and to report its theme's changes (mode 2031) as `theme` actions.
     */
    private readonly askBackground = false,
  ) {}

  start(): void {
    if (this.active) return;
    this.active = true;
    // Raw mode also turns off XON/XOFF, so Ctrl+S reaches us instead of freezing output.
    if (this.input.isTTY) this.input.setRawMode(true);
    this.input.setEncoding('utf8');
    this.input.on('data', this.onData);
    this.input.resume();
    this.output.write(ENABLE + (this.askBackground ? THEME_REPORTS_ON : '') + this.keyboardOn());
    if (this.keyboard === 'unknown') {
      this.keyboard = 'asking';
      // Before the device attributes, which every terminal answers: by then any answer to it has come.
      this.output.write((this.askBackground ? BACKGROUND_QUERY : '') + SYNC_QUERY + KEYBOARD_QUERY);
    }
  }

  /** Whether the terminal answered that it knows synchronized output (for /doctor). */
  get syncOutput(): 'known' | 'unknown' | 'not answered' {
    return this.sync;
  }

  /** Which keyboard protocol the terminal answered to (for /doctor). */
  get keyboardProtocol(): string {
    return this.keyboard;
  }

  /** What puts the terminal's keyboard in the mode milk found it speaks. */
  private keyboardOn(): string {
    return this.keyboard === 'kitty' ? KITTY_PUSH : this.keyboard === 'modifyOtherKeys' ? MODIFY_OTHER_KEYS_ON : '';
  }

  private keyboardOff(): string {
    return this.keyboard === 'kitty' ? KITTY_POP : this.keyboard === 'modifyOtherKeys' ? MODIFY_OTHER_KEYS_OFF : '';
  }

  /** The answers to KEYBOARD_QUERY: kitty's comes first when the terminal speaks it. */
  private answered(what: 'kitty' | 'attributes'): void {
    if (this.keyboard !== 'asking') return;
    this.keyboard = what === 'kitty' ? 'kitty' : 'modifyOtherKeys';
    if (this.active) this.output.write(this.keyboardOn());
  }

  restore(): void {
    if (!this.active) return;
    this.active = false;
    this.clearTimer();
    if (this.burstTimer) clearTimeout(this.burstTimer);
    this.burstTimer = null;
    this.input.off('data', this.onData);
    try {
      if (this.input.isTTY) this.input.setRawMode(false);
    } catch {
      // The terminal may already be gone (SIGHUP).
    }
    this.input.pause();
    try {
      this.output.write(this.keyboardOff() + (this.askBackground ? THEME_REPORTS_OFF : '') + DISABLE);
    } catch {
      // Same.
    }
  }

  private emit(actions: InputAction[]): void {
    const now = Date.now();
    const rest: InputAction[] = [];
    for (const a of actions) {
      if (a.kind === 'report') this.answered(a.what);
      else if (a.kind === 'syncReport') this.sync = a.known ? 'known' : 'unknown';
      // The background is taken only as the answer to milk's question: it comes before the device
      // attributes, so once they are in, one arriving later is stray (or typed) and changes nothing.
      else if (a.kind === 'background') {
        if (this.keyboard === 'asking') this.handler(a);
      } else rest.push(a);
    }
    for (const a of this.burst.feed(rest, now)) this.handler(a);
    this.armBurst(now);
  }

  /** A burst, or an Enter right after fast text, goes on once nothing more has come for a moment. */
  private armBurst(now: number): void {
    if (this.burstTimer) clearTimeout(this.burstTimer);
    this.burstTimer = null;
    const due = this.burst.due(now);
    if (due === null) return;
    this.burstTimer = setTimeout(() => {
      this.burstTimer = null;
      const at = Date.now();
      for (const a of this.burst.tick(at)) this.handler(a);
      this.armBurst(at);
    }, due);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

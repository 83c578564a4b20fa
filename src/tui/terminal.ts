// The real terminal's input side: raw mode, bracketed paste and wheel
// reporting on, bytes through the decoder, a short timer to tell a lone Esc
// from the start of a sequence. Undone by restore(), which is safe to repeat.

import { InputAction, InputDecoder } from './input';

const ENABLE = '\x1b[?2004h\x1b[?1000h\x1b[?1006h';
const DISABLE = '\x1b[?1006l\x1b[?1000l\x1b[?2004l';
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
  private timer: NodeJS.Timeout | null = null;
  private active = false;
  private readonly onData = (data: Buffer | string): void => {
    this.clearTimer();
    this.emit(this.decoder.feed(typeof data === 'string' ? data : data.toString('utf8')));
    if (this.decoder.pasteOpen()) {
      this.timer = setTimeout(() => this.emit(this.decoder.closePaste()), this.pasteIdleMs);
    } else if (this.decoder.hasPending()) {
      this.timer = setTimeout(() => this.emit(this.decoder.flushPending()), this.decoder.pendingSequence() ? SEQUENCE_TIMEOUT_MS : ESC_TIMEOUT_MS);
    }
  };

  constructor(
    private readonly input: NodeJS.ReadStream,
    private readonly output: NodeJS.WriteStream,
    private readonly handler: (action: InputAction) => void,
    private readonly pasteIdleMs: number = PASTE_IDLE_MS,
  ) {}

  start(): void {
    if (this.active) return;
    this.active = true;
    // Raw mode also turns off XON/XOFF, so Ctrl+S reaches us instead of freezing output.
    if (this.input.isTTY) this.input.setRawMode(true);
    this.input.setEncoding('utf8');
    this.input.on('data', this.onData);
    this.input.resume();
    this.output.write(ENABLE);
  }

  restore(): void {
    if (!this.active) return;
    this.active = false;
    this.clearTimer();
    this.input.off('data', this.onData);
    try {
      if (this.input.isTTY) this.input.setRawMode(false);
    } catch {
      // The terminal may already be gone (SIGHUP).
    }
    this.input.pause();
    try {
      this.output.write(DISABLE);
    } catch {
      // Same.
    }
  }

  private emit(actions: InputAction[]): void {
    for (const a of actions) this.handler(a);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

// Drives the real milk in a pseudo-terminal and reads the screen through a
// real terminal emulator (@xterm/headless). Tests wait for what they assert,
// polling with a deadline; nothing here sleeps a fixed time.

import * as pty from '@lydell/node-pty';
import { Terminal } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface StartOptions {
  args?: string[];
  cols?: number;
  rows?: number;
  cwd?: string;
  env?: Record<string, string>;
  /** A shell command line run by `sh -c` in place of milk's own (args are then not used): as a person types it. */
  shell?: string;
  /** Run through `sh -c` and print the tty state after milk exits. */
  reportTty?: boolean;
  /** Send the emulator's answers to queries (cursor position reports) back, as a real terminal does. Default true. */
  answerQueries?: boolean;
  /** Answer kitty's keyboard query as a terminal that speaks the protocol does (xterm.js does not). */
  kitty?: boolean;
  /** Answer OSC 11 with this colour (`rgb:ffff/ffff/ffff`), as a terminal does (xterm.js headless does not). */
  background?: string;
}

export function tempDir(prefix = 'milk-test-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export class MilkPty {
  readonly term: Terminal;
  readonly proc: pty.IPty;
  raw = '';
  readonly exited: Promise<{ exitCode: number; signal?: number }>;
  private pending: Promise<void> = Promise.resolve();

  constructor(options: StartOptions = {}) {
    const cols = options.cols ?? 80;
    const rows = options.rows ?? 24;
    this.term = new Terminal({ cols, rows, allowProposedApi: true });
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = '11';
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: options.env?.HOME ?? tempDir('milk-home-'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      NCURSES_NO_UTF8_ACS: '1',
      MILK_OFFLINE_DELAY_MS: '5',
      // The offline demo as if chosen: the welcome (shown when no model is set up) is its own tests' business.
      MILK_PROVIDER: 'offline',
      ...options.env,
    };
    const args = options.args ?? [];
    const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const [file, argv] = options.shell
      ? ['/bin/sh', ['-c', options.shell]]
      : options.reportTty
        ? // The shell then waits on input until the test kills it: a pty whose last process exits at once
          // can drop its final output, which under load lost the DONE the tests wait for.
          ['/bin/sh', ['-c', `${quoted}; echo "EXIT=$?"; stty -a | tr '\\n' ' '; echo; echo DONE; read _`]]
        : [process.execPath, [CLI, ...args]];
    this.proc = pty.spawn(file, argv, { name: env.TERM, cols, rows, cwd: options.cwd ?? tempDir('milk-cwd-'), env });
    let kittyAsked = false;
    let backgroundAsked = false;
    this.proc.onData((d) => {
      this.raw += d;
      if (options.background && !backgroundAsked && this.raw.includes('\x1b]11;?')) {
        backgroundAsked = true;
        this.proc.write(`\x1b]11;${options.background}\x1b\\`);
      }
      // Answered before the emulator answers the device attributes query that follows it, as kitty does.
      if (options.kitty && !kittyAsked && this.raw.includes('\x1b[?u')) {
        kittyAsked = true;
        this.proc.write('\x1b[?0u');
      }
      this.pending = this.pending.then(() => new Promise<void>((r) => this.term.write(d, r)));
    });
    this.exited = new Promise((resolve) => this.proc.onExit((e) => resolve(e)));
    if (options.answerQueries !== false) {
      this.term.onData((d) => {
        try {
          this.proc.write(d);
        } catch {
          // The program is gone.
        }
      });
    }
  }

  write(data: string): void {
    this.proc.write(data);
  }

  /** Screen rows as text, trailing spaces trimmed. */
  lines(): string[] {
    const buf = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y++) out.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
    return out;
  }

  text(): string {
    return this.lines().join('\n');
  }

  /** The hyperlink (OSC 8) on the screen cell at (x, y), 0-based; undefined for none. */
  linkAt(x: number, y: number): string | undefined {
    const buf = this.term.buffer.active;
    const cell = buf.getLine(buf.viewportY + y)?.getCell(x) as unknown as { extended?: { urlId?: number } } | undefined;
    const id = cell?.extended?.urlId ?? 0;
    if (!id) return undefined;
    const core = (
      this.term as unknown as { _core: { _oscLinkService: { getLinkData(id: number): { uri: string } | undefined } } }
    )._core;
    return core._oscLinkService.getLinkData(id)?.uri;
  }

  /** The foreground colour of the cell at (x, y), 0-based: 'default', or the palette index or RGB as a string. */
  colourAt(x: number, y: number): string {
    const buf = this.term.buffer.active;
    const cell = buf.getLine(buf.viewportY + y)?.getCell(x);
    if (!cell || cell.isFgDefault()) return 'default';
    return `${cell.isFgRGB() ? 'rgb' : 'palette'} ${cell.getFgColor()}`;
  }

  cursor(): { x: number; y: number } {
    const buf = this.term.buffer.active;
    return { x: buf.cursorX, y: buf.cursorY };
  }

  /** Polls until `check` passes (returns truthy) or the deadline; then throws with the screen. */
  async waitFor<T>(check: () => T | false | null | undefined, what: string, timeoutMs = 8000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.pending;
      const v = check();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${this.text()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  waitForText(needle: string | RegExp, timeoutMs?: number): Promise<string> {
    return this.waitFor(
      () => {
        const t = this.text();
        return (typeof needle === 'string' ? t.includes(needle) : needle.test(t)) ? t : false;
      },
      `${String(needle)}`,
      timeoutMs,
    );
  }

  /** The composer's rows, between its borders. */
  composerLines(): string[] {
    const lines = this.lines();
    const bottom = lines.findIndex((l, i) => l.startsWith('└') && i > 0);
    let top = bottom - 1;
    while (top > 0 && !lines[top].startsWith('┌')) top--;
    return lines.slice(top + 1, bottom).map((l) => l.replace(/^│/, '').replace(/│\s*$/, '').replace(/\s+$/, ''));
  }

  statusLine(): string {
    const lines = this.lines();
    return lines[lines.length - 1];
  }

  kill(signal?: string): void {
    try {
      this.proc.kill(signal);
    } catch {
      // already gone
    }
  }
}

export const KEY = {
  enter: '\r',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  ctrlUp: '\x1b[1;5A',
  ctrlDown: '\x1b[1;5B',
  ctrlC: '\x03',
  ctrlD: '\x04',
  ctrlJ: '\n',
  ctrlA: '\x01',
  ctrlE: '\x05',
  ctrlK: '\x0b',
  ctrlR: '\x12',
  ctrlS: '\x13',
  ctrlG: '\x07',
  esc: '\x1b',
  altEnter: '\x1b\r',
  shiftEnter: '\x1b[13;2u',
  backspace: '\x7f',
  paste: (text: string) => `\x1b[200~${text}\x1b[201~`,
};

/**
 * The test's milk in a pseudo-terminal, started by `start` and killed after each test (a failed test leaves no milk
 * running into the next).
 */
export function usePty(): { start(options?: StartOptions): MilkPty } {
  let current: MilkPty | null = null;
  afterEach(() => {
    current?.kill('SIGKILL');
    current = null;
  });
  return {
    start: (options) => {
      current?.kill('SIGKILL');
      current = new MilkPty(options);
      return current;
    },
  };
}

// The whole app in this process, its output read through a real terminal
// emulator (@xterm/headless), for stored pictures of what a person sees: the
// screen's text, and one line per row of its style runs. Everything a picture
// could vary by (the session, the workspace's name, the palette, the terminal
// type, the clock's minute) is fixed by the caller; the tests wait for what
// they picture, then for the screen to hold still.
import { Terminal, type IBufferCell } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { startApp, type App, type AppOptions } from '../../src/app/screen';
import { Cleanup } from '../../src/kernel/cleanup';
import { type FakeInput, fakeInput, fakeOutput } from './fake-tty';

export interface PictureOptions extends Partial<AppOptions> {
  cols: number;
  rows: number;
  dataDir: string;
  workspace: string;
}

/** A cell's look in short: colours and attributes, '' for the terminal's default. */
function look(cell: IBufferCell): string {
  const colour = (kind: 'Fg' | 'Bg'): string => {
    if (kind === 'Fg' ? cell.isFgDefault() : cell.isBgDefault()) return '';
    const value = kind === 'Fg' ? cell.getFgColor() : cell.getBgColor();
    const rgb = kind === 'Fg' ? cell.isFgRGB() : cell.isBgRGB();
    return `${kind.toLowerCase()}=${rgb ? `#${value.toString(16).padStart(6, '0')}` : value}`;
  };
  const flags = [
    cell.isBold() ? 'bold' : '',
    cell.isDim() ? 'dim' : '',
    cell.isItalic() ? 'italic' : '',
    cell.isUnderline() ? 'underline' : '',
    cell.isInverse() ? 'inverse' : '',
  ];
  return [colour('Fg'), colour('Bg'), ...flags].filter(Boolean).join(' ');
}

export class PictureApp {
  readonly term: Terminal;
  readonly app: App;
  readonly workspace: string;
  private readonly cleanup = new Cleanup();
  private pending: Promise<void> = Promise.resolve();
  private readonly input: FakeInput;

  constructor(options: PictureOptions) {
    const { cols, rows } = options;
    this.workspace = options.workspace;
    this.term = new Terminal({ cols, rows, allowProposedApi: true });
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = '11';
    const input = fakeInput();
    this.input = input;
    const write = (chunk: Buffer | string): Promise<void> =>
      new Promise<void>((r) => this.term.write(typeof chunk === 'string' ? chunk : new Uint8Array(chunk), r));
    const output = fakeOutput(cols, rows, (chunk) => {
      this.pending = this.pending.then(() => write(chunk));
    });
    // The emulator's answers to milk's questions (the cursor's place, its attributes) go back as a terminal's would.
    this.term.onData((d) => input.write(d));
    this.app = startApp({
      sessionId: 'pictures',
      displayName: 'project',
      maxEntries: 500,
      theme: 'dark',
      hyperlinks: 'off',
      notify: 'off',
      env: { TERM: 'xterm-256color', LANG: 'C.UTF-8' },
      ...options,
      input: input as unknown as NodeJS.ReadStream,
      output: output as unknown as NodeJS.WriteStream,
      cleanup: this.cleanup,
    } as AppOptions);
  }

  write(keys: string): void {
    this.input.write(keys);
  }

  close(): void {
    this.cleanup.run();
  }

  /** The screen's rows, trailing spaces trimmed; a mock server's port (which varies by run) as #####. */
  lines(): string[] {
    const buf = this.term.buffer.active;
    return Array.from({ length: this.term.rows }, (_, y) =>
      (buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '').replace(/(127\.0\.0\.1:)\d{5}/g, '$1#####'),
    );
  }

  text(): string {
    return this.lines().join('\n');
  }

  /** One line per row that has any style: its runs, `from-to look`, columns counted from 0. */
  styles(): string[] {
    const buf = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y++) {
      const line = buf.getLine(buf.viewportY + y);
      if (!line) continue;
      const runs: string[] = [];
      let start = 0;
      let current = '';
      const close = (end: number) => {
        if (current) runs.push(`${start}-${end - 1} ${current}`);
      };
      for (let x = 0; x < this.term.cols; x++) {
        const cell = line.getCell(x);
        const here = cell ? look(cell) : '';
        if (here === current) continue;
        close(x);
        start = x;
        current = here;
      }
      close(this.term.cols);
      if (runs.length) out.push(`${String(y).padStart(2)}: ${runs.join(', ')}`);
    }
    return out;
  }

  /** The picture: the screen's text (spaces a frame left at a row's end trimmed), a rule, then its style runs. */
  picture(): string {
    const text = this.lines().map((l) => `|${l.trimEnd()}`);
    return ['', ...text, '-- styles --', ...this.styles(), ''].join('\n');
  }

  /**
   * Waits until `check` passes on the screen's text and the picture stops changing (two looks a frame apart agree),
   * or throws with the screen at the deadline.
   */
  async settle(check: (text: string) => boolean, what: string, timeoutMs = 8000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      await this.pending;
      const now = this.picture();
      if (check(this.text()) && now === last) return now;
      last = now;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${this.text()}`);
      await new Promise((r) => setTimeout(r, 40));
    }
  }
}

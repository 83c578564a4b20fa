// The whole app on fake streams: no TTY, no pty. Keys go in as bytes, the
// screen is read back from blessed's cell buffer.
import { startApp, App } from '../../src/app/screen';
import { Cleanup } from '../../src/kernel/cleanup';
import { OfflineProvider } from '../../src/providers/offline';
import { tempDir } from '../helpers/pty';
import { fakeInput, fakeOutput } from '../helpers/fake-tty';

function fakeTerminal(cols = 60, rows = 16) {
  return { input: fakeInput(), output: fakeOutput(cols, rows) };
}

function screenLines(app: App): string[] {
  const lines = (app.screen.screen as unknown as { lines: Array<Array<[number, string]>> }).lines;
  return lines.map((l) =>
    l
      .map((c) => (c[1] === '\x03' ? '' : c[1]))
      .join('')
      .trimEnd(),
  );
}

async function until(app: App, check: (lines: string[]) => boolean, what: string): Promise<string[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const lines = screenLines(app);
    if (check(lines)) return lines;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the screen on fake streams', () => {
  let app: App;
  let cleanup: Cleanup;
  let term: ReturnType<typeof fakeTerminal>;

  beforeEach(() => {
    term = fakeTerminal();
    cleanup = new Cleanup();
    app = startApp({
      input: term.input as unknown as NodeJS.ReadStream,
      output: term.output as unknown as NodeJS.WriteStream,
      sessionId: 'unit-session',
      provider: new OfflineProvider({ wordDelayMs: 1 }),
      cleanup,
      dataDir: tempDir(),
      workspace: '/nowhere',
      displayName: 'nowhere',
      maxEntries: 500,
    });
  });
  afterEach(() => cleanup.run());

  it('draws transcript, composer and status bar, and takes raw mode', async () => {
    const lines = await until(app, (l) => l[15].includes('unit-session'), 'status bar');
    expect(lines[15]).toContain('history: session');
    expect(lines[12]).toMatch(/^┌─+┐$/);
    expect(lines[14]).toMatch(/^└─+┘$/);
    expect(term.input.isRaw).toBe(true);
  });

  it('types, submits and streams a reply, busy then idle', async () => {
    term.input.write('hello');
    await until(app, (l) => l[13].startsWith('│hello'), 'typed text');
    term.input.write('\r');
    await until(app, (l) => l.some((x) => x.startsWith('› hello')), 'user entry');
    await until(app, (l) => l[15].includes('working'), 'busy indicator');
    await until(app, (l) => l.join(' ').includes('--model NAME.') && !l[15].includes('working'), 'reply and idle');
  });

  it('grows the composer with its content, up to a third of the screen', async () => {
    term.input.write('1\n2\n3\n4\n5\n6\n7');
    const lines = await until(app, (l) => l.some((x) => x.startsWith('│7')), 'last line visible');
    const top = lines.findIndex((l) => l.startsWith('┌'));
    // 16 rows: a third is 5, minus the two border rows leaves 3 content rows.
    expect(lines.slice(top + 1, top + 4).map((l) => l.slice(1, 2))).toEqual(['5', '6', '7']);
  });

  it('gives the terminal back on cleanup', () => {
    cleanup.run();
    expect(term.input.isRaw).toBe(false);
  });
});

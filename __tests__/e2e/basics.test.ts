import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { KEY, MilkPty, tempDir } from '../helpers/pty';

/** Esc out of /theme's picker, waiting until it has said so (a key right after Esc would read as Alt+key). */
async function closeThemes(m: MilkPty): Promise<void> {
  const said = () => m.text().split('(unchanged)').length;
  const before = said();
  m.write(KEY.esc);
  await m.waitFor(() => said() > before, 'the theme picker closed');
}

jest.setTimeout(30000);

/** Answers the question a workspace with its own .milk/ asks at start: trusted, its commands apply. */
async function trustWorkspace(m: MilkPty): Promise<void> {
  await m.waitForText("Trust this workspace's .milk/?");
  await m.waitFor(() => m.statusLine().includes('answer · Esc'), 'armed');
  m.write('1');
  await m.waitForText('trusted: .milk/ is in force');
  await m.waitForText('history: session');
}

describe('milk in a real terminal', () => {
  let milk: MilkPty | null = null;
  /** The status bar's background, a 256-colour index: 236 in the dark palette, 253 in the light one. */
  const statusBg = () => {
    const buf = milk!.term.buffer.active;
    const cell = buf.getLine(buf.viewportY + milk!.term.rows - 1)?.getCell(2);
    return cell?.isBgPalette() ? cell.getBgColor() : -1;
  };
  afterEach(() => {
    milk?.kill('SIGKILL');
    milk = null;
  });

  it('edits in the middle of a two-line input, submits it, shows the offline reply and quits cleanly', async () => {
    const data = tempDir();
    const cwd = tempDir();
    milk = new MilkPty({ args: ['--data-dir', data], cwd, reportTty: true });
    await milk.waitForText('history: session');
    milk.write('first line');
    milk.write(KEY.altEnter);
    milk.write('second line');
    await milk.waitFor(() => milk!.composerLines()[1] === 'second line', 'two composer lines');
    // Up to the first line, to its start, then five to the right: "first| line".
    milk.write(KEY.up + KEY.home + KEY.right.repeat(5));
    milk.write(' inserted');
    await milk.waitFor(() => milk!.composerLines()[0] === 'first inserted line', 'text inserted mid-line');
    const cur = milk.cursor();
    const composerTop = milk.lines().findIndex((l) => l.startsWith('┌'));
    expect(cur).toEqual({ x: 1 + 'first inserted'.length, y: composerTop + 1 });

    milk.write(KEY.enter);
    await milk.waitForText('› first inserted line');
    await milk.waitForText('You wrote 2 lines');
    await milk.waitForText('--model NAME.');
    await milk.waitFor(() => !milk!.statusLine().includes('working'), 'idle status');
    expect(milk.composerLines()).toEqual(['']);

    milk.write(KEY.ctrlC);
    const out = await milk.waitFor(() => /EXIT=(\d+)[\s\S]*DONE/.exec(milk!.raw), 'exit report');
    expect(out[1]).toBe('0');
    // The tty is back in cooked mode with echo, the alt screen left, paste and mouse modes off.
    expect(milk.raw).toMatch(/ icanon /);
    expect(milk.raw).toMatch(/ echo /);
    expect(milk.term.buffer.active.type).toBe('normal');
    expect(milk.term.modes.bracketedPasteMode).toBe(false);
    expect(milk.term.modes.mouseTrackingMode).toBe('none');
    expect(milk.raw.lastIndexOf('\x1b[?25h')).toBeGreaterThan(milk.raw.lastIndexOf('\x1b[?25l'));
    // Nothing was written into the workspace.
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('Ctrl+_ undoes a typed run and a word cut, Alt+_ redoes', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()] });
    await milk.waitForText('history: session');
    for (const ch of 'run the tests') milk.write(ch);
    await milk.waitFor(() => milk!.composerLines().join('') === 'run the tests', 'typed');
    milk.write('\x17');
    await milk.waitFor(() => milk!.composerLines().join('') === 'run the', 'a word cut');
    milk.write('\x1f');
    await milk.waitFor(() => milk!.composerLines().join('') === 'run the tests', 'the cut undone');
    milk.write('\x1f');
    await milk.waitFor(() => milk!.composerLines().join('') === '', 'the typed run undone');
    milk.write('\x1b_');
    await milk.waitFor(() => milk!.composerLines().join('') === 'run the tests', 'redone');
    // readline's other undo key, a chord: Ctrl+X Ctrl+U.
    milk.write('\x18\x15');
    await milk.waitFor(() => milk!.composerLines().join('') === '', 'undone by Ctrl+X Ctrl+U');
  });

  it('puts the cursor on the right cell after CJK and emoji at 80x24, borders straight', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cols: 80, rows: 24 });
    await milk.waitForText('history: session');
    milk.write('日本語 😀 ok');
    await milk.waitFor(() => milk!.composerLines()[0]?.startsWith('日本語 😀 ok'), 'wide text');
    const top = milk.lines().findIndex((l) => l.startsWith('┌'));
    // 日本語 = 6 cells, space, 😀 = 2 cells, space, ok: 12 cells, after a 1-cell border.
    expect(milk.cursor()).toEqual({ x: 1 + 12, y: top + 1 });
    const row = milk.lines()[top + 1];
    expect(row.endsWith('│')).toBe(true);
    expect(
      milk.term.buffer.active
        .getLine(top + 1)
        ?.getCell(79)
        ?.getChars(),
    ).toBe('│');
    milk.write(KEY.left.repeat(4));
    await milk.waitFor(() => milk!.cursor().x === 1 + 7, 'cursor before the emoji');
    milk.write('→');
    await milk.waitFor(() => milk!.composerLines()[0]?.startsWith('日本語 →😀 ok'), 'insert before emoji');
    expect(milk.cursor()).toEqual({ x: 1 + 8, y: top + 1 });
    expect(
      milk.term.buffer.active
        .getLine(top + 1)
        ?.getCell(79)
        ?.getChars(),
    ).toBe('│');
    milk.write(KEY.enter);
    await milk.waitForText('› 日本語 →😀 ok');
  });

  it('lays out at 250x80 and follows a resize', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cols: 250, rows: 80 });
    await milk.waitForText('history: session');
    expect(milk.lines()[79]).toContain('milk');
    expect(milk.lines()[77].length).toBe(250);
    milk.proc.resize(100, 30);
    milk.term.resize(100, 30);
    await milk.waitFor(
      () => milk!.lines()[29]?.includes('history: session') && milk!.lines()[27]?.length === 100,
      'resized layout',
    );
    milk.write('still typing');
    await milk.waitFor(() => milk!.composerLines()[0] === 'still typing', 'typing after resize');
    milk.write(KEY.ctrlC + '/help' + KEY.enter);
    // /help opens at its top, in the resized screen; G goes to its end.
    await milk.waitFor(() => milk!.lines()[0].startsWith('first steps'), 'the help at its top');
    milk.write('G');
    await milk.waitForText(/help: line (\d+) of \1 /);
    expect(milk.text()).not.toContain('You wrote');
    milk.write(KEY.esc);
    await milk.waitFor(() => !milk!.text().includes('first steps'), 'the help closed');
  });

  it('never submits on the newlines of a bracketed paste, and collapses a large one', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()] });
    await milk.waitForText('history: session');
    milk.write(KEY.paste('alpha\nbeta\ngamma'));
    await milk.waitFor(() => milk!.composerLines().join('|') === 'alpha|beta|gamma', 'small paste inline');
    expect(milk.text()).not.toContain('›');
    milk.write(KEY.ctrlC);
    await milk.waitFor(() => milk!.composerLines().join('') === '', 'cleared');
    const big = Array.from({ length: 42 }, (_, i) => `line ${i}`).join('\n');
    milk.write('see ' + KEY.paste(big) + ' end');
    await milk.waitFor(() => milk!.composerLines()[0] === 'see [pasted 42 lines] end', 'collapsed paste');
    milk.write(KEY.enter);
    await milk.waitForText('› see [pasted 42 lines] end');
    // The model got the whole paste.
    await milk.waitForText('You wrote 42 lines');
  });

  it('closes a paste that never ends, so later keys (Ctrl-C included) work again', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()] });
    await milk.waitForText('history: session');
    milk.write('\x1b[200~orphan paste');
    await milk.waitForText('a paste never ended');
    expect(milk.composerLines()[0]).toBe('orphan paste');
    milk.write(' typed');
    await milk.waitFor(() => milk!.composerLines()[0] === 'orphan paste typed', 'typing after the paste');
    milk.write(KEY.ctrlC);
    await milk.waitFor(() => milk!.composerLines().join('') === '', 'Ctrl-C clears');
  });

  it('waits for the rest of an escape sequence split by a slow link, instead of typing it as text', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()] });
    await milk.waitForText('history: session');
    milk.write('first entry' + KEY.enter);
    await milk.waitForText('› first entry');
    await milk.waitFor(() => !milk!.statusLine().includes('working'), 'idle');
    // Ctrl+Up, its last byte 150 ms behind the rest (an ssh link's jitter): the split is the input, not a wait.
    milk.write(KEY.ctrlUp.slice(0, -1));
    await new Promise((r) => setTimeout(r, 150));
    milk.write(KEY.ctrlUp.slice(-1));
    await milk.waitFor(() => milk!.composerLines()[0] === 'first entry', 'Ctrl+Up recalled the entry');
    expect(milk.text()).not.toContain('[1;5A');
  });

  it('starts with a broken config file, says so, and uses the defaults', async () => {
    const data = tempDir();
    fs.writeFileSync(`${data}/config.json`, '{ "history": ');
    milk = new MilkPty({ args: ['--data-dir', data] });
    await milk.waitForText('config.json is not valid JSON; using defaults');
    milk.write('still works' + KEY.enter);
    await milk.waitForText('› still works');
  });

  it('starts at once with a FIFO as config.json, says so, and uses the defaults', async () => {
    const data = tempDir();
    require('node:child_process').execFileSync('mkfifo', [`${data}/config.json`]);
    milk = new MilkPty({ args: ['--data-dir', data] });
    await milk.waitForText('config.json is not a regular file; using defaults');
    milk.write('still works' + KEY.enter);
    await milk.waitForText('› still works');
  });

  it('names each bad config value on its own line, keeps the good ones, and prints nothing over the screen', async () => {
    const data = tempDir();
    fs.writeFileSync(
      `${data}/config.json`,
      JSON.stringify({ idleTimeoutMs: 3_000_000_000, theme: 'blue', history: { maxEntries: 3 } }),
    );
    milk = new MilkPty({ args: ['--data-dir', data], rows: 30, cols: 120 });
    await milk.waitForText('config.json: idleTimeoutMs must be a whole number of milliseconds from 100 to 2147483647');
    await milk.waitForText('config.json: theme must be auto, dark, light, solarized-dark');
    milk.write('a turn' + KEY.enter);
    await milk.waitForText('› a turn');
    await milk.waitForText('You wrote');
    expect(milk.raw).not.toMatch(/TimeoutOverflowWarning|\(node:\d+\)/);
  });

  it('scrolls the transcript with PageUp/PageDown and the wheel, and holds its place while reading back', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], env: { MILK_OFFLINE_DELAY_MS: '40' } });
    await milk.waitForText('history: session');
    // A command's 60 lines, shown whole (Ctrl+O): more than a screen of transcript.
    milk.write("!seq -f 'row %g' 0 59" + KEY.enter);
    await milk.waitForText('(Ctrl+O shows them)');
    milk.write('\x0f');
    await milk.waitFor(() => !milk!.text().includes('lines hidden'), 'the output whole');
    // The top rows: the welcome line, then the command's first lines.
    const transcriptTop = () => milk!.lines().slice(0, 8).join('\n');
    await milk.waitFor(() => !transcriptTop().includes('row 0'), 'the input scrolled up');
    milk.write('more' + KEY.enter);
    await milk.waitFor(() => milk!.statusLine().includes('working'), 'busy');
    milk.write('\x1b[5~'.repeat(30));
    await milk.waitFor(() => transcriptTop().includes('row 0'), 'scrolled to the top');
    // The reply keeps streaming below without moving what is being read.
    await milk.waitFor(() => !milk!.statusLine().includes('working'), 'idle', 15000);
    expect(transcriptTop()).toContain('row 0');
    milk.write('\x1b[<65;10;5M'.repeat(80));
    await milk.waitFor(() => milk!.text().includes('--model NAME.'), 'wheel down to the bottom');
    milk.write('\x1b[<64;10;5M');
    await milk.waitFor(() => !milk!.text().includes('--model NAME.'), 'wheel up');
    milk.write('\x1b[6~'.repeat(40));
    await milk.waitFor(() => milk!.text().includes('--model NAME.'), 'PageDown back to the bottom');
  });

  it('completes slash commands from the menu with Tab and runs them without sending anything; a typo names the nearest', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()] });
    await milk.waitForText('history: session');
    milk.write('/hi');
    await milk.waitForText(/› \/history \[global\|session\] +Show the history mode/);
    milk.write('\t');
    await milk.waitFor(() => milk!.composerLines()[0] === '/history', 'completed');
    milk.write('global' + KEY.enter);
    await milk.waitForText('history: global (Up/Down walk the global history)');
    await milk.waitFor(() => milk!.statusLine().includes('history: global'), 'status shows the mode');
    // A word that names no command is refused, not sent, and stays in the composer to mend.
    milk.write('/definitely-not-a-command with words' + KEY.enter);
    await milk.waitForText('unknown command /definitely-not-a-command: / alone lists every command');
    expect(milk.text()).not.toContain('› /definitely-not-a-command');
    expect(milk.composerLines().join('')).toBe('/definitely-not-a-command with words');
    milk.write('\x15');
    await milk.waitFor(() => milk!.composerLines().join('') === '', 'the composer cleared');
    // A typo: the nearest command is named.
    milk.write('/stauts' + KEY.enter);
    await milk.waitForText('unknown command /stauts: did you mean /status?');
    milk.write('\x15');
    await milk.waitFor(() => milk!.composerLines().join('') === '', 'the composer cleared');
    // Escaped with //, it goes to the model as text.
    milk.write('//definitely-not-a-command' + KEY.enter);
    await milk.waitForText('› /definitely-not-a-command');
  });

  it('opens on a welcome that says how to connect a model, naming an Ollama server that answers', async () => {
    const http = require('node:http') as typeof import('node:http');
    // An Ollama server as its API answers /api/tags.
    const ollama = http.createServer((req, res) => {
      res.writeHead(req.url === '/api/tags' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ models: [{ name: 'qwen3:8b' }, { name: 'llama3.2' }] }));
    });
    await new Promise<void>((r) => ollama.listen(0, '127.0.0.1', r));
    const port = (ollama.address() as { port: number }).port;
    try {
      milk = new MilkPty({
        args: ['--data-dir', tempDir()],
        env: { OLLAMA_HOST: `127.0.0.1:${port}`, MILK_PROVIDER: '' },
      });
      await milk.waitForText('Welcome to milk, a coding agent for your terminal. No model is set up');
      // The welcome may reach the terminal in more than one write.
      await milk.waitForText('Keys: Enter to send, / for commands, @ for files, Ctrl+R to search history,');
      expect(milk.text()).toContain('--provider openai --base-url http://HOST:PORT/v1 --model NAME');
      await milk.waitFor(
        () =>
          milk!
            .text()
            .replace(/\s+/g, ' ')
            .includes(`an Ollama server answers at http://127.0.0.1:${port} (models: qwen3:8b, llama3.2)`),
        'the Ollama server named',
      );
      expect(milk.text().replace(/\s+/g, ' ')).toContain(
        `--provider openai --base-url http://127.0.0.1:${port}/v1 --model qwen3:8b`,
      );
    } finally {
      ollama.close();
    }
  });

  it('opens without the welcome when a provider is named, and says which key from the environment chose one', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir(), '--provider', 'offline'] });
    await milk.waitForText('history: session');
    expect(milk.text()).not.toContain('Welcome to milk');
    milk.kill('SIGKILL');
    milk = new MilkPty({
      args: ['--data-dir', tempDir()],
      env: { OPENAI_API_KEY: 'sk-test-not-a-key', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', MILK_PROVIDER: '' },
    });
    await milk.waitForText('openai · gpt-4o-mini, with OPENAI_API_KEY from the environment');
    expect(milk.text()).not.toContain('Welcome to milk');
    expect(milk.text()).not.toContain('sk-test');
  });

  it("says milk's state in the title, and rings the bell when a turn ends while the terminal is away", async () => {
    const path = require('node:path') as typeof import('node:path');
    const cwd = tempDir();
    const name = path.basename(cwd);
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cwd });
    await milk.waitForText('history: session');
    // Focus reports asked for, the terminal's title pushed, then milk's own.
    await milk.waitFor(() => milk!.raw.includes(`\x1b]2;milk · ${name}\x1b\\`), 'the idle title');
    expect(milk.raw).toContain('\x1b[?1004h');
    expect(milk.raw.indexOf('\x1b[22;0t')).toBeLessThan(milk.raw.indexOf(`\x1b]2;milk · ${name}\x1b\\`));
    const bells = (from: number) =>
      milk!.raw
        .slice(from)
        .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
        .split('\x07').length - 1;
    // Focused: a turn ends with no bell.
    let from = milk.raw.length;
    milk.write('first' + KEY.enter);
    await milk.waitForText('You wrote one line: "first"');
    await milk.waitFor(() => milk!.raw.slice(from).includes(`\x1b]2;milk · ${name}\x1b\\`), 'idle again');
    expect(milk.raw.slice(from)).toContain(`\x1b]2;milk: working · ${name}\x1b\\`);
    expect(bells(from)).toBe(0);
    // Away (the terminal reports focus out): the end of the next turn rings once.
    milk.write('\x1b[O');
    from = milk.raw.length;
    milk.write('second' + KEY.enter);
    await milk.waitForText('You wrote one line: "second"');
    await milk.waitFor(() => bells(from) === 1, 'the bell');
    // Back: quiet again.
    milk.write('\x1b[I');
    from = milk.raw.length;
    milk.write('third' + KEY.enter);
    await milk.waitForText('You wrote one line: "third"');
    // The focus report retitles too (the idle title may come from it): the turn's end is the status bar's.
    await milk.waitFor(() => !milk!.statusLine().includes('working'), 'the turn over');
    await milk.waitFor(() => milk!.raw.slice(from).includes(`\x1b]2;milk · ${name}\x1b\\`), 'idle again');
    expect(bells(from)).toBe(0);
    // Leaving pops the terminal's own title back.
    milk.write(KEY.ctrlD);
    await milk.exited;
    expect(milk.raw).toContain('\x1b[23;0t');
  });

  it('/version names the version, the commit the build was made from, and the Node.js it runs on', async () => {
    const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
    const { version } = require('../../package.json') as { version: string };
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cols: 160 });
    await milk.waitForText('history: session');
    milk.write('/version now' + KEY.enter);
    await milk.waitForText('usage: /version');
    milk.write('/version' + KEY.enter);
    await milk.waitForText(`milk ${version} · built from ${head}`);
    expect(milk.text()).toContain(`Node.js ${process.version} on ${process.platform} ${process.arch}`);
  });

  it('/doctor says what milk found, the terminal as it answered included', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cols: 160, rows: 30 });
    await milk.waitForText('history: session');
    milk.write('/doctor' + KEY.enter);
    await milk.waitForText(/✓ terminal +xterm's modifyOtherKeys/);
    // Asked with DECRQM; xterm.js may or may not know the mode: either answer, or none, is said.
    expect(milk.text().replace(/\s+/g, ' ')).toMatch(
      /synchronized output \(DEC 2026\): (the terminal knows it|the terminal does not know it|not answered)/,
    );
    expect(milk.text().replace(/\s+/g, ' ')).toMatch(
      /synchronized output \(DEC 2026\): (the terminal knows it|the terminal does not know it|not answered)/,
    );
    expect(milk.text()).toMatch(/✓ sandbox +bubblewrap [\d.]+ confines commands/);
    expect(milk.text()).toMatch(/! provider +the offline demo/);
  });

  it('opens the slash menu on / with every command, filters it as typed, runs the chosen one; /exit quits', async () => {
    const cwd = tempDir();
    const path = require('node:path') as typeof import('node:path');
    fs.mkdirSync(path.join(cwd, '.milk', 'commands'), { recursive: true });
    fs.writeFileSync(
      path.join(cwd, '.milk', 'commands', 'audit.md'),
      '---\ndescription: Audit the diff\n---\nAudit it.',
    );
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cwd, rows: 30 });
    await trustWorkspace(milk);
    milk.write('/');
    await milk.waitForText(/ \/ · \d+ commands/);
    expect(milk.text()).toMatch(/› \/help +What to know first/);
    expect(milk.statusLine()).toContain('Enter: run · Tab: complete');
    // Fuzzy: the letters in order; a prompt file's command is in the list with its description.
    milk.write('audt');
    await milk.waitForText(/\/audt · 1 command/);
    expect(milk.text()).toMatch(/› \/audit +Audit the diff \(project\)/);
    for (let i = 0; i < 4; i++) milk.write(KEY.backspace);
    milk.write('st');
    await milk.waitForText(/› \/status +Show where things stand/);
    milk.write(KEY.enter);
    await milk.waitForText(/context +\d+% \([\d,]+ of 128,000 tokens\) in use/);
    expect(milk.text()).toMatch(/approval +ask · /);
    expect(milk.text()).toMatch(/model +the offline demo/);
    // Up and Down choose; Esc closes the list and leaves what was typed.
    milk.write('/co');
    await milk.waitForText(/\/co · \d+ commands/);
    await milk.waitForText(/› \/context /);
    milk.write(KEY.down);
    await milk.waitForText(/› \/cost /);
    milk.write(KEY.esc);
    await milk.waitFor(() => !/\/co · \d+ commands/.test(milk!.text()), 'closed');
    expect(milk.composerLines()[0]).toBe('/co');
    for (let i = 0; i < 3; i++) milk.write(KEY.backspace);
    await milk.waitFor(() => milk!.composerLines()[0] === '', 'emptied');
    milk.write('/exit' + KEY.enter);
    expect((await milk.exited).exitCode).toBe(0);
  });

  it('suspends on Ctrl-Z with the terminal handed back, and comes back whole on SIGCONT', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()] });
    await milk.waitForText('history: session');
    milk.write('draft kept');
    await milk.waitFor(() => milk!.composerLines()[0] === 'draft kept', 'typed');
    const pid = milk.proc.pid;
    const state = () => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];
    const before = milk.raw.length;
    milk.write('\x1a');
    // Stopped, and what it wrote before stopping has come through the pty.
    await milk.waitFor(() => state() === 'T' && milk!.raw.slice(before).includes('\x1b[?1049l'), 'stopped');
    const handedBack = milk.raw.slice(before);
    expect(handedBack).toContain('\x1b[?1049l');
    expect(handedBack).toContain('\x1b[?2004l');
    expect(handedBack).toContain('\x1b[?25h');
    // While stopped the terminal is cooked again, for the shell.
    const pts = (milk.proc as unknown as { ptsName: string }).ptsName;
    expect(require('node:child_process').execFileSync('stty', ['-F', pts, '-a'], { encoding: 'utf8' })).toMatch(
      /(^|\s)icanon(\s|$)/,
    );
    process.kill(pid, 'SIGCONT');
    await milk.waitFor(
      () => state() !== 'T' && milk!.text().includes('history: session') && milk!.composerLines()[0] === 'draft kept',
      'back, repainted',
    );
    milk.write('!' + KEY.enter);
    await milk.waitForText('› draft kept!');
    // A stop from outside (kill -TSTP) takes the same path.
    process.kill(pid, 'SIGTSTP');
    await milk.waitFor(() => state() === 'T', 'stopped from outside');
    process.kill(pid, 'SIGCONT');
    await milk.waitFor(() => state() !== 'T' && milk!.text().includes('history: session'), 'back again');
    milk.write('typing');
    await milk.waitFor(() => milk!.composerLines()[0] === 'typing', 'raw mode again');
  });

  it("writes nothing on the shell's screen after fg before taking the terminal back, even mid-answer", async () => {
    // The answer streams while milk is stopped: paints fall due then, and must not land on the shell's screen.
    milk = new MilkPty({ args: ['--data-dir', tempDir()], env: { MILK_OFFLINE_DELAY_MS: '40' } });
    await milk.waitForText('history: session');
    milk.write('a long answer please' + KEY.enter);
    await milk.waitForText('You wrote');
    const pid = milk.proc.pid;
    const state = () => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];
    for (let i = 0; i < 5; i++) {
      const before = milk.raw.length;
      milk.write('\x1a');
      await milk.waitFor(
        () => state() === 'T' && milk!.raw.slice(before).includes('\x1b[?1049l'),
        'stopped, the screen handed back',
      );
      const stoppedAt = milk.raw.length;
      // Long enough for the answer's next words to fall due while stopped.
      await new Promise((r) => setTimeout(r, 150));
      process.kill(pid, 'SIGCONT');
      await milk.waitFor(
        () => state() !== 'T' && milk!.raw.length > stoppedAt && milk!.raw.slice(stoppedAt).includes('\x1b[?1049h'),
        'back',
      );
      const after = milk.raw.slice(stoppedAt);
      // Only the frame's opening bracket (DEC 2026, not drawing) may come before the alternate screen.
      expect(JSON.stringify(after.slice(0, after.indexOf('\x1b[?1049h')).replace('\x1b[?2026h', ''))).toBe('""');
    }
  });

  it('/context shows the system prompt by part and the AGENTS.md loaded', async () => {
    const cwd = tempDir();
    fs.writeFileSync(`${cwd}/AGENTS.md`, 'Use tabs.\n');
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cwd });
    await milk.waitForText('history: session');
    milk.write('/context' + KEY.enter);
    await milk.waitFor(() => /system prompt: [\d,]+ characters, 5 parts/.test(milk!.text()), 'the parts');
    await milk.waitFor(
      () => milk!.text().replace(/\s+/g, '').includes(`instructions:${cwd}/AGENTS.md`),
      'the file loaded',
    );
    for (const part of ['identity', 'environment', 'tools', 'approval'])
      expect(milk.text()).toMatch(new RegExp(`^\\s+${part}\\s+[\\d,]+$`, 'm'));
  });

  it('repaints every cell with Ctrl+L', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()] });
    await milk.waitForText('history: session');
    // Something else scribbled over the screen. The width probe may still be finishing, and when the
    // terminal draws emoji other than assumed it redraws everything once: then scribble again.
    const scribbled = () => milk!.text().includes('garbage') && !milk!.text().includes('/help for keys');
    await milk.waitFor(() => {
      if (!scribbled()) milk!.term.write('\x1b[2J\x1b[Hgarbage');
      return scribbled();
    }, 'scribbled');
    milk.write('\x0c');
    await milk.waitFor(
      () => milk!.text().includes('history: session') && !milk!.text().includes('garbage'),
      'repainted',
    );
  });

  it('keeps the history mode on the status bar at 50 columns, the long session id giving way', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cols: 50 });
    await milk.waitFor(() => milk!.statusLine().includes('│ history: session'), 'the history mode whole at 50 columns');
    expect(milk.statusLine()).toMatch(/ milk │ tmp-milk-cwd-[^ ]*… │ history: session/);
  });

  it("says on the composer's border how many lines are above (and below) the rows it shows", async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cols: 60, rows: 20 });
    await milk.waitForText('history: session');
    // Typed as a person types, a line at a time (all at once it would be a paste, collapsed).
    for (let i = 1; i <= 30; i++) {
      milk.write(`line ${i}`);
      await milk.waitFor(() => milk!.composerLines().includes(`line ${i}`), `line ${i}`);
      if (i < 30) milk.write(KEY.ctrlJ);
    }
    const border = () => milk!.lines().find((l) => l.startsWith('┌')) ?? '';
    await milk.waitFor(() => /↑ \d+ more above/.test(border()), 'the marker above');
    const above = Number(/↑ (\d+) more above/.exec(border())![1]);
    expect(above).toBe(30 - milk.composerLines().length);
    // At the top, the lines are below.
    milk.write('\x1b[1;5H');
    await milk.waitFor(() => /↓ \d+ more below/.test(border()) && !border().includes('↑'), 'the marker below');
    // Short again: no marker.
    milk.write(KEY.ctrlC);
    await milk.waitFor(() => !/more (above|below)/.test(border()), 'the marker gone');
  });

  it('starts a soft-wrapped row with the next word, not the blank it wrapped at', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cols: 20 });
    await milk.waitForText('history:');
    milk.write('a'.repeat(18) + ' bbbb');
    await milk.waitFor(
      () => milk!.composerLines().join('|') === 'a'.repeat(18) + '|bbbb',
      'the second row starting with bbbb',
    );
  });

  it("writes each frame as one write inside DEC 2026 brackets (synchronized output), a resize's full repaint too", async () => {
    const BEGIN = '\x1b[?2026h';
    const END = '\x1b[?2026l';
    milk = new MilkPty({ args: ['--data-dir', tempDir()] });
    await milk.waitForText('history: session');
    const frames = (from: number) => milk!.raw.slice(from);
    /** Every frame opened is closed, and nothing is drawn between one frame's end and the next one's start. */
    const whole = (f: string) => {
      expect(f.startsWith(BEGIN)).toBe(true);
      expect(f.endsWith(END)).toBe(true);
      const parts = f.split(END).slice(0, -1);
      for (const part of parts) {
        expect(part.split(BEGIN)[0]).toBe('');
        expect(part.split(BEGIN).length).toBe(2);
      }
    };
    // From a frame's end once start-up is over: the probe's row, the keyboard mode milk sets when the terminal
    // answers its query and the title a focus report brings are written then, the last two outside any frame.
    await milk.waitFor(() => /\x1b\[>(4;2m|1u)/.test(milk!.raw), 'the keyboard mode set');
    let seen = -1;
    let since = Date.now();
    await milk.waitFor(() => {
      if (milk!.raw.length !== seen) [seen, since] = [milk!.raw.length, Date.now()];
      return milk!.raw.endsWith(END) && Date.now() - since > 300;
    }, "a frame's end, then quiet");
    let before = milk.raw.length;
    milk.write('x');
    await milk.waitFor(
      () => milk!.composerLines().join('') === 'x' && frames(before).endsWith(END),
      "the keystroke's frame",
    );
    whole(frames(before));
    before = milk.raw.length;
    milk.proc.resize(100, 30);
    milk.term.resize(100, 30);
    await milk.waitFor(
      () => frames(before).includes('history: session') && frames(before).endsWith(END),
      'the repaint after the resize',
    );
    whole(frames(before));
  });

  it('draws with the light palette when the terminal answers OSC 11 with white, and /theme dark takes it back', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], background: 'rgb:ffff/ffff/ffff' });
    await milk.waitForText('history: session');
    // The status bar turns light grey (253) once the answer is in; dark grey (236) is the dark palette's.
    await milk.waitFor(() => statusBg() === 253, 'the light status bar');
    milk.write('/theme' + KEY.enter);
    await milk.waitForText("theme: auto · drawing for a light background · the terminal's: light");
    await closeThemes(milk);
    milk.write('/theme dark' + KEY.enter);
    await milk.waitFor(() => statusBg() === 236, 'the dark status bar');
  });

  it("follows the terminal's theme when it reports a change (mode 2031), unless a theme was chosen", async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], background: 'rgb:0000/0000/0000' });
    await milk.waitForText('history: session');
    expect(milk.raw).toContain('\x1b[?2031h');
    await milk.waitFor(() => statusBg() === 236, 'the dark status bar');
    // The terminal's theme turns light, then dark again: the palette follows, and nothing is typed.
    milk.write('\x1b[?997;2n');
    await milk.waitFor(() => statusBg() === 253, 'the light status bar');
    milk.write('\x1b[?997;1n');
    await milk.waitFor(() => statusBg() === 236, 'the dark status bar again');
    expect(milk.composerLines().join('')).toBe('');
    // Chosen, the theme stays.
    milk.write('/theme dark' + KEY.enter);
    await milk.waitForText('theme: dark');
    milk.write('\x1b[?997;2n');
    milk.write('/theme' + KEY.enter);
    await milk.waitForText("theme: dark · drawing for a dark background · the terminal's: light");
    expect(statusBg()).toBe(236);
    await closeThemes(milk);
    // Handed back at exit: the reports are turned off again.
    milk.write(KEY.ctrlD);
    await milk.exited;
    expect(milk.raw.slice(milk.raw.lastIndexOf('\x1b[?2031h'))).toContain('\x1b[?2031l');
  });

  it('keeps the dark palette when the terminal answers OSC 11 with black, and when it does not answer', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], background: 'rgb:0000/0000/0000' });
    await milk.waitForText('history: session');
    milk.write('/theme' + KEY.enter);
    await milk.waitForText("drawing for a dark background · the terminal's: dark");
    await closeThemes(milk);
    // An answer after the device attributes' (the question is over) is stray: it changes nothing, and types nothing.
    milk.write('\x1b]11;rgb:ffff/ffff/ffff\x1b\\');
    milk.write('/theme' + KEY.enter);
    await milk.waitForText("theme: auto · drawing for a dark background · the terminal's: dark");
    expect(milk.text()).not.toContain("the terminal's: light");
    await closeThemes(milk);
    expect(milk.composerLines().join('')).toBe('');
    milk.kill('SIGKILL');
    milk = new MilkPty({ args: ['--data-dir', tempDir()] });
    await milk.waitForText('history: session');
    expect(milk.raw).toContain('\x1b]11;?');
    milk.write('/theme' + KEY.enter);
    await milk.waitForText("drawing for a dark background · the terminal's: not known");
    // Nothing of a question the terminal did not answer reaches the composer.
    expect(milk.composerLines().join('')).toBe('');
  });

  it('stops with one line, before the screen, on a provider config.json names that milk does not know', async () => {
    const data = tempDir();
    fs.writeFileSync(`${data}/config.json`, JSON.stringify({ provider: 'opneai', history: { maxEntries: 3 } }));
    milk = new MilkPty({ args: ['--data-dir', data], cols: 160 });
    expect((await milk.exited).exitCode).toBe(2);
    const known = '(offline, openai, openai-responses, anthropic, openrouter, script)';
    // The terminal may take the last bytes in after the exit is seen.
    await milk.waitForText(`milk: config.json: provider: "opneai" is not a provider milk knows ${known}`);
    // Never the offline demo in its place.
    expect(milk.text()).not.toContain('history: session');
  });

  it('quits with Ctrl-D on an empty composer', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()] });
    await milk.waitForText('history: session');
    milk.write(KEY.ctrlD);
    const e = await milk.exited;
    expect(e.exitCode).toBe(0);
  });

  it('starts, answers keys and quits in a repository whose .git/HEAD is a FIFO (from an archive)', async () => {
    const ws = tempDir();
    fs.mkdirSync(`${ws}/.git`);
    execFileSync('mkfifo', [`${ws}/.git/HEAD`]);
    fs.mkdirSync(`${ws}/.milk/commands`, { recursive: true });
    execFileSync('mkfifo', [`${ws}/.milk/commands/fifo.md`]);
    milk = new MilkPty({ args: ['--data-dir', tempDir()], cwd: ws });
    // Trusted, its commands are read: the FIFO among them is skipped, never waited on.
    await trustWorkspace(milk);
    milk.write('still here');
    await milk.waitFor(() => milk!.composerLines().join('') === 'still here', 'keys answered');
    milk.write(KEY.ctrlA + KEY.ctrlK);
    await milk.waitFor(() => milk!.composerLines().join('') === '', 'composer emptied');
    milk.write(KEY.ctrlD);
    expect((await milk.exited).exitCode).toBe(0);
  });

  it('interrupts a running turn with Ctrl-C and stays alive', async () => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], env: { MILK_OFFLINE_DELAY_MS: '200' } });
    await milk.waitForText('history: session');
    milk.write('slow one' + KEY.enter);
    await milk.waitFor(() => milk!.statusLine().includes('working'), 'busy');
    milk.write(KEY.ctrlC);
    await milk.waitForText('[interrupted]');
    await milk.waitFor(() => !milk!.statusLine().includes('working'), 'idle again');
    milk.write('next');
    await milk.waitFor(() => milk!.composerLines()[0] === 'next', 'composer takes input');
  });

  it.each([
    ['SIGTERM', 143, {}],
    ['SIGINT', 130, {}],
    ['SIGHUP', 129, {}],
    ['an uncaught error', 1, { MILK_FAULT: 'keypress' }],
  ])('restores the terminal on %s and exits %i', async (signal, code, env) => {
    milk = new MilkPty({ args: ['--data-dir', tempDir()], reportTty: true, env });
    await milk.waitForText('history: session');
    const pid = Number(
      fs.readFileSync(`/proc/${milk.proc.pid}/task/${milk.proc.pid}/children`, 'utf8').trim().split(/\s+/)[0],
    );
    if (signal.startsWith('SIG')) process.kill(pid, signal);
    else milk.write('x');
    const out = await milk.waitFor(() => /EXIT=(\d+)[\s\S]*DONE/.exec(milk!.raw), 'exit report');
    expect(Number(out[1])).toBe(code);
    expect(milk.raw).toMatch(/ icanon /);
    expect(milk.term.buffer.active.type).toBe('normal');
    expect(milk.term.modes.bracketedPasteMode).toBe(false);
  });
});

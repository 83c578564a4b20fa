// Shift+Enter in every modern terminal, and pastes that come as keystrokes:
// milk asks which keyboard protocol the terminal speaks, turns it on, and
// gives it back on the way out; keys are typed as each protocol encodes them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';

jest.setTimeout(30000);

const KITTY_PUSH = '\x1b[>1u';
const KITTY_POP = '\x1b[<u';
const MOK_ON = '\x1b[>4;2m';
const MOK_OFF = '\x1b[>4;0m';

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

/** Types two lines joined by `newline`, checks nothing was sent, then quits with Ctrl-D twice (clear, quit). */
async function twoLines(newline: string): Promise<void> {
  m!.write('one');
  await m!.waitFor(() => m!.composerLines().join('') === 'one', 'typed');
  m!.write(newline);
  m!.write('two');
  await m!.waitFor(() => m!.composerLines().join('\n') === 'one\ntwo', 'a newline, nothing sent');
  expect(transcript()).not.toContain('one');
}

/** The screen above the composer. */
function transcript(): string {
  const lines = m!.lines();
  return lines
    .slice(
      0,
      lines.findIndex((l) => l.startsWith('┌')),
    )
    .join('\n');
}

async function quit(ctrlC: string, ctrlD: string): Promise<void> {
  m!.write(ctrlC);
  await m!.waitFor(() => m!.composerLines().join('') === '', 'cleared');
  m!.write(ctrlD);
  expect((await m!.exited).exitCode).toBe(0);
}

it(
  'a terminal speaking the kitty protocol: pushed at start, Shift+Enter inserts a newline, Ctrl keys as it encodes ' +
    'them, popped on the way out',
  async () => {
    m = new MilkPty({ args: ['--data-dir', tempDir()], kitty: true });
    await m.waitForText('history: session');
    await m.waitFor(() => m!.raw.includes(KITTY_PUSH), 'the flags pushed');
    expect(m.raw).not.toContain(MOK_ON);
    await twoLines('\x1b[13;2u');
    // Ctrl+R as kitty sends it opens a search; Esc as kitty sends it leaves it.
    m.write('\x1b[114;5u');
    await m.waitFor(() => m!.statusLine().includes('reverse-i-search'), 'search by kitty Ctrl+R');
    m.write('\x1b[27u');
    await m.waitFor(() => m!.statusLine().includes('history: session'), 'search left');
    await quit('\x1b[99;5u', '\x1b[100;5u');
    expect(m.raw.lastIndexOf(KITTY_POP)).toBeGreaterThan(m.raw.lastIndexOf(KITTY_PUSH));
  },
);

it(
  'a terminal with modifyOtherKeys but not kitty: level 2 asked for, Shift+Enter as it encodes it inserts a ' +
    'newline, reset on the way out',
  async () => {
    // xterm.js answers the device attributes query, not kitty's.
    m = new MilkPty({ args: ['--data-dir', tempDir()] });
    await m.waitForText('history: session');
    await m.waitFor(() => m!.raw.includes(MOK_ON), 'modifyOtherKeys asked for');
    expect(m.raw).not.toContain(KITTY_PUSH);
    await twoLines('\x1b[27;2;13~');
    await quit('\x1b[27;5;99~', '\x1b[27;5;100~');
    expect(m.raw.lastIndexOf(MOK_OFF)).toBeGreaterThan(m.raw.lastIndexOf(MOK_ON));
  },
);

it(
  'a terminal that speaks neither: nothing turned on; Alt+Enter, Ctrl+J and a trailing backslash still insert ' +
    'newlines',
  async () => {
    m = new MilkPty({ args: ['--data-dir', tempDir()], answerQueries: false });
    await m.waitForText('history: session');
    await twoLines(KEY.altEnter);
    m.write(KEY.ctrlJ + 'three \\');
    await m.waitFor(() => m!.composerLines().join('\n') === 'one\ntwo\nthree \\', 'Ctrl+J');
    m.write(KEY.enter);
    await m.waitFor(() => m!.composerLines().join('\n') === 'one\ntwo\nthree\n', 'the backslash continues the line');
    expect(m.raw).not.toContain(KITTY_PUSH);
    expect(m.raw).not.toContain(MOK_ON);
  },
);

it('the keyboard mode is given back on Ctrl-Z and taken again on fg', async () => {
  m = new MilkPty({ args: ['--data-dir', tempDir()], kitty: true });
  await m.waitFor(() => m!.raw.includes(KITTY_PUSH), 'the flags pushed');
  await m.waitForText('history: session');
  const pid = m.proc.pid;
  const state = () => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];
  const before = m.raw.length;
  m.write('\x1b[122;5u');
  await m.waitFor(() => state() === 'T' && m!.raw.slice(before).includes('\x1b[?1049l'), 'stopped');
  expect(m.raw.slice(before)).toContain(KITTY_POP);
  const stopped = m.raw.length;
  process.kill(pid, 'SIGCONT');
  await m.waitFor(() => m!.raw.slice(stopped).includes(KITTY_PUSH), 'pushed again');
  m.write('\x1b[13;2u');
  m.write('x');
  await m.waitFor(() => m!.composerLines().join('\n') === '\nx', 'Shift+Enter after fg');
});

it('the keyboard mode is given back on a crash', async () => {
  m = new MilkPty({ args: ['--data-dir', tempDir()], kitty: true, reportTty: true, env: { MILK_FAULT: 'keypress' } });
  await m.waitFor(() => m!.raw.includes(KITTY_PUSH), 'the flags pushed');
  m.write('x');
  await m.waitFor(() => m!.raw.includes('DONE'), 'milk crashed and the shell reported');
  const pushed = m.raw.lastIndexOf(KITTY_PUSH);
  expect(m.raw.indexOf(KITTY_POP, pushed)).toBeGreaterThan(pushed);
});

describe('pastes that arrive as keystrokes (no bracketed paste)', () => {
  const server = useMockServer();

  it('200 fast keystrokes with newlines send nothing and land as one paste; a typed Enter after a pause sends it whole', async () => {
    const data = tempDir();
    const mock = server.current;
    m = new MilkPty({
      args: ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'echo'],
    });
    await m.waitForText('history: session');
    const lines = Array.from({ length: 12 }, (_, i) => `pasted line ${i} ${'x'.repeat(6)}`);
    const keys = lines.join('\r');
    expect(keys.length).toBeGreaterThanOrEqual(200);
    // One write per keystroke, as a typing tool or a terminal without bracketed paste sends them.
    for (const ch of keys) m.write(ch);
    // However the reads fell, the lines after the first Enter are one paste, shown collapsed.
    await m.waitFor(() => /\[pasted \d+ lines\]$/.test(m!.composerLines().join('')), 'held and inserted as a paste');
    expect(mock.requests.length).toBe(0);
    // The burst has ended (the paste is in): this Enter is typed.
    m.write(KEY.enter);
    await m.waitFor(() => mock.requests.length === 1, 'sent once');
    const sent = JSON.stringify(mock.requests[0].body);
    expect(sent).toContain(JSON.stringify(lines.join('\n')).slice(1, -1));
    // Into history once, as one input.
    const file = path.join(data, 'input_history');
    await m.waitFor(
      () => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('pasted line 11'),
      'in history',
    );
    expect(
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.includes('pasted line 11')).length,
    ).toBe(1);
  });
});

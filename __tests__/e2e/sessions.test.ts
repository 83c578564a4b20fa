// Sessions as a person uses them, in a real pty: quit and --continue, a
// kill mid-answer, the resume picker, `milk sessions`, a damaged log.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, KEY, MilkPty, tempDir } from '../helpers/pty';
import { sessionIdForWorkspace } from '../../src/config/paths';

jest.setTimeout(40000);

const open: MilkPty[] = [];
afterEach(() => {
  for (const p of open.splice(0)) p.kill('SIGKILL');
});

async function start(
  data: string,
  cwd: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<MilkPty> {
  const p = new MilkPty({ args: ['--data-dir', data, ...args], cwd, env });
  open.push(p);
  // The picker holds the status bar until a conversation is chosen.
  await p.waitForText(/history: session|Resume a conversation/);
  return p;
}

const idle = (p: MilkPty) => p.waitFor(() => !p.statusLine().includes('working'), 'idle');

/** Sends an input and waits for the whole offline answer (its last words), then for idle. */
async function ask(p: MilkPty, text: string): Promise<void> {
  p.write(text + KEY.enter);
  await p.waitForText(`You wrote one line: "${text}"`);
  await p.waitFor(() => p.text().split(`"${text}"`).pop()!.includes('--model NAME.'), 'the whole answer');
  await idle(p);
}
/** The folder of a workspace's conversation logs, and the files in it. */
const logDir = (data: string, cwd: string) => path.join(data, 'sessions', sessionIdForWorkspace(cwd));
const logFiles = (data: string, cwd: string) =>
  fs.existsSync(logDir(data, cwd))
    ? fs
        .readdirSync(logDir(data, cwd))
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => path.join(logDir(data, cwd), f))
    : [];
/** The log of a workspace's one conversation. */
const logOf = (data: string, cwd: string) => logFiles(data, cwd)[0] ?? path.join(logDir(data, cwd), 'none.jsonl');
const inputsIn = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.t === 'user')
    .map((e) => e.segments.map((s: { text: string }) => s.text).join(''));

async function quit(p: MilkPty): Promise<void> {
  p.write(KEY.ctrlD);
  const gone = await Promise.race([
    p.exited.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 5000)),
  ]);
  if (!gone) throw new Error(`milk did not quit on Ctrl-D; screen:\n${p.text()}`);
}

describe('coming back to a conversation', () => {
  it('shows the last conversation after quitting and --continue, and the model gets it', async () => {
    const data = tempDir();
    const cwd = tempDir();
    let p = await start(data, cwd);
    await ask(p, 'what is milk');
    await quit(p);
    p = await start(data, cwd, ['--continue']);
    await p.waitForText('› what is milk');
    await p.waitForText(/resumed · \d{4}-\d\d-\d\d \d\d:\d\d/);
    expect(p.text()).toContain('You wrote one line: "what is milk"');
    p.write('and again' + KEY.enter);
    // The offline agent counts the turns it was given: the earlier one came back.
    await p.waitForText('(offline demo, turn 2)');
  });

  it('says on quitting how to come back (the id, milk -c, milk --resume ID) and the tokens spent; --resume ID does', async () => {
    const data = tempDir();
    const cwd = tempDir();
    let p = await start(data, cwd);
    // Quitting with nothing said leaves no line: there is nothing to come back to.
    p.write(KEY.ctrlD);
    await p.exited;
    expect(p.raw).not.toContain('to come back');
    p = await start(data, cwd);
    await ask(p, 'remember me');
    const before = p.raw.length;
    p.write(KEY.ctrlD);
    expect((await p.exited).exitCode).toBe(0);
    const id = path.basename(logOf(data, cwd), '.jsonl');
    const after = p.raw.slice(before);
    // After the screen is left, in the terminal's own lines.
    expect(after.lastIndexOf('\x1b[?1049l')).toBeLessThan(after.indexOf('milk: to come back'));
    // This milk is not on PATH here: the line names the one that works (come-back.test.ts runs it from a shell).
    expect(after).toContain(`-c, or node ${fs.realpathSync(CLI)} --data-dir ${data} --resume ${id}`);
    p = await start(data, cwd, ['--resume', id]);
    await p.waitForText('› remember me');
  });

  it("--session NAME with --continue comes back to that session's conversation, from any directory", async () => {
    const data = tempDir();
    let p = await start(data, tempDir(), ['--session', 'work']);
    await ask(p, 'named session question');
    await quit(p);
    p = await start(data, tempDir(), ['--session', 'other']);
    await ask(p, 'a different session');
    await quit(p);
    // Another directory, the first name: its conversation, not the other one's.
    p = await start(data, tempDir(), ['--session', 'work', '--continue']);
    await p.waitForText('› named session question');
    expect(p.text()).not.toContain('a different session');
    expect(fs.readdirSync(path.join(data, 'sessions', 'work')).filter((f) => f.endsWith('.jsonl'))).toHaveLength(1);
  });

  it('keeps the partial answer of a milk killed mid-stream, marked interrupted', async () => {
    const data = tempDir();
    const cwd = tempDir();
    let p = await start(data, cwd, [], { MILK_OFFLINE_DELAY_MS: '60' });
    p.write('tell me slowly' + KEY.enter);
    await p.waitForText('You wrote');
    // The answer reaches the log at least once a second while it streams.
    await p.waitFor(
      () => fs.existsSync(logOf(data, cwd)) && fs.readFileSync(logOf(data, cwd), 'utf8').includes('"t":"delta"'),
      'a chunk in the log',
      5000,
    );
    p.kill('SIGKILL');
    await p.exited;
    p = await start(data, cwd, ['-c']);
    await p.waitForText('› tell me slowly');
    await p.waitForText('[interrupted]');
    expect(p.text()).toContain('(offline demo, turn 1)');
    expect(p.text().indexOf('(offline demo')).toBeLessThan(p.text().indexOf('[interrupted]'));
  });

  it('--resume picks the older of two conversations', async () => {
    const data = tempDir();
    const cwd = tempDir();
    let p = await start(data, cwd);
    await ask(p, 'alpha question');
    p.write('/new' + KEY.enter);
    // The note alone on its line (the slash menu's row for /new says "a new conversation" too).
    await p.waitForText(/^ +new conversation *$/m);
    await ask(p, 'beta question');
    await quit(p);
    p = await start(data, cwd, ['--resume']);
    await p.waitForText('Resume a conversation');
    await p.waitFor(
      () => /› .*beta question/.test(p.text()) && p.text().includes('alpha question'),
      'both, newest selected',
    );
    // Each row names its conversation's id, which --resume ID takes.
    const ids = fs
      .readdirSync(path.join(data, 'sessions'))
      .filter((f) => !f.endsWith('.history'))
      .flatMap((d) => fs.readdirSync(path.join(data, 'sessions', d)))
      .map((f) => f.replace(/\.jsonl$/, ''));
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(p.text()).toContain(`  ${id}  `);
    p.write(KEY.down + KEY.enter);
    await p.waitForText('› alpha question');
    await p.waitForText('resumed ·');
    expect(p.text()).not.toContain('beta question');
  });

  it('Esc in the picker starts a new conversation; /session names the files', async () => {
    const data = tempDir();
    const cwd = tempDir();
    let p = await start(data, cwd);
    await ask(p, 'something');
    await quit(p);
    p = await start(data, cwd, ['-r']);
    await p.waitForText('Resume a conversation');
    p.write(KEY.esc);
    await p.waitForText('new conversation');
    p.write('/session' + KEY.enter);
    await p.waitForText(`session ${sessionIdForWorkspace(cwd)}`);
    expect(p.text().replace(/\s+/g, '')).toContain(logDir(data, cwd).replace(/\s+/g, ''));
  });

  it('resumes a log with garbage lines, with a warning', async () => {
    const data = tempDir();
    const cwd = tempDir();
    let p = await start(data, cwd);
    await ask(p, 'before the damage');
    await quit(p);
    const mystery = '{"t":"mystery","conv":"x"}';
    fs.appendFileSync(logOf(data, cwd), `garbage that is not json\n${mystery}\n`);
    p = await start(data, cwd, ['--continue']);
    await p.waitForText('› before the damage');
    await p.waitFor(
      () => p.text().replace(/\s+/g, ' ').includes('conversation log damaged (1 unreadable line); kept'),
      'warning',
    );
    // The repaired log lost the garbage and kept the newer milk's event, line for line.
    const lines = fs.readFileSync(logOf(data, cwd), 'utf8').split('\n');
    expect(lines).toContain(mystery);
    expect(lines).not.toContain('garbage that is not json');
  });

  it(
    'an older milk keeps what a newer one wrote: events and history entries of unknown types stay in the files, ' +
      'skipped',
    async () => {
      const data = tempDir();
      const cwd = tempDir();
      let p = await start(data, cwd);
      await ask(p, 'first question');
      await quit(p);
      const log = logOf(data, cwd);
      const conv = path.basename(log, '.jsonl');
      // What a newer milk might write: an event type and a segment type this one has never heard of.
      const event = JSON.stringify({ t: 'image', conv, ts: new Date().toISOString(), path: 'shot.png' });
      fs.appendFileSync(log, event + '\n');
      const hist = path.join(data, 'sessions', `${sessionIdForWorkspace(cwd)}.history`);
      const entry = JSON.stringify({
        ts: new Date().toISOString(),
        segments: [{ type: 'audio', data: 'iVBORw0KGgo=' }],
      });
      fs.appendFileSync(hist, entry + '\n');
      const before = fs
        .readdirSync(path.dirname(log))
        .concat(fs.readdirSync(path.dirname(hist)))
        .sort();

      p = await start(data, cwd, ['--continue']);
      await p.waitForText('› first question');
      await p.waitFor(
        () =>
          p
            .text()
            .replace(/\s+/g, ' ')
            .includes('conversation log holds events a newer milk wrote: kept in the file, skipped here'),
        'the note',
      );
      // Up recalls the last input this milk can show, not the newer kind.
      p.write(KEY.up);
      await p.waitFor(() => p.composerLines().join(' ').includes('first question'), 'Up recalls the known entry');
      p.write(KEY.ctrlC);
      await ask(p, 'second question');
      await quit(p);

      // Nothing was taken for damage: no copy aside, and both lines are where they were.
      expect(
        fs
          .readdirSync(path.dirname(log))
          .concat(fs.readdirSync(path.dirname(hist)))
          .sort(),
      ).toEqual(before);
      expect(fs.readFileSync(log, 'utf8').split('\n')).toContain(event);
      expect(fs.readFileSync(hist, 'utf8').split('\n')).toContain(entry);
      expect(inputsIn(log)).toEqual(['first question', 'second question']);
    },
  );
});

describe('two milks on one conversation', () => {
  it('the second to --continue it goes on in a copy, says so, and neither garbles the other', async () => {
    const data = tempDir();
    const cwd = tempDir();
    const a = await start(data, cwd);
    await ask(a, 'the first question');
    const b = await start(data, cwd, ['--continue']);
    await b.waitForText('› the first question');
    await b.waitFor(
      () => /is open in another milk \(pid \d+\); this one goes on in a copy of it/.test(b.text().replace(/\s+/g, ' ')),
      'the branch warning',
    );
    await ask(b, 'asked in b');
    await ask(a, 'asked in a');
    await quit(b);
    await quit(a);
    const inputs = logFiles(data, cwd).map(inputsIn).sort();
    expect(inputs).toEqual([
      ['the first question', 'asked in a'],
      ['the first question', 'asked in b'],
    ]);
  });
});

describe('milk sessions', () => {
  it('lists the sessions of two directories, newest first, as JSON', async () => {
    const data = tempDir();
    const cwds = [tempDir(), tempDir()];
    for (const cwd of cwds) {
      const p = await start(data, cwd);
      await ask(p, `hello from ${path.basename(cwd)}`);
      await quit(p);
    }
    const r = spawnSync(process.execPath, [CLI, 'sessions', '--json', '--data-dir', data], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((x) => x.workspace).sort()).toEqual([...cwds].sort());
    expect(rows.map((x) => x.id).sort()).toEqual(cwds.map(sessionIdForWorkspace).sort());
    for (const row of rows) expect(row).toMatchObject({ conversations: 1, historyEntries: 1 });
    const shown = spawnSync(process.execPath, [CLI, 'sessions', 'show', rows[0].id, '--data-dir', data], {
      encoding: 'utf8',
    });
    expect(shown.stdout).toMatch(/> hello from /);
    const rm = spawnSync(process.execPath, [CLI, 'sessions', 'rm', rows[0].id, '--yes', '--data-dir', data], {
      encoding: 'utf8',
    });
    expect(rm.stdout).toContain(`removed session ${rows[0].id}`);
    const after = spawnSync(process.execPath, [CLI, 'sessions', '--json', '--data-dir', data], { encoding: 'utf8' });
    expect(after.stdout.trim().split('\n')).toHaveLength(1);
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { parseHistory } from '../../src/history/format';
import { sessionIdForWorkspace } from '../../src/config/paths';

jest.setTimeout(40000);

const texts = (file: string) =>
  parseHistory(fs.readFileSync(file)).entries.map((e) => e.segments.map((s) => s.text).join(''));
const sessionFile = (data: string, cwd: string) => path.join(data, 'sessions', `${sessionIdForWorkspace(cwd)}.history`);

async function open(
  data: string,
  cwd: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<MilkPty> {
  const m = new MilkPty({ args: ['--data-dir', data, ...args], cwd, env });
  await m.waitForText('history: ');
  return m;
}

async function submit(m: MilkPty, text: string): Promise<void> {
  m.write(text);
  await m.waitFor(() => m.composerLines().join('\n') === text, `composer holds ${text}`);
  m.write(KEY.enter);
  await m.waitFor(() => m.composerLines().join('') === '' && !m.statusLine().includes('working'), 'turn over');
}

/** Ctrl-C clears a non-empty composer, then Ctrl-D on the empty one quits. */
async function quit(m: MilkPty): Promise<void> {
  await m.waitFor(() => !m.statusLine().includes('working'), 'idle before quitting');
  if (m.composerLines().join('') !== '') {
    m.write(KEY.ctrlC);
    await m.waitFor(() => m.composerLines().join('') === '', 'composer cleared');
  }
  m.write(KEY.ctrlD);
  await m.exited;
}

const composer = (m: MilkPty) => m.composerLines().join('\n');

describe('input history across restarts', () => {
  const running: MilkPty[] = [];
  afterEach(() => running.splice(0).forEach((m) => m.kill('SIGKILL')));
  const track = (m: MilkPty) => (running.push(m), m);

  it('recalls inputs newest first after a restart, per directory, per session, and globally on request', async () => {
    const data = tempDir();
    const dirA = tempDir();
    const dirB = tempDir();

    let m = track(await open(data, dirA));
    await submit(m, 'alpha');
    await submit(m, 'beta\nsecond line');
    await quit(m);

    m = track(await open(data, dirA));
    m.write('my draft');
    m.write(KEY.up);
    await m.waitFor(() => composer(m) === 'beta\nsecond line', 'newest first');
    m.write(KEY.up);
    await m.waitFor(() => composer(m) === 'alpha', 'then older');
    m.write(KEY.down + KEY.down);
    await m.waitFor(() => composer(m) === 'my draft', 'draft restored');
    expect(m.text()).not.toContain('›');
    await quit(m);

    // Another directory: a different session, nothing of the first.
    m = track(await open(data, dirB));
    m.write(KEY.up);
    m.write('x');
    await m.waitFor(() => composer(m) === 'x', 'typing works');
    m.write(KEY.ctrlC);
    await m.waitFor(() => composer(m) === '', 'cleared');
    m.write(KEY.ctrlC + KEY.ctrlC);
    await m.exited;

    // A named session in the same directory is separate too.
    m = track(await open(data, dirA, ['--session', 'named-1']));
    expect(m.statusLine()).toContain('named-1');
    m.write(KEY.up + 'y');
    await m.waitFor(() => composer(m) === 'y', 'empty named session');
    m.write(KEY.ctrlC);
    await submit(m, 'in named');
    await quit(m);
    m = track(await open(data, dirB, ['--session', 'named-1']));
    m.write(KEY.up);
    await m.waitFor(() => composer(m) === 'in named', 'named session follows its name, not the directory');
    m.write(KEY.ctrlC);
    await m.waitFor(() => composer(m) === '', 'cleared');

    // /history global reaches the other directory's inputs.
    await submit(m, '/history global');
    await m.waitFor(
      () => /history: global .*session 2 entries · global 4 entries/.test(m.lines().join(' ').replace(/\s+/g, ' ')),
      '/history note',
    );
    expect(m.statusLine()).toContain('history: global');
    m.write(KEY.up);
    await m.waitFor(() => composer(m) === '/history global', 'newest global entry');
    m.write(KEY.up + KEY.up);
    await m.waitFor(() => composer(m) === 'beta\nsecond line', 'another directory, via global');
    await quit(m);

    // Nothing in the workspaces; private files.
    expect(fs.readdirSync(dirA)).toEqual([]);
    expect(fs.readdirSync(dirB)).toEqual([]);
    const sfile = sessionFile(data, dirA);
    expect(texts(sfile)).toEqual(['alpha', 'beta\nsecond line']);
    for (const f of [sfile, path.join(data, 'input_history'), path.join(data, 'sessions', 'named-1.history')]) {
      expect(fs.statSync(f).mode & 0o777).toBe(0o600);
    }
    expect(fs.statSync(path.join(data, 'sessions')).mode & 0o777).toBe(0o700);
    const header = JSON.parse(fs.readFileSync(sfile, 'utf8').split('\n')[0]);
    expect(header).toMatchObject({
      format: 'milk-history',
      version: 1,
      scope: 'session',
      sessionId: sessionIdForWorkspace(dirA),
      workspace: dirA,
    });
  });

  it('finds the same session through a symlink, and recalls a paste as a paste', async () => {
    const data = tempDir();
    const real = tempDir();
    const link = path.join(tempDir(), 'link');
    fs.symlinkSync(real, link);
    let m = track(await open(data, real));
    const big = Array.from({ length: 30 }, (_, i) => `row ${i}`).join('\n');
    m.write('look: ' + KEY.paste(big));
    await m.waitFor(() => composer(m) === 'look: [pasted 30 lines]', 'collapsed');
    m.write(KEY.enter);
    await m.waitFor(() => !m.statusLine().includes('working') && composer(m) === '', 'turn over');
    await quit(m);
    m = track(await open(data, link));
    m.write(KEY.up);
    await m.waitFor(() => composer(m) === 'look: [pasted 30 lines]', 'paste segment recalled through the symlink');
    m.write(KEY.enter);
    await m.waitForText('You wrote 30 lines');
    await quit(m);
    const entries = parseHistory(fs.readFileSync(sessionFile(data, real))).entries;
    expect(entries).toHaveLength(1);
    expect(entries[0].segments).toEqual([
      { type: 'text', text: 'look: ' },
      { type: 'paste', text: big },
    ]);
  });

  it(
    "two milks in one workspace lose nothing of each other, and each one's Up reaches the other's inputs without a " +
      'restart',
    async () => {
      const data = tempDir();
      const cwd = tempDir();
      const a = track(await open(data, cwd));
      const b = track(await open(data, cwd));
      await submit(a, 'from a');
      await submit(b, 'from b');
      await submit(a, 'a again');
      a.write(KEY.up);
      await a.waitFor(() => composer(a) === 'a again', "a's newest");
      a.write(KEY.up);
      await a.waitFor(() => composer(a) === 'from b', "b's entry, read when browsing began");
      a.write(KEY.up);
      await a.waitFor(() => composer(a) === 'from a', 'then the oldest');
      b.write(KEY.up);
      await b.waitFor(() => composer(b) === 'a again', "a's latest, in b");
      a.write(KEY.down + KEY.down + KEY.down);
      await a.waitFor(() => composer(a) === '', 'a back to its draft');
      // While b browses, a new entry from a does not move b's list under it.
      await submit(a, 'while b browses');
      b.write(KEY.up);
      await b.waitFor(() => composer(b) === 'from b', 'b steps on through the list it had');
      b.write(KEY.down + KEY.down);
      await b.waitFor(() => composer(b) === '', 'back to the draft');
      b.write(KEY.ctrlR + 'while');
      await b.waitFor(() => composer(b) === 'while b browses', 'a search started later finds it');
      b.write(KEY.esc);
      await b.waitFor(() => composer(b) === '', 'search left, draft back');
      await quit(a);
      await quit(b);
      expect(texts(sessionFile(data, cwd))).toEqual(['from a', 'from b', 'a again', 'while b browses']);
    },
  );

  it('keeps history in memory when another process holds the lock, and exits promptly', async () => {
    const data = tempDir();
    const cwd = tempDir();
    const m = track(await open(data, cwd));
    // A live process (this one) holds both locks, freshly.
    const locks = [sessionFile(data, cwd) + '.lock', path.join(data, 'input_history.lock')];
    for (const l of locks) fs.writeFileSync(l, `${process.pid} now\n`);
    await submit(m, 'while locked');
    await m.waitFor(
      () =>
        m
          .lines()
          .join(' ')
          .replace(/\s+/g, ' ')
          .includes('session history not saved (locked by another milk process); kept in memory'),
      'lock warning',
    );
    m.write(KEY.up);
    await m.waitFor(() => composer(m) === 'while locked', 'recalled from memory');
    m.write(KEY.ctrlC);
    await m.waitFor(() => composer(m) === '', 'cleared');
    const t = Date.now();
    m.write(KEY.ctrlD);
    await m.exited;
    // The exit flush shares one ~180 ms budget for both held locks.
    expect(Date.now() - t).toBeLessThan(1500);
    for (const l of locks) fs.rmSync(l);
    expect(fs.existsSync(sessionFile(data, cwd))).toBe(false);
  });

  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'])(
    'flushes what a held lock kept in memory when it gets %s',
    async (signal) => {
      const data = tempDir();
      const cwd = tempDir();
      const m = track(await open(data, cwd));
      const locks = [sessionFile(data, cwd) + '.lock', path.join(data, 'input_history.lock')];
      for (const l of locks) fs.writeFileSync(l, `${process.pid} now\n`);
      await submit(m, 'kept for the flush');
      await m.waitFor(() => m.text().includes('kept in'), 'lock warning');
      for (const l of locks) fs.rmSync(l);
      process.kill(m.proc.pid, signal);
      await m.exited;
      expect(texts(sessionFile(data, cwd))).toEqual(['kept for the flush']);
      expect(texts(path.join(data, 'input_history'))).toEqual(['kept for the flush']);
    },
  );

  it('writes the entry before the turn starts', async () => {
    const data = tempDir();
    const cwd = tempDir();
    const m = track(await open(data, cwd, [], { MILK_OFFLINE_DELAY_MS: '300' }));
    m.write('durable now' + KEY.enter);
    await m.waitFor(() => m.statusLine().includes('working'), 'busy');
    expect(texts(sessionFile(data, cwd))).toEqual(['durable now']);
    expect(texts(path.join(data, 'input_history'))).toEqual(['durable now']);
    // Killed hard mid-turn: still there.
    m.kill('SIGKILL');
    await m.exited;
    expect(texts(sessionFile(data, cwd))).toEqual(['durable now']);
  });

  it('moves through a multi-line draft before browsing, and keeps what Ctrl-C cleared one Up away', async () => {
    const data = tempDir();
    const cwd = tempDir();
    const m = track(await open(data, cwd));
    await submit(m, 'older');
    m.write('line one' + KEY.ctrlJ + 'line two');
    await m.waitFor(() => composer(m) === 'line one\nline two', 'two lines');
    const top = m.lines().findIndex((l) => l.startsWith('┌'));
    m.write(KEY.up);
    await m.waitFor(() => m.cursor().y === top + 1, 'cursor up a line, no browsing');
    expect(composer(m)).toBe('line one\nline two');
    m.write(KEY.up);
    await m.waitFor(() => composer(m) === 'older', 'browses from the first line');
    m.write(KEY.down);
    await m.waitFor(() => composer(m) === 'line one\nline two', 'draft back');
    m.write(KEY.ctrlC);
    await m.waitFor(() => composer(m) === '', 'cleared');
    m.write(KEY.up);
    await m.waitFor(() => composer(m) === 'line one\nline two', 'cleared text recalled');
    // Ctrl+Up browses even mid-text.
    m.write(KEY.ctrlUp);
    await m.waitFor(() => composer(m) === 'older', 'Ctrl+Up');
    await quit(m);
    // The cleared draft never reached the disk.
    expect(texts(sessionFile(data, cwd))).toEqual(['older']);
  });

  it('keeps space-led and secret-looking inputs out of history, and says so for each one', async () => {
    const data = tempDir();
    const cwd = tempDir();
    const m = track(await open(data, cwd));
    const token = 'ghp_' + 'Z9'.repeat(18);
    await submit(m, `deploy with ${token}`);
    await m.waitForText('not saved to history');
    expect(m.text()).toContain('GitHub token');
    await submit(m, `export KEY=sk-${'q'.repeat(30)}`);
    await m.waitFor(
      () => m.text().includes('input looks like a secret (API key): not saved to history'),
      'the second withheld input said so too',
    );
    await submit(m, ' private thought');
    await submit(m, 'kept');
    await quit(m);
    expect(texts(sessionFile(data, cwd))).toEqual(['kept']);
    expect(fs.readFileSync(path.join(data, 'input_history'), 'utf8')).not.toContain(token);
  });
});

describe('damaged history files', () => {
  const header = JSON.stringify({
    format: 'milk-history',
    version: 1,
    scope: 'session',
    sessionId: 'x',
    workspace: '/x',
    displayName: 'x',
  });
  const good = (t: string) => JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', segments: [{ type: 'text', text: t }] });
  const SECRET = 'CONTENT-MUST-NOT-SHOW';
  const cases: Array<[string, (file: string) => void]> = [
    [
      'an unparseable line',
      (f) => fs.writeFileSync(f, `${header}\n${good('good one')}\n{"${SECRET}\n${good('good two')}\n`),
    ],
    ['NUL bytes', (f) => fs.writeFileSync(f, `${header}\n${good('good one')}\n\0\0${SECRET}\0\n${good('good two')}\n`)],
    [
      'a torn last line',
      (f) => fs.writeFileSync(f, `${header}\n${good('good one')}\n${good('good two')}\n{"ts":"${SECRET}`),
    ],
    ['a missing header', (f) => fs.writeFileSync(f, `${good('good one')}\n${good('good two')}\n["${SECRET}"]\n`)],
    [
      'a foreign header',
      (f) => fs.writeFileSync(f, `{"format":"${SECRET}"}\n${good('good one')}\n${good('good two')}\n`),
    ],
    [
      'invalid UTF-8',
      (f) =>
        fs.writeFileSync(
          f,
          Buffer.concat([
            Buffer.from(`${header}\n${good('good one')}\n`),
            Buffer.from([0xc3, 0x28, 0xff]),
            Buffer.from(`${SECRET}\n${good('good two')}\n`),
          ]),
        ),
    ],
  ];

  const running: MilkPty[] = [];
  afterEach(() => running.splice(0).forEach((m) => m.kill('SIGKILL')));

  it.each(cases)(
    'starts with %s, keeps the good entries, saves the original aside, shows none of it',
    async (_name, write) => {
      const data = tempDir();
      const cwd = tempDir();
      const file = sessionFile(data, cwd);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      write(file);
      const original = fs.readFileSync(file);
      const m = new MilkPty({ args: ['--data-dir', data], cwd });
      running.push(m);
      await m.waitForText('session history damaged');
      expect(m.text()).not.toContain(SECRET);
      m.write(KEY.up);
      await m.waitFor(() => m.composerLines().join('') === 'good two', 'newest good entry');
      m.write(KEY.up);
      await m.waitFor(() => m.composerLines().join('') === 'good one', 'older good entry');
      m.write(KEY.ctrlC);
      await submit(m, 'after repair');
      await quit(m);
      expect(m.raw).not.toContain(SECRET);
      const asides = fs.readdirSync(path.dirname(file)).filter((n) => n.includes('.corrupt-'));
      expect(asides).toHaveLength(1);
      expect(fs.readFileSync(path.join(path.dirname(file), asides[0]))).toEqual(original);
      expect(texts(file)).toEqual(['good one', 'good two', 'after repair']);
    },
  );

  it('starts when the history file is a directory', async () => {
    const data = tempDir();
    const cwd = tempDir();
    const file = sessionFile(data, cwd);
    fs.mkdirSync(path.join(file, SECRET), { recursive: true });
    const m = new MilkPty({ args: ['--data-dir', data], cwd });
    running.push(m);
    await m.waitForText('was a directory');
    expect(m.text()).not.toContain(SECRET);
    await submit(m, 'works anyway');
    await quit(m);
    expect(texts(file)).toEqual(['works anyway']);
    expect(fs.readdirSync(path.dirname(file)).some((n) => n.includes('.corrupt-'))).toBe(true);
  });
});

// What a shell command did, undone from the full screen (real git, the mock server's model running the command the
// person types): /undo puts the last turn's files back after asking with their names; Esc Esc's rewind does for an
// earlier turn; /diff shows what changed since the conversation began; the person's .git is untouched; nothing of
// milk's outlives it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir, usePty } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';

jest.setTimeout(40000);

const server = useMockServer();
const pty = usePty();

function repository(): string {
  const ws = fs.realpathSync(tempDir('milk-undo-'));
  fs.writeFileSync(path.join(ws, 'a.txt'), 'one\n');
  fs.writeFileSync(path.join(ws, 'b.txt'), 'bee\n');
  execFileSync('git', ['init', '-q'], { cwd: ws });
  return ws;
}

const read = (ws: string, f: string): string | null =>
  fs.existsSync(path.join(ws, f)) ? fs.readFileSync(path.join(ws, f), 'utf8') : null;

async function started(ws: string, dataDir = tempDir(), cols = 120): Promise<MilkPty> {
  const args = ['--data-dir', dataDir, '--provider', 'openai', '--base-url', `${server.current.url}/v1`];
  const m = pty.start({
    args: [...args, '--model', 'run', '--approval', 'full-auto', '--sandbox', 'off'],
    cwd: ws,
    cols,
  });
  await m.waitForText('history: session');
  return m;
}

async function ran(p: MilkPty, command: string): Promise<void> {
  p.write(command + KEY.enter);
  await p.waitForText(`ran: ${command}`);
  await p.waitFor(() => !p.statusLine().includes('working'), 'idle');
}

it('/undo puts back what the last command edited, made and deleted, after naming the files', async () => {
  const ws = repository();
  const gitHead = read(ws, '.git/HEAD');
  const p = await started(ws);
  await ran(p, 'sed -i s/one/ONE/ a.txt && echo new > c.txt && rm b.txt');
  expect(read(ws, 'a.txt')).toBe('ONE\n');
  expect(read(ws, 'b.txt')).toBeNull();
  p.write('/undo' + KEY.enter);
  await p.waitFor(
    () => p.statusLine().includes("undo the last turn's changes to 3 files (a.txt, b.txt, c.txt)?"),
    'the question naming the files',
  );
  p.write('y');
  await p.waitForText(/put back: .*a\.txt/);
  expect(read(ws, 'a.txt')).toBe('one\n');
  expect(read(ws, 'b.txt')).toBe('bee\n');
  expect(read(ws, 'c.txt')).toBeNull();
  expect(read(ws, '.git/HEAD')).toBe(gitHead);
  // The conversation stays: the answer is still on screen.
  expect(p.text()).toContain('ran: sed -i');
  p.write('/undo' + KEY.enter);
  await p.waitForText("nothing to undo: the last turn's changes are undone already");
});

it('/undo after a command that changed nothing says that, not that it was undone', async () => {
  const ws = repository();
  const p = await started(ws);
  await ran(p, 'cat a.txt');
  p.write('/undo' + KEY.enter);
  await p.waitForText('nothing to undo: nothing changed in the last turn');
});

it('Esc Esc rewinds to an earlier input and puts back the files commands changed since; /diff shows them first', async () => {
  const ws = repository();
  const p = await started(ws);
  await ran(p, 'echo made > new.txt');
  await ran(p, 'rm a.txt');
  p.write('/diff' + KEY.enter);
  await p.waitForText('changes in the workspace since the conversation began');
  await p.waitForText('+++ b/new.txt');
  await p.waitForText('--- a/a.txt');
  p.write('q');
  await p.waitFor(() => p.statusLine().includes('history: session'), 'the diff closed');
  p.write(KEY.esc);
  await p.waitFor(() => p.statusLine().includes('again to rewind'), 'the hint');
  p.write(KEY.esc);
  await p.waitForText('Rewind to before an input');
  // Newest first: up once to the first input.
  p.write(KEY.down);
  await p.waitFor(() => p.lines().some((l) => l.includes('› #1')), 'the first input selected');
  p.write(KEY.enter);
  await p.waitFor(
    () => p.statusLine().includes('also put back 2 files changed since (a.txt, new.txt)?'),
    'asked about both files',
  );
  p.write('y');
  await p.waitForText(/put back: .*a\.txt/);
  expect(read(ws, 'a.txt')).toBe('one\n');
  expect(read(ws, 'new.txt')).toBeNull();
});

it("/diff after /new is the new conversation's: nothing before its first turn, then only what that turn changed", async () => {
  const ws = repository();
  const p = await started(ws);
  await ran(p, 'echo old > before-new.txt');
  p.write('/new' + KEY.enter);
  await p.waitFor(() => !p.text().includes('ran: echo old'), 'the new conversation');
  p.write('/diff' + KEY.enter);
  await p.waitForText('nothing has changed: no turn of this conversation ran here yet');
  await ran(p, 'echo fresh > after-new.txt');
  p.write('/diff' + KEY.enter);
  await p.waitForText('+++ b/after-new.txt');
  expect(p.text().split('changes in the workspace since the conversation began')[1]).not.toContain('before-new');
});

/** Processes but this one whose command line or environment names `place` (/proc; those not readable skipped). */
function processesNaming(place: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)) {
    for (const what of ['cmdline', 'environ']) {
      try {
        const text = fs.readFileSync(`/proc/${pid}/${what}`, 'latin1');
        if (text.includes(place)) found.push(`${pid}: ${fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1')}`);
      } catch {
        // Gone meanwhile, or not ours to read.
      }
    }
  }
  return found;
}

/**
 * A git on PATH that runs the real one, then notes in `log` if the milk it was started under (its nearest ancestor
 * running dist/cli.js) was gone by then: a git run milk left behind.
 */
function outlivingGit(log: string, slow = ''): string {
  const dir = tempDir('milk-git-shim-');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const script = [
    '#!/bin/sh',
    'milk=; p=$PPID',
    'while [ -n "$p" ] && [ "$p" -gt 1 ]; do',
    `  if tr '\\0' ' ' < /proc/$p/cmdline 2>/dev/null | grep -q 'dist/cli.js'; then milk=$p; break; fi`,
    "  p=$(awk '{print $4}' /proc/$p/stat 2>/dev/null)",
    'done',
    // A git command made slow (the prune's repack), as on a big store: milk's exit must end it.
    `if [ "$1" = '${slow}' ]; then sleep 60; fi`,
    `'${real}' "$@"; rc=$?`,
    `if [ -z "$milk" ] || ! kill -0 "$milk" 2>/dev/null; then echo "outlived milk: git $1" >> '${log}'; fi`,
    'exit $rc',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'git'), script + '\n', { mode: 0o755 });
  return `${dir}:${process.env.PATH}`;
}

/** milk in a repository, running the model's commands unasked, with a git that notes any of its runs left behind. */
function outliving(slow = '') {
  const ws = repository();
  const dataDir = tempDir();
  const log = path.join(tempDir(), 'outlived');
  const args = ['--data-dir', dataDir, '--provider', 'openai', '--base-url', `${server.current.url}/v1`];
  const p = pty.start({
    args: [...args, '--model', 'run', '--approval', 'full-auto', '--sandbox', 'off'],
    cwd: ws,
    cols: 120,
    env: { PATH: outlivingGit(log, slow) },
  });
  return { dataDir, log, p };
}

it('leaves no process behind when it quits after turns that took snapshots', async () => {
  const { dataDir, log, p } = outliving();
  await p.waitForText('history: session');
  await ran(p, 'echo made > new.txt');
  expect(fs.existsSync(path.join(dataDir, 'snapshots'))).toBe(true);
  p.write(KEY.ctrlD);
  expect((await p.exited).exitCode).toBe(0);
  // Whatever still runs naming its data dir ends first (a git it left would note itself then).
  for (const deadline = Date.now() + 15_000; processesNaming(dataDir).length > 0;) {
    if (Date.now() > deadline) throw new Error(`still running: ${processesNaming(dataDir).join('; ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '').toBe('');
});

it('ends a prune still running when it quits: no process of its own alive 1 s after it exits', async () => {
  const { dataDir, log, p } = outliving('repack');
  await p.waitForText('history: session');
  await ran(p, 'echo made > new.txt');
  // The new store's first idle time marks the day; a day on, the next turn's idle time prunes.
  const root = path.join(dataDir, 'snapshots');
  const stamp = () => path.join(root, fs.readdirSync(root).find((d) => d.endsWith('.git')) ?? '', 'pruned-at');
  await p.waitFor(() => fs.existsSync(stamp()), 'the day marked', 15_000);
  const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
  fs.utimesSync(stamp(), dayAgo, dayAgo);
  await ran(p, 'echo again > new.txt');
  // A few idle seconds after the turn, the day's prune starts; its repack hangs here.
  await p.waitFor(() => processesNaming(dataDir).some((l) => l.includes('repack')), 'the prune running', 15_000);
  p.write(KEY.ctrlD);
  expect((await p.exited).exitCode).toBe(0);
  await new Promise((r) => setTimeout(r, 1000));
  expect(processesNaming(dataDir)).toEqual([]);
  expect(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '').toBe('');
});

it("/undo names a nested repository's .git as not covered, and puts back its files", async () => {
  const ws = repository();
  const lib = path.join(ws, 'lib');
  fs.mkdirSync(lib);
  execFileSync('git', ['init', '-q'], { cwd: lib });
  fs.writeFileSync(path.join(lib, 'wip.txt'), 'uncommitted\n');
  // Wide enough for the whole question beside the status bar's other parts.
  const p = await started(ws, tempDir(), 200);
  await ran(p, 'rm lib/wip.txt');
  p.write('/undo' + KEY.enter);
  await p.waitFor(
    () =>
      p
        .statusLine()
        .includes("changes to 1 file (lib/wip.txt) — not covered: lib/.git (a repository's own history)? y/n"),
    'the question naming what it does not cover',
  );
  p.write('y');
  await p.waitForText(/put back: .*wip\.txt/);
  expect(read(ws, 'lib/wip.txt')).toBe('uncommitted\n');
});

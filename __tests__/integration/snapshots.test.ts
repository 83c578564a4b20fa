// Workspace snapshots with real git and real commands (session/snapshots.ts through turn-changes.ts): what a shell
// command changed, created and deleted goes back with a rewind to its turn and with /undo's last turn; a file changed
// since by someone else is left alone and reported; .gitignore'd and oversized files are never stored; the person's
// own .git is byte-identical after all of it; without git, milk says so once and the file tools' copies remain. Only a
// turn that runs a command (the shell tool, a `!` command, a hook, or beside a background command) runs git at all.
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sourced } from '../../src/config/hooks';
import { Snapshots } from '../../src/session/snapshots';
import { commands, scripted } from '../helpers/snapshot-agent';
import { tempDir } from '../helpers/pty';

jest.setTimeout(30000);

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });

/** Every file under `dir` with the SHA-256 of its bytes and its mode: a folder's exact state. */
function fingerprint(dir: string): string {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      const st = fs.lstatSync(p);
      if (e.isDirectory()) walk(p);
      else
        out.push(
          `${path.relative(dir, p)} ${st.mode} ${crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex')}`,
        );
    }
  };
  walk(dir);
  return out.join('\n');
}

/** A git repository with a commit, an ignored file and a file over the 1 MB cap. */
function repository(): string {
  const ws = fs.realpathSync(tempDir('milk-snap-'));
  fs.writeFileSync(path.join(ws, 'a.txt'), 'one\n');
  fs.writeFileSync(path.join(ws, 'b.txt'), 'bee\n');
  fs.writeFileSync(path.join(ws, '.gitignore'), 'ignored.log\n');
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'first');
  fs.writeFileSync(path.join(ws, 'ignored.log'), 'not for the store\n');
  fs.writeFileSync(path.join(ws, 'big.bin'), Buffer.alloc(2 * 1024 * 1024, 7));
  fs.writeFileSync(path.join(ws, 'untracked.txt'), 'never committed\n');
  return ws;
}

/**
 * A git on PATH that runs the real one, then notes the run in a log: which turns spawn git at all. A run is logged
 * once it has finished, so a test that sees it knows what that run read.
 */
const gitLog = path.join(tempDir('milk-git-log-'), 'runs');
const shim = tempDir('milk-git-shim-');
const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
fs.writeFileSync(
  path.join(shim, 'git'),
  `#!/bin/sh\n'${realGit}' "$@"\ncode=$?\necho "$GIT_DIR $1" >> '${gitLog}'\nexit $code\n`,
  { mode: 0o755 },
);
const pathBefore = process.env.PATH;
beforeAll(() => {
  process.env.PATH = `${shim}:${pathBefore}`;
});
afterAll(() => {
  process.env.PATH = pathBefore;
});
/** The git commands run on the store in `dataDir` (another test's late runs are not this one's). */
const gitRuns = (dataDir: string): string[] =>
  (fs.existsSync(gitLog) ? fs.readFileSync(gitLog, 'utf8').split('\n') : [])
    .filter((line) => line.startsWith(path.join(dataDir, 'snapshots') + path.sep))
    .map((line) => line.slice(line.lastIndexOf(' ') + 1));

const read = (ws: string, f: string): string | null => {
  try {
    return fs.readFileSync(path.join(ws, f), 'utf8');
  } catch {
    return null;
  }
};

function storeOf(dataDir: string): string {
  const root = path.join(dataDir, 'snapshots');
  return path.join(root, fs.readdirSync(root).find((d) => d.endsWith('.git')) as string);
}

/** The labels of the snapshots a store holds ("start 0", "end 0", …), oldest first. */
const labels = (dataDir: string): string[] =>
  execFileSync(realGit, ['--git-dir', storeOf(dataDir), 'log', '--all', '--reverse', '--format=%s'], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .map((l) => l.replace(/^milk: /, ''));

it('a command that edits, creates and deletes files is undone by going back to its turn; .git stays as it was', async () => {
  const ws = repository();
  const before = fingerprint(path.join(ws, '.git'));
  const a = commands(ws, ['sed -i s/one/ONE/ a.txt && echo new > c.txt && rm b.txt untracked.txt ignored.log big.bin']);
  expect((await a.turn('change things')).status).toBe('done');
  expect(read(ws, 'a.txt')).toBe('ONE\n');
  expect(read(ws, 'c.txt')).toBe('new\n');
  expect(read(ws, 'b.txt')).toBeNull();
  const at = (f: string) => path.join(ws, f);
  expect(await a.files().files(0)).toEqual(['a.txt', 'b.txt', 'c.txt', 'untracked.txt'].map(at));
  const report = await a.files().restore(0);
  expect(report).toEqual({
    restored: ['a.txt', 'b.txt', 'untracked.txt'].map(at),
    removed: [at('c.txt')],
    changed: [],
    failed: [],
  });
  expect(read(ws, 'a.txt')).toBe('one\n');
  expect(read(ws, 'b.txt')).toBe('bee\n');
  expect(read(ws, 'untracked.txt')).toBe('never committed\n');
  expect(read(ws, 'c.txt')).toBeNull();
  // Ignored and oversized files were never stored: not put back.
  expect(read(ws, 'ignored.log')).toBeNull();
  expect(read(ws, 'big.bin')).toBeNull();
  const stored = execFileSync('git', ['--git-dir', storeOf(a.dataDir), 'log', '--all', '--format=%T'], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .flatMap((tree) =>
      execFileSync('git', ['--git-dir', storeOf(a.dataDir), 'ls-tree', '-r', '--name-only', tree], { encoding: 'utf8' })
        .trim()
        .split('\n'),
    );
  expect(stored).toContain('untracked.txt');
  expect(stored).not.toContain('ignored.log');
  expect(stored).not.toContain('big.bin');
  expect(stored.some((f) => f.startsWith('.git/'))).toBe(false);
  expect(fingerprint(path.join(ws, '.git'))).toBe(before);
  // Going back once more finds nothing left to do.
  expect(await a.files().files(0)).toEqual([]);
});

it('a file changed since by someone else is left alone and reported; the rest goes back', async () => {
  const ws = repository();
  const a = commands(ws, ['echo two >> a.txt && echo made > d.txt']);
  await a.turn('go');
  // The turn's end is snapshotted just after it ends; the person's edit comes later.
  expect(await a.files().files(0)).toEqual([path.join(ws, 'a.txt'), path.join(ws, 'd.txt')]);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'the person wrote this\n');
  const report = await a.files().restore(0);
  expect(report.changed).toEqual([path.join(ws, 'a.txt')]);
  expect(report.removed).toEqual([path.join(ws, 'd.txt')]);
  expect(read(ws, 'a.txt')).toBe('the person wrote this\n');
});

it("/undo's last turn: only what the last turn did goes back; /diff counts from the turn asked", async () => {
  const ws = repository();
  const a = commands(ws, ['echo first > x.txt', 'echo second > x.txt && rm a.txt']);
  await a.turn('one');
  await a.turn('two');
  const last = await a.files().lastTurn();
  expect(last).toBe(1);
  const since1 = await a.files().diff(1);
  expect('text' in since1 && since1.text).toMatch(/^-first\n\+second$/m);
  await a.files().restore(last as number);
  expect(read(ws, 'x.txt')).toBe('first\n');
  expect(read(ws, 'a.txt')).toBe('one\n');
  // The diff since the conversation began: x.txt is new.
  const d = await a.files().diff(0);
  expect('text' in d && d.text).toMatch(/^\+\+\+ b\/x\.txt$/m);
  expect('text' in d && d.text).not.toMatch(/a\.txt/);
});

it('a turn that runs no command runs no git and stores nothing; the first command of a turn does', async () => {
  const ws = repository();
  fs.rmSync(gitLog, { force: true });
  const a = scripted(ws, [
    [[{ text: 'just an answer' }]],
    [[{ tool: { name: 'write_file', args: { path: 'w.txt', content: 'written\n' } } }], [{ text: 'done' }]],
    [[{ tool: { name: 'shell', args: { command: 'echo ran > r.txt' } } }], [{ text: 'done' }]],
  ]);
  expect((await a.turn('hello')).status).toBe('done');
  expect((await a.turn('write')).status).toBe('done');
  expect(read(ws, 'w.txt')).toBe('written\n');
  expect(gitRuns(a.dataDir)).toEqual([]);
  expect(fs.existsSync(path.join(a.dataDir, 'snapshots'))).toBe(false);
  expect((await a.turn('run')).status).toBe('done');
  expect(read(ws, 'r.txt')).toBe('ran\n');
  expect(gitRuns(a.dataDir)).toContain('write-tree');
  // (A snapshot whose tree is the one before adds no commit; this one's differs.)
  expect(await a.files().files(2)).toEqual([path.join(ws, 'r.txt')]);
  expect(labels(a.dataDir)).toEqual(['start 2', 'end 2']);
  // Back to the first turn: the file tool's write and the command's file both go.
  const report = await a.files().restore(0);
  expect(report.removed.sort()).toEqual([path.join(ws, 'r.txt'), path.join(ws, 'w.txt')]);
  expect(report.failed).toEqual([]);
});

it("an edit before a turn's first command goes back from its copy, the command's changes from the snapshot", async () => {
  const ws = repository();
  const a = scripted(ws, [
    [
      [{ tool: { name: 'edit_file', args: { path: 'a.txt', old_string: 'one', new_string: 'edited' } } }],
      [{ tool: { name: 'shell', args: { command: 'sed -i s/edited/commanded/ a.txt && echo x >> b.txt' } } }],
      [{ tool: { name: 'write_file', args: { path: 'b.txt', content: 'rewritten\n' } } }],
      [{ text: 'done' }],
    ],
  ]);
  expect((await a.turn('go')).status).toBe('done');
  expect(read(ws, 'a.txt')).toBe('commanded\n');
  expect(read(ws, 'b.txt')).toBe('rewritten\n');
  const diff = await a.files().diff(0);
  expect('text' in diff && diff.text).toMatch(/^-one\n\+commanded$/m);
  expect('text' in diff && diff.text).toMatch(/^-bee\n\+rewritten$/m);
  const report = await a.files().restore(0);
  expect(report.failed).toEqual([]);
  expect(read(ws, 'a.txt')).toBe('one\n');
  expect(read(ws, 'b.txt')).toBe('bee\n');
});

it("a `!` command's changes and a hook's are undone: each counts as the turn's command", async () => {
  const ws = repository();
  const hook = path.join(tempDir(), 'hook.sh');
  fs.writeFileSync(hook, '#!/bin/sh\ncat > /dev/null\necho hooked >> a.txt\n', { mode: 0o755 });
  const a = scripted(ws, [[[{ text: 'noted' }]]], {
    hooks: sourced({ hooks: { user_prompt: [{ command: hook }] }, source: 'config.json' }),
  });
  const own = new Promise((resolve) => a.bus.on('turn.ended', resolve));
  a.parts.runner.runOwn('rm b.txt');
  await own;
  expect(read(ws, 'b.txt')).toBeNull();
  expect((await a.turn('prompted')).status).toBe('done');
  expect(read(ws, 'a.txt')).toBe('one\nhooked\n');
  await a.files().restore(1);
  expect(read(ws, 'a.txt')).toBe('one\n');
  expect(read(ws, 'b.txt')).toBeNull();
  await a.files().restore(0);
  expect(read(ws, 'b.txt')).toBe('bee\n');
});

it('a turn that starts while a background command runs is snapshotted at its start', async () => {
  const ws = repository();
  const go = path.join(tempDir(), 'go');
  const wait = `while [ ! -f '${go}' ]; do sleep 0.05; done; echo late > bg.txt; sleep 30`;
  const a = scripted(ws, [
    [[{ tool: { name: 'shell', args: { command: wait, background: true } } }], [{ text: 'started' }]],
    [[{ text: 'waiting' }, { delay: 60_000 }, { text: 'never' }]],
  ]);
  expect((await a.turn('start it')).status).toBe('done');
  try {
    await a.files().files(0);
    fs.rmSync(gitLog, { force: true });
    const second = a.turn('a chat turn');
    // Its start's snapshot is taken without any command of its own (it has listed the new files once its ls-files,
    // after diff-files, has finished: one of two, the other naming the ignored paths beside it); then the background
    // command writes.
    const listed = (): boolean => gitRuns(a.dataDir).filter((run) => run === 'ls-files').length >= 2;
    for (const deadline = Date.now() + 10_000; !listed();) {
      if (Date.now() > deadline) throw new Error('no snapshot at the start of the second turn');
      await new Promise((r) => setTimeout(r, 20));
    }
    fs.writeFileSync(go, '');
    for (const deadline = Date.now() + 10_000; read(ws, 'bg.txt') === null;) {
      if (Date.now() > deadline) throw new Error('the background command did not write');
      await new Promise((r) => setTimeout(r, 20));
    }
    a.parts.runner.cancel();
    await second;
  } finally {
    for (const shell of a.parts.background.running) a.parts.background.kill(shell.id);
  }
  expect(await a.files().files(1)).toEqual([path.join(ws, 'bg.txt')]);
  await a.files().restore(1);
  expect(read(ws, 'bg.txt')).toBeNull();
});

it('without git, milk says so once and keeps no snapshots', async () => {
  const ws = repository();
  const warnings: string[] = [];
  const s = new Snapshots({
    workspace: ws,
    store: path.join(tempDir(), 'store.git'),
    leaveOut: [],
    maxFileBytes: 1e6,
    warn: (t) => warnings.push(t),
    order: () => 0,
    git: '/nonexistent/git',
  });
  expect(await s.turnSnapshot(0)).toBeNull();
  s.turnEnded(0);
  expect(await s.turnSnapshot(1)).toBeNull();
  expect(await s.lastTurn()).toBeNull();
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/git was not found/);
});

// Workspace snapshots with real git and real commands (session/snapshots.ts through agent-parts.ts): what a shell
// command changed, created and deleted goes back with a rewind to its turn and with /undo's last turn; a file changed
// since by someone else is left alone and reported; .gitignore'd and oversized files are never stored; the person's
// own .git is byte-identical after all of it; without git, milk says so once and the file tools' copies remain.
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Cleanup } from '../../src/cleanup';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { Snapshots } from '../../src/session/snapshots';
import { agent } from '../helpers/agent';
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

/** An agent that runs each command as one turn's shell call (full-auto, no sandbox), with snapshots on. */
function commands(workspace: string, cmds: string[], warn: (t: string) => void = () => {}) {
  const script = parseScript({
    turns: cmds.flatMap((command) => [[{ tool: { name: 'shell', args: { command } } }], [{ text: 'done' }]]),
  });
  const dataDir = tempDir();
  const a = agent(new ScriptProvider(script), {
    approval: 'full-auto',
    sandbox: 'off',
    workspace,
    dataDir,
    warn,
    rewind: { cleanup: new Cleanup() },
    snapshots: { maxFileMb: 1 },
  });
  return { ...a, dataDir };
}

const read = (ws: string, f: string): string | null => {
  try {
    return fs.readFileSync(path.join(ws, f), 'utf8');
  } catch {
    return null;
  }
};

it('a command that edits, creates and deletes files is undone by going back to its turn; .git stays as it was', async () => {
  const ws = repository();
  const before = fingerprint(path.join(ws, '.git'));
  const a = commands(ws, ['sed -i s/one/ONE/ a.txt && echo new > c.txt && rm b.txt untracked.txt ignored.log big.bin']);
  expect((await a.turn('change things')).status).toBe('done');
  expect(read(ws, 'a.txt')).toBe('ONE\n');
  expect(read(ws, 'c.txt')).toBe('new\n');
  expect(read(ws, 'b.txt')).toBeNull();
  const store = a.parts.snapshots?.taken();
  expect(store).toBeTruthy();
  const steps = await store!.plan(0);
  expect(steps.map((s) => `${s.kind} ${s.file}`)).toEqual([
    'write a.txt',
    'write b.txt',
    'remove c.txt',
    'write untracked.txt',
  ]);
  const report = await store!.restore(0, steps);
  expect(report.failed).toEqual([]);
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
  expect(await store!.plan(0)).toEqual([]);
});

function storeOf(dataDir: string): string {
  const root = path.join(dataDir, 'snapshots');
  return path.join(root, fs.readdirSync(root).find((d) => d.endsWith('.git')) as string);
}

it('a file changed since by someone else is left alone and reported; the rest goes back', async () => {
  const ws = repository();
  const a = commands(ws, ['echo two >> a.txt && echo made > d.txt']);
  await a.turn('go');
  const store = a.parts.snapshots!.taken()!;
  // The turn's end is snapshotted just after it ends; the person's edit comes later.
  await store.settled();
  fs.writeFileSync(path.join(ws, 'a.txt'), 'the person wrote this\n');
  const steps = await store.plan(0);
  expect(steps).toEqual([
    { kind: 'changed', file: 'a.txt' },
    { kind: 'remove', file: 'd.txt' },
  ]);
  const report = await store.restore(0, steps);
  expect(report.changed).toEqual([path.join(ws, 'a.txt')]);
  expect(report.removed).toEqual([path.join(ws, 'd.txt')]);
  expect(read(ws, 'a.txt')).toBe('the person wrote this\n');
});

it("/undo's last turn: only what the last turn did goes back", async () => {
  const ws = repository();
  const a = commands(ws, ['echo first > x.txt', 'echo second > x.txt && rm a.txt']);
  await a.turn('one');
  await a.turn('two');
  const store = a.parts.snapshots!.taken()!;
  const last = await store.lastTurn();
  expect(last).toBe(1);
  await store.restore(last as number, await store.plan(last as number));
  expect(read(ws, 'x.txt')).toBe('first\n');
  expect(read(ws, 'a.txt')).toBe('one\n');
  // The diff since the conversation began: x.txt is new.
  const d = await store.diff(0);
  expect('text' in d && d.text).toMatch(/^\+\+\+ b\/x\.txt$/m);
});

it('without git, milk says so once and keeps no snapshots', async () => {
  const ws = repository();
  const warnings: string[] = [];
  const s = new Snapshots({
    workspace: ws,
    store: path.join(tempDir(), 'store.git'),
    leaveOut: [],
    maxFileBytes: 1e6,
    maxStoreBytes: 1e9,
    maxAgeDays: 30,
    warn: (t) => warnings.push(t),
    git: '/nonexistent/git',
  });
  s.turnStarted(0);
  s.turnEnded(0);
  s.turnStarted(1);
  await s.beforeChange(1, 'command');
  expect(await s.covers(0)).toBe(false);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/git was not found/);
});

// milk --worktree with real git, in a real terminal: a worktree made under the data dir on branch milk/NAME and milk
// started there, its input history the main repository's, the quit line's way back and out; taken again by a second
// start; /worktree listing it and refusing to remove it with changes unless --force; trust following the repository;
// a folder that is no repository refused.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { git, repoWith } from '../helpers/git';
import { milkCli } from '../helpers/run';
import { sessionIdForWorkspace } from '../../src/config/paths';

jest.setTimeout(60000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

async function start(data: string, cwd: string, name: string): Promise<MilkPty> {
  // The one before waits in its shell after quitting (reportTty): let go of it first.
  m?.kill('SIGKILL');
  m = new MilkPty({ args: ['--data-dir', data, '--worktree', name], cwd, cols: 160, rows: 40, reportTty: true });
  await m.waitForText('history: session');
  return m;
}

async function quit(p: MilkPty): Promise<string> {
  p.write('/exit' + KEY.enter);
  await p.waitFor(() => p.raw.includes('DONE'), 'milk quit');
  return p.raw;
}

it('makes a worktree on milk/NAME under the data dir, starts there, and tells the way back and out', async () => {
  const repo = fs.realpathSync(repoWith({ 'a.txt': 'one\n' }));
  const data = tempDir();
  const id = sessionIdForWorkspace(repo);
  const where = path.join(data, 'worktrees', id, 'feat');
  let p = await start(data, repo, 'feat');
  expect(fs.existsSync(path.join(where, 'a.txt'))).toBe(true);
  expect(git(where, 'branch', '--show-current').trim()).toBe('milk/feat');
  p.write('!pwd' + KEY.enter);
  await p.waitForText(where);
  p.write('remember this input' + KEY.enter);
  await p.waitForText('You wrote one line: "remember this input"');
  await p.waitFor(() => !p.statusLine().includes('working'), 'the turn ended');
  const out = await quit(p);
  expect(out).toContain(`milk: worktree feat (branch milk/feat) is at ${where}: milk --worktree feat in ${repo}`);
  // Input history is the main repository's session's.
  expect(fs.readFileSync(path.join(data, 'sessions', `${id}.history`), 'utf8')).toContain('remember this input');

  // A second start takes it again, as it is.
  fs.writeFileSync(path.join(where, 'b.txt'), 'new\n');
  p = await start(data, repo, 'feat');
  p.write('!ls' + KEY.enter);
  await p.waitForText('b.txt');
  p.kill('SIGKILL');

  // From the main repository: listed, refused with changes, removed with --force, the branch kept.
  m = new MilkPty({ args: ['--data-dir', data], cwd: repo, cols: 200, rows: 40 });
  p = m;
  await p.waitForText('history: session');
  p.write('/worktree' + KEY.enter);
  await p.waitForText(/feat {2}milk\/feat {2}1 changed files/);
  p.write('/worktree remove feat' + KEY.enter);
  await p.waitForText('feat has 1 uncommitted changed file: /worktree remove feat --force removes them with it');
  expect(fs.existsSync(where)).toBe(true);
  p.write('/worktree remove feat --force' + KEY.enter);
  await p.waitForText('removed worktree feat');
  expect(fs.existsSync(where)).toBe(false);
  expect(git(repo, 'branch', '--list', 'milk/feat')).toContain('milk/feat');
});

it("follows the repository's trust: a trusted .milk/ is in force in its worktree without asking", async () => {
  const repo = fs.realpathSync(repoWith({ 'a.txt': 'one\n' }));
  fs.mkdirSync(path.join(repo, '.milk'));
  fs.writeFileSync(path.join(repo, '.milk', 'settings.json'), JSON.stringify({ approval: 'read-only' }));
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'settings');
  const data = tempDir();
  expect((await milkCli(['--data-dir', data, 'trust'], { cwd: repo })).code).toBe(0);
  const p = await start(data, repo, 'trusted');
  expect(p.text()).not.toContain("Trust this workspace's .milk/?");
  p.write('/approval' + KEY.enter);
  await p.waitForText('approval: read-only');
});

it('refuses a folder that is no repository, and a bad name, before the screen', async () => {
  const data = tempDir();
  const plain = tempDir();
  m = new MilkPty({ args: ['--data-dir', data, '--worktree', 'x'], cwd: plain, cols: 160, reportTty: true });
  await m.waitFor(() => m!.raw.includes('DONE'), 'milk exited');
  expect(m.raw).toContain('EXIT=2');
  expect(m.text()).toContain('milk: --worktree: not in a git repository');
  expect(fs.existsSync(path.join(data, 'worktrees'))).toBe(false);
  const bad = await milkCli(['--data-dir', data, '--worktree', '../up'], { cwd: plain });
  expect(bad.code).toBe(2);
  expect(bad.err).toContain('a worktree name is 1-64 characters');
});

// Repositories nested in the workspace (issue "Snapshots you can trust", finding 2), with real git: a vendored
// repository's changed and deleted files come back; its own .git is not stored, and said to be not covered; what its
// own .gitignore ignores is never removed.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commands } from '../helpers/snapshot-agent';
import { tempDir } from '../helpers/pty';

jest.setTimeout(30000);

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

/** A workspace (itself a repository) with a vendored repository in lib/: a.txt committed there, wip.txt not. */
function vendored() {
  const ws = fs.realpathSync(tempDir('milk-nested-'));
  git(ws, 'init', '-q');
  fs.writeFileSync(path.join(ws, 'top.txt'), 'top\n');
  const lib = path.join(ws, 'lib');
  fs.mkdirSync(path.join(lib, 'deep'), { recursive: true });
  git(lib, 'init', '-q');
  fs.writeFileSync(path.join(lib, 'a.txt'), 'library\n');
  fs.writeFileSync(path.join(lib, 'deep', 'b.txt'), 'deep\n');
  git(lib, 'add', '.');
  git(lib, 'commit', '-q', '-m', 'v1');
  fs.writeFileSync(path.join(lib, 'wip.txt'), 'uncommitted work\n');
  return { ws, lib, at: (f: string) => path.join(ws, f) };
}

it("a nested repository's changed and deleted files come back; its .git is named as not covered", async () => {
  const { ws, lib, at } = vendored();
  const head = git(lib, 'rev-parse', 'HEAD');
  const a = commands(ws, ['printf over > lib/a.txt && rm lib/wip.txt lib/deep/b.txt']);
  expect((await a.turn('break lib')).status).toBe('done');
  const files = await a.files().files(0);
  expect(files).toEqual([at('lib/a.txt'), at('lib/deep/b.txt'), at('lib/wip.txt')]);
  expect(a.files().uncovered(files)).toEqual(['lib/.git']);
  const report = await a.files().restore(0);
  expect(report.failed).toEqual([]);
  expect(fs.readFileSync(at('lib/a.txt'), 'utf8')).toBe('library\n');
  expect(fs.readFileSync(at('lib/wip.txt'), 'utf8')).toBe('uncommitted work\n');
  expect(fs.readFileSync(at('lib/deep/b.txt'), 'utf8')).toBe('deep\n');
  // Its own history is its own: not stored, not touched.
  expect(git(lib, 'rev-parse', 'HEAD')).toBe(head);
  expect(git(lib, 'status', '--porcelain')).toBe('?? wip.txt\n');
});

it("what a nested repository's own .gitignore ignores is never removed, even once it stops being ignored", async () => {
  const { ws, lib, at } = vendored();
  fs.writeFileSync(path.join(lib, '.gitignore'), 'secret.env\n');
  fs.writeFileSync(path.join(lib, 'secret.env'), 'TOKEN=only-copy\n');
  const a = commands(ws, ["printf '' > lib/.gitignore"]);
  expect((await a.turn('unignore')).status).toBe('done');
  const report = await a.files().restore(0);
  expect(report.restored).toEqual([at('lib/.gitignore')]);
  expect(report.removed).toEqual([]);
  expect(report.kept).toEqual([at('lib/secret.env')]);
  expect(fs.readFileSync(at('lib/secret.env'), 'utf8')).toBe('TOKEN=only-copy\n');
});

it('a repository first made by a turn is undone whole but for its .git', async () => {
  const { ws, at } = vendored();
  const a = commands(ws, ['mkdir fresh && cd fresh && git init -q && echo made > f.txt']);
  expect((await a.turn('make a repo')).status).toBe('done');
  const files = await a.files().files(0);
  expect(files).toEqual([at('fresh/f.txt')]);
  expect(a.files().uncovered(files)).toEqual(['fresh/.git']);
  expect((await a.files().restore(0)).removed).toEqual([at('fresh/f.txt')]);
  expect(fs.existsSync(at('fresh/.git'))).toBe(true);
});

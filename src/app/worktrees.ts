// Git worktrees (milk --worktree NAME, /worktree): a worktree of the current repository made (or taken again) under
// the data dir, `worktrees/<workspace id>/NAME` on branch `milk/NAME`, where milk then starts. Its input history and
// trust are the main repository's; its snapshots its own (they are by workspace). git runs without a shell, bounded
// in time, with the repository's code-running settings off (hooks, an fsmonitor): making a worktree must not run
// what a cloned repository's .git/config names.

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dataLayout } from '../kernel/data-dir';
import { sessionIdForWorkspace } from '../config/paths';

const SAFE = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];
const GIT_TIMEOUT_MS = 60_000;

export interface Worktree {
  readonly name: string;
  readonly path: string;
  readonly branch: string;
}

export interface Repository {
  /** The main working tree's real path (trust and input history are its). */
  readonly root: string;
  /** Where milk keeps this repository's worktrees. */
  readonly dir: string;
}

class GitError extends Error {}

function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...SAFE, ...args], { cwd, timeout: GIT_TIMEOUT_MS, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new GitError('git is not on PATH'));
      const said = stderr.split('\n').find((l) => l.trim()) ?? err.message;
      reject(new GitError(said.replace(/^fatal: /, '').trim()));
    });
  });
}

/** The repository `cwd` is in, and where its worktrees go; throws a sentence when it is in none. */
export async function repositoryOf(dataDir: string, cwd: string): Promise<Repository> {
  let common: string;
  try {
    common = (await git(cwd, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
  } catch (err) {
    if (err instanceof GitError && /not on PATH/.test(err.message)) throw err;
    throw new GitError(`not in a git repository: ${cwd} (a worktree is made of one)`);
  }
  // The common dir is the main working tree's .git (a bare repository has no main working tree to follow).
  if (path.basename(common) !== '.git') throw new GitError('a bare repository has no main working tree here');
  const root = fs.realpathSync(path.dirname(common));
  return { root, dir: dataLayout(dataDir).worktrees(sessionIdForWorkspace(root)) };
}

/** milk's worktrees of the repository, as git lists them (those under its folder in the data dir). */
export async function listWorktrees(repo: Repository): Promise<Worktree[]> {
  const out = await git(repo.root, ['worktree', 'list', '--porcelain']);
  return parseWorktreeList(out).flatMap((w) => {
    const inside = path.dirname(w.path) === repo.dir;
    return inside ? [{ name: path.basename(w.path), path: w.path, branch: w.branch ?? '(detached)' }] : [];
  });
}

/** `git worktree list --porcelain`'s entries: each path and its branch (without refs/heads/). */
export function parseWorktreeList(text: string): Array<{ path: string; branch: string | null }> {
  return text
    .split(/\n\n+/)
    .map((block) => {
      const lines = block.split('\n');
      const at = lines.find((l) => l.startsWith('worktree '))?.slice('worktree '.length);
      const branch = lines.find((l) => l.startsWith('branch '))?.slice('branch '.length);
      return at ? { path: at, branch: branch ? branch.replace(/^refs\/heads\//, '') : null } : null;
    })
    .filter((w): w is { path: string; branch: string | null } => w !== null);
}

/** The worktree NAME, made from HEAD on branch milk/NAME (or on that branch, when there is one), or taken again. */
export async function enterWorktree(
  dataDir: string,
  cwd: string,
  name: string,
): Promise<{ repo: Repository; worktree: Worktree; made: boolean }> {
  const repo = await repositoryOf(dataDir, cwd);
  const there = path.join(repo.dir, name);
  const branch = `milk/${name}`;
  const known = (await listWorktrees(repo)).find((w) => w.name === name);
  if (known && fs.existsSync(known.path)) return { repo, worktree: known, made: false };
  if (known) await git(repo.root, ['worktree', 'prune']);
  fs.mkdirSync(repo.dir, { recursive: true, mode: 0o700 });
  const hasBranch = await git(repo.root, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`]).then(
    () => true,
    () => false,
  );
  await git(repo.root, ['worktree', 'add', ...(hasBranch ? [there, branch] : ['-b', branch, there, 'HEAD'])]);
  return { repo, worktree: { name, path: fs.realpathSync(there), branch }, made: true };
}

/** The files a worktree has changed or not tracked, counted (git status). */
async function changedFiles(worktree: Worktree): Promise<number> {
  const out = await git(worktree.path, ['status', '--porcelain', '--untracked-files=all']);
  return out.split('\n').filter((l) => l.trim()).length;
}

/** /worktree's lines: each of milk's worktrees, its branch, where it is, what it has changed. */
export async function worktreeLines(repo: Repository, here: string): Promise<string[]> {
  const all = await listWorktrees(repo);
  if (all.length === 0) return [`no worktrees of ${repo.root} yet: milk --worktree NAME makes one`];
  const lines = await Promise.all(
    all.map(async (w) => {
      const changed = await changedFiles(w).catch(() => -1);
      const state = changed < 0 ? 'unreadable' : changed === 0 ? 'clean' : `${changed} changed files`;
      return `  ${w.name}  ${w.branch}  ${state}${w.path === here ? '  (here)' : ''}  ${w.path}`;
    }),
  );
  return [`worktrees of ${repo.root}:`, ...lines];
}

/** /worktree remove NAME [--force]: what was done, or why not. */
export async function removeWorktree(repo: Repository, name: string, force: boolean, here: string): Promise<string> {
  const w = (await listWorktrees(repo)).find((t) => t.name === name);
  if (!w) return `no worktree ${name} (/worktree lists them)`;
  if (here === w.path || here.startsWith(w.path + path.sep))
    return `milk is working in ${name}: quit, and remove it from the main repository (/worktree remove ${name} there)`;
  const changed = await changedFiles(w).catch(() => 0);
  if (changed > 0 && !force)
    return (
      `${name} has ${changed} uncommitted changed file${changed === 1 ? '' : 's'}: ` +
      `/worktree remove ${name} --force removes them with it`
    );
  await git(repo.root, ['worktree', 'remove', ...(force ? ['--force'] : []), w.path]);
  return `removed worktree ${name} (${w.path}); its branch ${w.branch} is kept (git branch -D ${w.branch} deletes it)`;
}

/** The quit line's second half: how to come back to the worktree, and how to remove it. */
export function worktreeFarewell(w: Worktree, repo: Repository): string {
  return (
    `milk: worktree ${w.name} (branch ${w.branch}) is at ${w.path}: milk --worktree ${w.name} in ${repo.root} ` +
    `comes back; /worktree remove ${w.name} there (or git worktree remove ${w.path}) removes it`
  );
}

export { GitError as WorktreeError };

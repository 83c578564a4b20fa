// Repositories nested in the workspace (a vendored library, a submodule's checkout): git would store each as a single
// link to its own history, so a command that changed or deleted files in it could not be undone. Their working files
// are stored as files instead: the first time a snapshot meets one (git lists it as `lib/`), its files are listed
// with the nested folder as the work tree (its .gitignore honoured, its .git never listed) and added by name; from
// then on git walks into it as into any folder holding stored files. Its own .git is not stored: a rewind says so.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StoreGit } from './snapshot-git';
import { joinNul, splitNul } from './snapshot-plan';

/** An index that does not exist: every file of the nested tree counts as new. */
const NO_INDEX = '/nonexistent/milk-index';
const NUL = Buffer.from([0]);
/** How deep repositories within repositories are followed. */
const MAX_DEPTH = 8;

/** Whether git's entry (a path ending in /) is a repository's folder; the rest are folders git lists whole. */
export const isFolder = (rel: Buffer): boolean => rel.length > 0 && rel[rel.length - 1] === 0x2f;

/**
 * `listed` with each nested repository's folder replaced by its files (from the workspace, as bytes); and the
 * repositories' folders. A folder whose name is not UTF-8 cannot be a work tree here: left as git lists it.
 */
export async function expandRepos(
  repo: StoreGit,
  workspace: string,
  listed: readonly Buffer[],
  depth = 0,
): Promise<{ files: Buffer[]; repos: Buffer[] }> {
  const files: Buffer[] = [];
  const repos: Buffer[] = [];
  for (const rel of listed) {
    if (!isFolder(rel) || depth >= MAX_DEPTH) {
      files.push(rel);
      continue;
    }
    const root = path.join(workspace, rel.toString('utf8'));
    if (!Buffer.from(rel.toString('utf8')).equals(rel)) {
      files.push(rel);
      continue;
    }
    repos.push(rel);
    const inner = splitNul(
      await repo.bytes(['ls-files', '-z', '-o', '--exclude-standard'], { root, index: NO_INDEX }),
    ).map((p) => Buffer.concat([rel, p]));
    const deeper = await expandRepos(repo, workspace, inner, depth + 1);
    for (const f of deeper.files) files.push(f);
    for (const r of deeper.repos) repos.push(r);
  }
  return { files, repos };
}

/** What is ignored in the nested repositories, by their own .gitignore (a folder once, ending in /), as paths. */
export async function ignoredInRepos(repo: StoreGit, workspace: string, repos: readonly Buffer[]): Promise<string[]> {
  const out: string[] = [];
  for (const rel of repos) {
    const root = path.join(workspace, rel.toString('utf8'));
    if (!fs.existsSync(root)) continue;
    const args = ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'];
    const listed = await repo.git(args, { root, index: NO_INDEX });
    if (listed.code !== 0) continue;
    for (const p of listed.out.toString('utf8').split('\0')) if (p) out.push(rel.toString('utf8') + p);
  }
  return out;
}

/** Adds (or, where gone, removes) exactly these paths in the store's index, whatever folder holds them. */
export async function storeByName(repo: StoreGit, paths: readonly Buffer[]): Promise<void> {
  if (paths.length === 0) return;
  const args = ['update-index', '--add', '--remove', '-z', '--stdin'];
  const all = await repo.git(args, { stdin: Buffer.concat([joinNul(paths), NUL]) });
  if (all.code === 0) return;
  // One file could not be read (no permission, a socket): the others stored one by one, that one left out.
  for (const p of paths) await repo.git(args, { stdin: Buffer.concat([p, NUL]) });
}

/** The nested repositories among `files` (absolute paths in `workspace`): each folder holding a .git, as `lib/.git`. */
export function reposAround(workspace: string, files: readonly string[]): string[] {
  const found = new Set<string>();
  const checked = new Map<string, boolean>();
  for (const file of files) {
    for (let dir = path.dirname(file); dir.startsWith(workspace + path.sep); dir = path.dirname(dir)) {
      let is = checked.get(dir);
      if (is === undefined) checked.set(dir, (is = fs.existsSync(path.join(dir, '.git'))));
      if (is) found.add(path.relative(workspace, path.join(dir, '.git')).split(path.sep).join('/'));
    }
  }
  return [...found].sort();
}

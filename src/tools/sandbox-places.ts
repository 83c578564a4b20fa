// Where the sandbox's special places are on this machine (sandbox.ts says
// what it does with them): the files of the workspace's git repository that
// make a later git run code, milk's own control files (.milk/, the scripts
// hooks and MCP servers name), and the folders outside it that hold Unix
// sockets a command could reach by path (a docker daemon, the session bus, an
// ssh or gpg agent). Looked up at each command: a repository may be made, or
// a folder appear, between two.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

function kind(p: string): 'dir' | 'file' | 'link' | null {
  try {
    const st = fs.lstatSync(p);
    return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

/** Inside `dir` or `dir` itself. */
function within(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * `.git/config` (core.fsmonitor, core.hooksPath, aliases and filters run commands), `.git/hooks/`, `.git/info/`
 * and `.gitmodules`, read-only; a missing hooks folder made an empty read-only one; a `.git` that is a file (a
 * worktree's pointer) read-only itself. Objects, refs and the index stay writable: `git commit` still works.
 */
export function gitPlaces(workspace: string): { bind: string[]; empty: string[] } {
  const bind: string[] = [];
  const empty: string[] = [];
  const git = path.join(workspace, '.git');
  const gitKind = kind(git);
  if (gitKind === 'file' || gitKind === 'link') bind.push(git);
  if (gitKind === 'dir') {
    for (const name of ['config', 'config.worktree', 'hooks', 'info']) {
      const p = path.join(git, name);
      if (kind(p) !== null) bind.push(p);
      else if (name === 'hooks') empty.push(p);
    }
  }
  const modules = path.join(workspace, '.gitmodules');
  if (kind(modules) !== null) bind.push(modules);
  return { bind, empty };
}

/**
 * The rest of the workspace's control files (control-files.ts), read-only: `.milk/` and `.agents/skills/` where they
 * exist (a missing one is not made: what appears there waits for the person's trust), and each file a hook or MCP
 * server names (`named`, real paths inside the workspace) with its folder, unless that is the workspace itself: a bind
 * is a mount point, which a `mv` cannot replace, so the folder cannot be swapped for one holding another script.
 */
export function milkPlaces(workspace: string, named: readonly string[]): string[] {
  const bind: string[] = [];
  for (const own of [path.join(workspace, '.milk'), path.join(workspace, '.agents', 'skills')])
    if (kind(own) !== null) bind.push(own);
  for (const file of named) {
    if (!within(file, workspace) || file === workspace || kind(file) === null) continue;
    const folder = path.dirname(file);
    if (folder !== workspace && !bind.includes(folder)) bind.push(folder);
    if (!bind.includes(file)) bind.push(file);
  }
  return bind;
}

/**
 * Folders that hold Unix sockets, as they exist here: /run (and /var/run where it is not a link to it), the
 * runtime dir, and the home's agent and daemon places. One that holds the workspace is left alone.
 */
export function socketPlaces(workspace: string, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || os.homedir();
  const candidates = [
    '/run',
    '/var/run',
    env.XDG_RUNTIME_DIR,
    ...['.ssh', '.gnupg', '.docker'].map((d) => home && path.join(home, d)),
  ];
  const out: string[] = [];
  for (const c of candidates) {
    if (!c || !path.isAbsolute(c) || kind(c) !== 'dir' || within(workspace, c)) continue;
    if (out.some((d) => within(c, d))) continue;
    out.push(c);
  }
  return out;
}

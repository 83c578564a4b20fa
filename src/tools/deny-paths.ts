// The files and folders of the workspace that path deny rules name, found
// when a call is about to run (they may have been made since the last one):
// the tools' hidden places (read_file, grep and the rest refuse or leave them
// out) and what the sandbox hides from a command (an empty folder, an empty
// file). A literal path or `dir/**` is looked up; any other glob walks the
// workspace (links not followed, at most WALK_LIMIT entries).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathDenied } from '../settings/deny-match';

const WALK_LIMIT = 100_000;

/** The real paths under `workspace` that `globs` deny, outermost only; `cut`: the walk stopped at its limit. */
export async function deniedPlaces(
  workspace: string,
  globs: readonly string[],
): Promise<{ places: string[]; cut: boolean }> {
  if (globs.length === 0) return { places: [], cut: false };
  const root = await fs.promises.realpath(workspace);
  // A glob with a `/` names a path from the workspace's top; one without matches a name in any folder.
  const literal = globs.map((g) => (g.includes('/') ? g.replace(/^\.\//, '').replace(/\/(\*\*)?$/, '') : null));
  if (literal.every((g) => g !== null && !/[*?[\]{}]/.test(g))) {
    const found = await Promise.all(literal.map((g) => exists(path.join(root, g as string))));
    return { places: found.filter((p): p is string => p !== null), cut: false };
  }
  return walk(root, globs);
}

async function exists(p: string): Promise<string | null> {
  try {
    await fs.promises.lstat(p);
    return p;
  } catch {
    return null;
  }
}

async function walk(root: string, globs: readonly string[]): Promise<{ places: string[]; cut: boolean }> {
  const places: string[] = [];
  const queue: string[] = [''];
  let seen = 0;
  while (queue.length > 0) {
    const rel = queue.shift() as string;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(path.join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > WALK_LIMIT) return { places, cut: true };
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (globs.some((g) => pathDenied(g, child))) places.push(path.join(root, child));
      else if (e.isDirectory()) queue.push(child);
    }
  }
  return { places, cut: false };
}

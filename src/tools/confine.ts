// Where the file tools may go: a path the model names is resolved for real and
// must lie in the workspace (or a directory the person added), never in milk's
// data dir or a place the deny rules name; a write never goes through a
// symbolic link, to a file that is not regular, or to one with other hard
// links; a write to a control file (what git or milk runs or reads as
// configuration: control-files.ts) is always asked.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Bounds } from './tool';
import { controlReason } from './control-files';

export class ToolPathError extends Error {}

/** `p` is `root` or somewhere below it (both resolved). */
export function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root + path.sep);
}

/** `hidden`'s places as real paths (one that does not exist, as given). */
export function realPlaces(hidden: readonly string[]): Promise<string[]> {
  return Promise.all(hidden.map((h) => fs.promises.realpath(h).catch(() => path.resolve(h))));
}

/** The workspace and the added directories, as real paths (an added one that is gone is left out). */
async function roots(workspace: string, also: readonly string[] = []): Promise<string[]> {
  const more = await Promise.all(also.map((d) => fs.promises.realpath(d).catch(() => null)));
  return [await fs.promises.realpath(workspace), ...more.filter((d): d is string => d !== null)];
}

function outside(p: string, also: readonly string[] | undefined, how: 'is' | 'leads'): ToolPathError {
  const where = also?.length ? 'the workspace and the added directories' : 'the workspace';
  return new ToolPathError(`${p} ${how} outside ${where}`);
}

/**
 * Refuses a path in a place no tool may reach (milk's data dir), wherever it lies, the workspace included; but a
 * workspace that lies inside such a place (a worktree milk made in its data dir) is reachable, and only it.
 */
async function notHidden(p: string, real: string, bounds: Bounds, root: string): Promise<void> {
  const within = async (places: readonly string[] = []): Promise<boolean> =>
    places.length > 0 && (await realPlaces(places)).some((h) => inside(h, real));
  const hides = (h: string): boolean => inside(h, real) && !(inside(h, root) && inside(root, real));
  if ((await realPlaces(bounds.hidden ?? [])).some(hides))
    throw new ToolPathError(`${p} is in milk's own data folder, which no tool may reach`);
  if (await within(bounds.denied))
    throw new ToolPathError(`${p} is named by the person's deny rules, which no tool may pass`);
}

/**
 * Resolves a path the model gave for reading: its real location must be inside the workspace and outside `hidden`
 * (real paths).
 */
export async function confineRead(workspace: string, p: string, bounds: Bounds = {}): Promise<string> {
  const also = [...(bounds.also ?? []), ...(bounds.readOnly ?? [])];
  const all = await roots(workspace, also);
  const target = path.resolve(all[0], p);
  if (!all.some((r) => inside(r, target))) throw outside(p, also, 'is');
  const real = await fs.promises.realpath(target);
  if (!all.some((r) => inside(r, real))) throw outside(p, also, 'leads');
  // A used skill's own folder may lie in the data dir (its skills/): it is readable, nothing else of the data dir is
  // (a link out of the folder is judged where it leads).
  const skill = bounds.readOnly?.length && (await realPlaces(bounds.readOnly)).some((r) => inside(r, real));
  await notHidden(p, real, skill ? { ...bounds, hidden: [] } : bounds, all[0]);
  return real;
}

/**
 * Resolves a path the model gave for writing. The folder is resolved for
 * real and must be inside the workspace; the file itself must not be a
 * symlink (dangling or not), anything but a regular file, or a file with
 * other hard links (writing it would change a file elsewhere).
 */
export async function confineWrite(workspace: string, p: string, bounds: Bounds = {}): Promise<string> {
  const all = await roots(workspace, bounds.also);
  const target = path.resolve(all[0], p);
  if (!all.some((r) => inside(r, target)) || all.includes(target)) throw outside(p, bounds.also, 'is');
  let folder: string;
  try {
    folder = await fs.promises.realpath(path.dirname(target));
  } catch {
    throw new ToolPathError(`${path.dirname(p) || '.'}: no such folder in the workspace`);
  }
  if (!all.some((r) => inside(r, folder))) throw outside(p, bounds.also, 'leads');
  const file = path.join(folder, path.basename(target));
  await notHidden(p, file, bounds, all[0]);
  let st: fs.Stats | null = null;
  try {
    st = await fs.promises.lstat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (st?.isSymbolicLink()) throw new ToolPathError(`${p} is a symbolic link; refusing to write through it`);
  if (st && !st.isFile()) throw new ToolPathError(`${p} is not a regular file`);
  if (st && st.nlink > 1)
    throw new ToolPathError(`${p} has other hard links; refusing to change a file shared with another path`);
  return file;
}

/**
 * Why a write to `p` is always put to the person (it changes a control file: tools/control-files.ts); null if not.
 * `named`: the workspace files hooks and MCP servers name, as real paths.
 */
export async function writeGuard(workspace: string, p: string, named: readonly string[] = []): Promise<string | null> {
  let file: string;
  try {
    file = await confineWrite(workspace, p);
  } catch {
    // Refused when it runs, with the reason.
    return null;
  }
  const root = await fs.promises.realpath(workspace);
  const rel = (f: string): string => path.relative(root, f).split(path.sep).join('/');
  return controlReason(rel(file), new Set(named.map(rel)));
}

// A file put back from the workspace's snapshot store, as a rewind or /undo does: its bytes from the store, written
// into a new file renamed over the old one, never through a link on its way.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StoreGit } from './snapshot-git';

/** A file put back from the store: into a new file renamed over it (never half a file, a link not followed). */
export async function writeEntry(
  repo: StoreGit,
  workspace: string,
  file: string,
  entry: { mode: string; blob: string },
): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  await safeFolder(file, workspace);
  const r = await repo.git(['cat-file', 'blob', entry.blob]);
  if (r.code !== 0) throw new Error(r.err.trim() || 'not in the store');
  const tmp = `${file}.milk-restore-${process.pid}-${Math.random().toString(36).slice(2)}`;
  if (entry.mode === '120000') await fs.promises.symlink(r.out.toString('utf8'), tmp);
  else await fs.promises.writeFile(tmp, r.out, { flag: 'wx', mode: entry.mode === '100755' ? 0o755 : 0o644 });
  await fs.promises.rename(tmp, file);
}

/** Refuses a path whose folder is not where it should be: a link planted on the way would lead out of the workspace. */
async function safeFolder(file: string, workspace: string): Promise<void> {
  const dir = path.dirname(file);
  const real = await fs.promises.realpath(dir).catch(() => null);
  if (real === null) throw new Error('its folder is gone');
  if (real !== dir) throw new Error('a folder on its path is a symbolic link; not followed');
  if (real !== workspace && !real.startsWith(workspace + path.sep)) throw new Error('outside the workspace');
}

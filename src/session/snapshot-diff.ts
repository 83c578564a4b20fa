// /diff's half of the workspace's snapshots: the workspace's tree now against what a base says its files were (a
// file tool's copy, a stored entry, or none), built in a scratch index of its own, never the snapshots'.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_OUTPUT, type StoreGit } from './snapshot-git';
import type { TreeEntry } from './snapshot-plan';

const NO_BLOB = '0'.repeat(40);

/** A file as /diff compares it: what it was (a file tool's copy, a stored entry, or none), by its path in the tree. */
export type DiffBase = { rel: string } & ({ copy: string } | { entry: TreeEntry } | { absent: true });

/** git's unified diff from `base` (every other file as in `now`) to the tree `now`, or why there is none. */
export async function diffAgainst(
  repo: StoreGit,
  store: string,
  now: string,
  base: readonly DiffBase[],
): Promise<{ text: string; cut: boolean } | { error: string }> {
  const scratch = path.join(store, `index-diff-${process.pid}`);
  try {
    await repo.must(['read-tree', now], { index: scratch });
    const copies = base.flatMap((b) => ('copy' in b ? [b.copy] : []));
    const blobs = copies.length
      ? (await repo.must(['hash-object', '-w', '--no-filters', '--', ...copies])).split('\n')
      : [];
    const records: string[] = [];
    let i = 0;
    for (const b of base) {
      if ('absent' in b) records.push(`0 ${NO_BLOB}\t${b.rel}`);
      else if ('entry' in b) records.push(`${b.entry.mode} ${b.entry.blob}\t${b.rel}`);
      else {
        const exec = ((await fs.promises.stat(b.copy)).mode & 0o111) !== 0;
        records.push(`${exec ? '100755' : '100644'} ${blobs[i++]}\t${b.rel}`);
      }
    }
    await repo.must(['update-index', '-z', '--index-info'], { index: scratch, stdin: records.join('\0') });
    const from = (await repo.must(['write-tree'], { index: scratch })).trim();
    const args = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', from, now];
    const r = await repo.git(args);
    if (r.code !== 0) return { error: r.err.trim() || `git diff exited with ${r.code}` };
    return { text: r.out.toString('utf8'), cut: r.out.length >= MAX_OUTPUT };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    await fs.promises.rm(scratch, { force: true });
  }
}

// Copies of the files write_file and edit_file change, kept in the data dir
// before each change (once per file per turn), so that a rewind can put them
// back; and the hash of what milk last wrote to each, so that a file changed
// since by anything else is reported instead of overwritten (restore.ts
// decides). The copies are this process's: a rewind after a restart takes
// the conversation back, not the files.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { maxOf } from '../kernel/arrays';
import type { CopyRecord } from './restore';

export interface RestoreReport {
  restored: string[];
  removed: string[];
  /** Changed since milk wrote them: left as they are. */
  changed: string[];
  /** Could not be put back, and why. */
  failed: string[];
  /** There before the turn though not stored (ignored then): never removed. */
  kept?: string[];
  /** What was put back otherwise than it was (a setuid bit dropped), per file. */
  notes?: string[];
}

async function hashOf(file: string): Promise<string | null> {
  try {
    // Loaded at the first copy, not at start-up (node:crypto takes 7–15 ms to load).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createHash } = require('node:crypto') as typeof import('node:crypto');
    return createHash('sha256')
      .update(await fs.promises.readFile(file))
      .digest('hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Whether process `pid` runs (one of another user's counts). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A folder's names, none when it cannot be read. */
function names(dir: string): Promise<string[]> {
  return new Promise((resolve) => fs.readdir(dir, (err, list) => resolve(err ? [] : list)));
}

/**
 * Removes the copies of every milk that is no longer running (one killed with -9 could not remove its own, and they
 * may hold a `.env`): each process's folder is named pid-time, and one whose pid is alive is left alone. Through
 * fs's callbacks: fs.promises costs a module load (~4 ms) that an idle screen would pay for this alone.
 */
export async function sweepCopies(root: string, alive: (pid: number) => boolean = running): Promise<void> {
  for (const session of await names(root)) {
    const dir = path.join(root, session);
    const runs = await names(dir);
    let left = runs.length;
    for (const run of runs) {
      const pid = Number(/^(\d+)-/.exec(run)?.[1]);
      if (!pid || pid === process.pid || alive(pid)) continue;
      await new Promise<void>((done) => fs.rm(path.join(dir, run), { recursive: true, force: true }, () => done()));
      left--;
    }
    if (left === 0) await new Promise<void>((done) => fs.rmdir(dir, () => done()));
  }
}

export class Checkpoints {
  private readonly records: CopyRecord[] = [];
  /** Per file, the hash of what milk last left there (null: it removed it, or left it absent). */
  private readonly written = new Map<string, string | null>();
  private readonly taken = new Set<string>();
  private count = 0;

  /**
   * `dir`: where copies go (created when first needed, 0700); null keeps none, and a rewind restores no file.
   * `order`: the clock a copy is stamped with, shared with the turns' snapshots (snapshots.ts).
   */
  constructor(
    private readonly dir: string | null,
    private readonly order: () => number = counter(),
  ) {}

  /** Before milk changes `file` (its real path) in turn `turn`: a copy of it as it is, the first time this turn. */
  async before(file: string, turn: number): Promise<void> {
    const key = `${turn}\0${file}`;
    if (!this.dir || this.taken.has(key)) return;
    this.taken.add(key);
    const at = this.order();
    let copy: string | null = null;
    try {
      const st = await fs.promises.lstat(file);
      if (st.isFile()) {
        await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
        copy = path.join(this.dir, `${++this.count}-${path.basename(file)}`);
        await fs.promises.copyFile(file, copy);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    this.records.push({ turn, at, file, copy });
    if (!this.written.has(file)) this.written.set(file, copy === null ? null : await hashOf(copy));
  }

  /** After milk wrote `file`: what it left there. */
  async after(file: string): Promise<void> {
    this.written.set(file, await hashOf(file));
  }

  /** The latest turn that changed a file, or null. */
  lastTurn(): number | null {
    return this.records.length === 0 ? null : maxOf(this.records.map((s) => s.turn));
  }

  /** The copies taken in turn `turn` or later. */
  since(turn: number): CopyRecord[] {
    return this.records.filter((r) => r.turn >= turn);
  }

  /** Of `files`, those that still hold what milk last wrote there. */
  async untouched(files: Iterable<string>): Promise<Set<string>> {
    const out = new Set<string>();
    for (const file of files) if ((await hashOf(file)) === (this.written.get(file) ?? null)) out.add(file);
    return out;
  }

  /** After a rewind to `turn`: what milk left in `files`, and the copies from it on spent. */
  async rewound(turn: number, files: readonly string[]): Promise<void> {
    for (const file of files) this.written.set(file, await hashOf(file));
    for (let i = this.records.length - 1; i >= 0; i--) if (this.records[i].turn >= turn) this.records.splice(i, 1);
  }
}

/** A clock of its own, where no shared one is given. */
function counter(): () => number {
  let n = 0;
  return () => ++n;
}

// Copies of the files write_file and edit_file change, kept in the data dir
// before each change (once per file per turn), so that a rewind can put them
// back; and the hash of what milk last wrote to each, so that a file changed
// since by anything else is reported instead of overwritten (restore.ts
// decides). The copies are this process's: a rewind after a restart takes
// the conversation back, not the files.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { maxOf } from '../arrays';
import { FileNow, RestoreStep, Snapshot, filesSince, planRestore } from './restore';

export interface RestoreReport {
  restored: string[];
  removed: string[];
  /** Changed since milk wrote them: left as they are. */
  changed: string[];
  /** Could not be put back, and why. */
  failed: string[];
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

/**
 * Refuses a file whose folder is no longer where milk wrote it: a later command may have swapped a folder on its path
 * for a symbolic link, and a restore through it would write or delete outside the workspace. `file` is the real path
 * milk wrote, so its folder resolves to itself while no part of it is a link.
 */
async function unlinked(file: string): Promise<void> {
  const dir = path.dirname(file);
  let real: string;
  try {
    real = await fs.promises.realpath(dir);
  } catch {
    throw new Error('its folder is gone');
  }
  if (real !== dir) throw new Error('a folder on its path is now a symbolic link; not followed');
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the copies of every milk that is no longer running (one killed with -9 could not remove its own, and they
 * may hold a `.env`): each process's folder is named pid-time, and one whose pid is alive is left alone.
 */
export async function sweepCopies(root: string, alive: (pid: number) => boolean = running): Promise<void> {
  let sessions: string[];
  try {
    sessions = await fs.promises.readdir(root);
  } catch {
    return;
  }
  for (const session of sessions) {
    const dir = path.join(root, session);
    const runs = await fs.promises.readdir(dir).catch(() => [] as string[]);
    let left = runs.length;
    for (const run of runs) {
      const pid = Number(/^(\d+)-/.exec(run)?.[1]);
      if (!pid || pid === process.pid || alive(pid)) continue;
      await fs.promises.rm(path.join(dir, run), { recursive: true, force: true }).catch(() => undefined);
      left--;
    }
    if (left === 0) await fs.promises.rmdir(dir).catch(() => undefined);
  }
}

export class Checkpoints {
  private readonly snapshots: Snapshot[] = [];
  /** Per file, the hash of what milk last left there (null: it removed it, or left it absent). */
  private readonly written = new Map<string, string | null>();
  private readonly taken = new Set<string>();
  private count = 0;

  /** `dir`: where copies go (created when first needed, 0700); null keeps none, and a rewind restores no file. */
  constructor(private readonly dir: string | null) {}

  /** Before milk changes `file` (its real path) in turn `turn`: a copy of it as it is, the first time this turn. */
  async before(file: string, turn: number): Promise<void> {
    const key = `${turn}\0${file}`;
    if (!this.dir || this.taken.has(key)) return;
    this.taken.add(key);
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
    this.snapshots.push({ turn, file, copy });
    if (!this.written.has(file)) this.written.set(file, copy === null ? null : await hashOf(copy));
  }

  /** After milk wrote `file`: what it left there. */
  async after(file: string): Promise<void> {
    this.written.set(file, await hashOf(file));
  }

  /** The latest turn that changed a file, or null. */
  lastTurn(): number | null {
    return this.snapshots.length === 0 ? null : maxOf(this.snapshots.map((s) => s.turn));
  }

  /** The files changed in turn `turn` or later, which a rewind to it would put back. */
  files(turn: number): string[] {
    return filesSince(this.snapshots, turn);
  }

  /** Puts back the files changed in turn `turn` or later, as restore.ts plans; the copies taken since are spent. */
  async restore(turn: number): Promise<RestoreReport> {
    const now = new Map<string, FileNow>();
    for (const file of this.files(turn))
      now.set(file, { hash: await hashOf(file), lastWritten: this.written.get(file) ?? null });
    const steps = planRestore(this.snapshots, turn, (f) => now.get(f) as FileNow);
    const report: RestoreReport = { restored: [], removed: [], changed: [], failed: [] };
    for (const step of steps) await this.apply(step, report);
    for (let i = this.snapshots.length - 1; i >= 0; i--)
      if (this.snapshots[i].turn >= turn) this.snapshots.splice(i, 1);
    return report;
  }

  private async apply(step: RestoreStep, report: RestoreReport): Promise<void> {
    try {
      if (step.kind === 'changed') return void report.changed.push(step.file);
      if (step.kind === 'remove') {
        await unlinked(step.file);
        await fs.promises.rm(step.file, { force: true });
        report.removed.push(step.file);
      } else {
        await unlinked(step.file);
        // A new file renamed over the old: never half a file, and a link planted meanwhile is replaced, not followed.
        // Its name is not guessable and it is made only if nothing is there (a link planted at it is not followed).
        const tmp = `${step.file}.milk-restore-${process.pid}-${Math.random().toString(36).slice(2)}`;
        await fs.promises.copyFile(step.copy, tmp, fs.constants.COPYFILE_EXCL);
        await fs.promises.rename(tmp, step.file);
        report.restored.push(step.file);
      }
      this.written.set(step.file, await hashOf(step.file));
    } catch (err) {
      report.failed.push(`${step.file} (${(err as Error).message})`);
    }
  }
}

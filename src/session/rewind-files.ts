// What a rewind and /undo put back, and what /diff shows: from the file
// tools' copies (checkpoints.ts), taken in every turn, and the workspace's
// snapshots (snapshots.ts), taken only in the turns that ran a command;
// restore.ts decides, file by file, from the earliest record since the turn.
// Loaded at the first rewind, /undo or /diff, never at start-up.

import * as path from 'node:path';
import type { Checkpoints, RestoreReport } from './checkpoints';
import { RewindRecords, filesBefore, planRewind } from './restore';
import type { DiffBase, Snapshots } from './snapshots';

export interface RewindFilesOptions {
  /** The workspace's real path. */
  readonly workspace: string;
  readonly copies: Checkpoints;
  /** The snapshots' store: null while no turn has taken one (`make`: made now, for /diff), or without a data dir. */
  readonly snapshots: (o: { make: boolean }) => Snapshots | null;
}

export class RewindFiles {
  /** The turns a rewind or /undo went back from (their changes are undone: none is left to show). */
  private readonly undone = new Set<number>();

  constructor(private readonly o: RewindFilesOptions) {}

  /** Whether turn `turn`'s changes were put back already (else a turn with none to undo changed nothing). */
  wasUndone(turn: number): boolean {
    return this.undone.has(turn);
  }

  /**
   * The files a rewind to turn `turn` would put back or remove (those changed since by something else too: reported
   * after); not those it keeps.
   */
  async files(turn: number): Promise<string[]> {
    return planRewind(await this.records(turn)).flatMap((s) => (s.kind === 'kept' ? [] : [s.file]));
  }

  /** Puts back the files changed from turn `turn` on; those changed since by something else are left and reported. */
  async restore(turn: number): Promise<RestoreReport> {
    const snapshots = this.o.snapshots({ make: false });
    const steps = planRewind(await this.records(turn));
    const report: RestoreReport = { restored: [], removed: [], changed: [], failed: [] };
    const { copies } = this.o;
    for (const step of steps) {
      try {
        if (step.kind === 'changed') report.changed.push(step.file);
        else if (step.kind === 'kept') (report.kept ??= []).push(step.file);
        else if (step.kind === 'remove') {
          await copies.remove(step.file);
          report.removed.push(step.file);
        } else {
          // A stored entry comes from a turn's snapshot: there is a store.
          if (step.kind === 'copy') await copies.putBack(step.file, step.copy);
          else await (snapshots as Snapshots).write(step.file, step.entry);
          report.restored.push(step.file);
        }
      } catch (err) {
        report.failed.push(`${step.file} (${(err as Error).message})`);
      }
    }
    await copies.rewound(turn, [...report.restored, ...report.removed]);
    await snapshots?.rewound(turn);
    this.undone.add(turn);
    return report;
  }

  /** The latest turn that changed a file or ran a command, or null. */
  async lastTurn(): Promise<number | null> {
    const a = this.o.copies.lastTurn();
    const b = (await this.o.snapshots({ make: false })?.lastTurn()) ?? null;
    return a === null ? b : b === null ? a : Math.max(a, b);
  }

  /** Everything milk's turns changed in the workspace since turn `turn` began, as git's diff. */
  async diff(turn: number): Promise<{ text: string; cut: boolean } | { error: string }> {
    const snapshots = this.o.snapshots({ make: true });
    if (!snapshots) return { error: 'no record of the workspace here' };
    const base: DiffBase[] = [];
    for (const f of filesBefore(await this.records(turn))) {
      // What was not stored has no before to show: it is left out of the diff, as it is of the rewind.
      if (f.rel === null || f.before.kind === 'unstored') continue;
      const b = f.before;
      base.push(
        b.kind === 'copy'
          ? { rel: f.rel, copy: b.copy }
          : b.kind === 'entry'
            ? { rel: f.rel, entry: b.entry }
            : { rel: f.rel, absent: true },
      );
    }
    return snapshots.diffFrom(base);
  }

  /** Everything restore.ts needs to decide, from turn `turn` on. */
  private async records(turn: number): Promise<RewindRecords> {
    const copies = this.o.copies.since(turn);
    const { turns, now } = (await this.o.snapshots({ make: false })?.turnsFrom(turn)) ?? { turns: [], now: null };
    const untouched = await this.o.copies.untouched(new Set(copies.map((c) => c.file)));
    const ws = this.o.workspace;
    return {
      seq: turn,
      copies,
      turns,
      now,
      abs: (rel) => path.join(ws, rel),
      rel: (file) => {
        const rel = path.relative(ws, file);
        return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : null;
      },
      untouchedSinceCopy: (file) => untouched.has(file),
    };
  }
}

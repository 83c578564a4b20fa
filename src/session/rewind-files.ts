// What a rewind and /undo put back, and what /diff shows: from the file
// tools' copies (checkpoints.ts), taken in every turn, and the workspace's
// snapshots (snapshots.ts), taken only in the turns that ran a command;
// restore.ts decides, file by file, from the earliest record since the turn.
// Loaded at the first rewind, /undo or /diff, never at start-up.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Checkpoints, RestoreReport } from './checkpoints';
import { umaskNow } from './contained';
import { RewindRecords, type RewindStep, filesBefore, planRewind } from './restore';
import { restoreContained } from './restore-contained';
import type { PlannedOp } from './restore-ops';
import { type Giver, settle } from './snapshot-modes';
import { reposAround } from './snapshot-nested';
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

  /** Of `files`, the nested repositories' own histories around them, which no snapshot holds (`lib/.git`). */
  uncovered(files: readonly string[]): string[] {
    return reposAround(this.o.workspace, files);
  }

  /** Puts back the files changed from turn `turn` on; those changed since by something else are left and reported. */
  async restore(turn: number): Promise<RestoreReport> {
    const snapshots = this.o.snapshots({ make: false });
    const steps = planRewind(await this.records(turn));
    const report: RestoreReport = { restored: [], removed: [], changed: [], failed: [] };
    const inside: Array<{ step: RewindStep; op: PlannedOp }> = [];
    const outside: Array<{ step: RewindStep; op: PlannedOp }> = [];
    let giver: Giver | undefined;
    for (const step of steps) {
      if (step.kind === 'changed') report.changed.push(step.file);
      else if (step.kind === 'kept') (report.kept ??= []).push(step.file);
      else {
        const rel = this.rel(step.file);
        const op = await opOf(step, rel ?? step.file.slice(1), (giver ??= giverNow()));
        if (op.note) (report.notes ??= []).push(`${step.file}: ${op.note}`);
        if (op.op) (rel === null ? outside : inside).push({ step, op: op.op });
        else report.failed.push(`${step.file} (its copy is gone)`);
      }
    }
    const repo = snapshots?.git ?? null;
    for (const [root, list] of [
      [this.o.workspace, inside],
      ['/', outside],
    ] as const) {
      if (list.length === 0) continue;
      const { errors } = await restoreContained({ root, repo, ops: list.map((s) => s.op) });
      list.forEach(({ step }, i) => {
        const error = errors[i];
        if (error) report.failed.push(`${step.file} (${error})`);
        else (step.kind === 'remove' ? report.removed : report.restored).push(step.file);
      });
    }
    for (const list of [report.restored, report.removed, report.failed]) list.sort();
    await this.o.copies.rewound(turn, [...report.restored, ...report.removed]);
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
      rel: (file) => this.rel(file),
      untouchedSinceCopy: (file) => untouched.has(file),
    };
  }

  /** A file's path from the workspace, with / (null: not in it). */
  private rel(file: string): string | null {
    const rel = path.relative(this.o.workspace, file);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : null;
  }
}

/** What a step does to `rel`: a copy's bytes and mode, a stored entry's, or a removal; null: its copy is gone. */
async function opOf(step: RewindStep, rel: string, giver: Giver): Promise<{ op: PlannedOp | null; note?: string }> {
  if (step.kind === 'remove') return { op: { kind: 'remove', rel } };
  if (step.kind === 'copy') {
    const st = await fs.promises.stat(step.copy).catch(() => null);
    return { op: st && { kind: 'write', rel, mode: st.mode & 0o777, from: { copy: step.copy } } };
  }
  if (step.kind !== 'write') return { op: null };
  const { mode, owner, note } = settle(step.entry, giver);
  const link = step.entry.mode === '120000';
  return { op: { kind: 'write', rel, mode, owner, link, from: { blob: step.entry.blob } }, note };
}

/** Who milk is here, and (as root) which user and group ids exist to give files back to. */
function giverNow(): Giver {
  const uid = process.getuid?.() ?? 0;
  const ids = (file: string): Set<number> => {
    if (uid !== 0) return new Set();
    try {
      return new Set(
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .map((l) => Number(l.split(':')[2])),
      );
    } catch {
      return new Set();
    }
  };
  return { uid, gid: process.getgid?.() ?? 0, umask: umaskNow(), users: ids('/etc/passwd'), groups: ids('/etc/group') };
}

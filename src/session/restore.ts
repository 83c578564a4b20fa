// Rewind's file half, as data: which files go back, and to what, when a
// conversation is taken back to an earlier input (or /undo takes back the last
// turn). Two records are kept of what turns changed: the copies the file tools
// take before a file's first change in a turn (checkpoints.ts), in every turn,
// and the workspace's snapshots (snapshots.ts), only in the turns that ran a
// command: before its first command and at its end. Per file, the earliest
// record from the turn rewound to on is what that turn found. A file that is
// no longer what milk's last change left (the person, an editor, another
// program changed it since) is reported, never overwritten. Pure.

import { type Tree, type TreeEntry, changedBetween, same } from './snapshot-plan';

/** A file tool's copy of a file before its first change in a turn; `at` orders it among the turn's snapshot. */
export interface CopyRecord {
  /** The turn (input number in the conversation, from 0) whose change it precedes. */
  readonly turn: number;
  readonly at: number;
  /** Its real path. */
  readonly file: string;
  /** Where the copy is (null: the file did not exist). */
  readonly copy: string | null;
}

/** A turn that ran a command: the workspace before its first command (taken at `at`), and at its end. */
export interface TreeTurn {
  readonly seq: number;
  readonly at: number;
  readonly start: Tree;
  /** Null while it runs, or when its end's snapshot could not be taken: the workspace now stands in. */
  readonly end: Tree | null;
  /**
   * What was there at its start but not stored, being ignored then (a folder ends in /): a rewind never removes it.
   * Absent: nothing known.
   */
  readonly ignored?: readonly string[];
}

/** What a file was when the turn rewound to began. */
export type Before =
  | { readonly kind: 'copy'; readonly copy: string }
  | { readonly kind: 'entry'; readonly entry: TreeEntry }
  | { readonly kind: 'absent' }
  /** There, but not stored (ignored at the turn's start): nothing to put back, and not to be removed. */
  | { readonly kind: 'unstored' };

export interface FileBefore {
  /** Its path as the copies name files (absolute). */
  readonly file: string;
  /** Its path in the snapshots' trees (from the workspace, with /), where it lies in the workspace. */
  readonly rel: string | null;
  readonly before: Before;
  /** It still holds what milk's last change left there. */
  readonly untouched: boolean;
  /** It is already what it was (known where both are stored entries). */
  readonly unchanged: boolean;
}

export interface RewindRecords {
  /** The turn rewound to: every record from it on counts. */
  readonly seq: number;
  readonly copies: readonly CopyRecord[];
  readonly turns: readonly TreeTurn[];
  /** The workspace's tree now: needed when `turns` holds one from `seq` on. */
  readonly now: Tree | null;
  /** A tree's path as the copies name it (absolute), and back (null: not in the workspace). */
  readonly abs: (rel: string) => string;
  readonly rel: (file: string) => string | null;
  /** For a file milk's file tools changed last: whether it still holds what they wrote. */
  readonly untouchedSinceCopy: (file: string) => boolean;
}

export type RewindStep =
  | { readonly kind: 'copy'; readonly file: string; readonly copy: string }
  | { readonly kind: 'write'; readonly file: string; readonly entry: TreeEntry }
  | { readonly kind: 'remove'; readonly file: string }
  | { readonly kind: 'changed'; readonly file: string }
  | { readonly kind: 'kept'; readonly file: string };

interface Seen {
  rel: string | null;
  first: { at: number; before: Before };
  /** milk's last change: by a file tool (`copy`), or a turn's commands (what its end left: `left`). */
  last: { turn: number; at: number } & ({ by: 'copy' } | { by: 'tree'; left: TreeEntry | undefined });
}

const later = (a: { turn: number; at: number }, b: { turn: number; at: number }): boolean =>
  a.turn !== b.turn ? a.turn > b.turn : a.at > b.at;

/** Each file some turn from `seq` on changed, with what it was when `seq` began; sorted by path. */
export function filesBefore(r: RewindRecords): FileBefore[] {
  const seen = new Map<string, Seen>();
  const note = (file: string, rel: string | null, at: number, before: Before, last: Seen['last']): void => {
    const had = seen.get(file);
    if (!had) return void seen.set(file, { rel, first: { at, before }, last });
    if (at < had.first.at) had.first = { at, before };
    if (later(last, had.last)) had.last = last;
  };
  for (const c of r.copies) {
    if (c.turn < r.seq) continue;
    const before: Before = c.copy === null ? { kind: 'absent' } : { kind: 'copy', copy: c.copy };
    note(c.file, r.rel(c.file), c.at, before, { turn: c.turn, at: c.at, by: 'copy' });
  }
  for (const t of r.turns) {
    if (t.seq < r.seq) continue;
    const end = t.end ?? r.now ?? new Map();
    const unstored = ignoredAt(t.ignored ?? []);
    for (const rel of changedBetween(t.start, end)) {
      const entry = t.start.get(rel);
      const before: Before = entry
        ? { kind: 'entry', entry }
        : unstored(rel)
          ? { kind: 'unstored' }
          : { kind: 'absent' };
      // A turn's end comes after every change within it.
      note(r.abs(rel), rel, t.at, before, { turn: t.seq, at: Infinity, by: 'tree', left: end.get(rel) });
    }
  }
  const out: FileBefore[] = [];
  for (const file of [...seen.keys()].sort()) {
    const { rel, first, last } = seen.get(file) as Seen;
    const now = rel === null ? undefined : r.now?.get(rel);
    const untouched = last.by === 'copy' ? r.untouchedSinceCopy(file) : same(last.left, now);
    const known = r.now !== null && rel !== null;
    const unchanged =
      known && (first.before.kind === 'entry' ? same(first.before.entry, now) : first.before.kind === 'absent' && !now);
    out.push({ file, rel, before: first.before, untouched, unchanged });
  }
  return out;
}

/** Whether a path was listed as ignored (git's --directory list: a folder once, ending in /) or lies under one. */
function ignoredAt(listed: readonly string[]): (rel: string) => boolean {
  if (listed.length === 0) return () => false;
  const files = new Set(listed.filter((l) => !l.endsWith('/')));
  const folders = listed.filter((l) => l.endsWith('/'));
  return (rel) => files.has(rel) || folders.some((f) => rel.startsWith(f));
}

/** What going back to the start of turn `seq` does, file by file. */
export function planRewind(r: RewindRecords): RewindStep[] {
  const steps: RewindStep[] = [];
  for (const f of filesBefore(r)) {
    if (f.unchanged) continue;
    if (f.before.kind === 'unstored') steps.push({ kind: 'kept', file: f.file });
    else if (!f.untouched) steps.push({ kind: 'changed', file: f.file });
    else if (f.before.kind === 'absent') steps.push({ kind: 'remove', file: f.file });
    else if (f.before.kind === 'copy') steps.push({ kind: 'copy', file: f.file, copy: f.before.copy });
    else steps.push({ kind: 'write', file: f.file, entry: f.before.entry });
  }
  return steps;
}

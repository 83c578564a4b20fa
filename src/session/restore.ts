// Rewind's file half, as data: which files to put back, from the copies kept
// before milk changed them, when a conversation is taken back to an earlier
// input. A file changed since milk last wrote it (by the person, an editor, a
// command) is reported, never overwritten. Pure.

/** A file as milk found it before the first change in some turn: its content, or that it did not exist. */
export interface Snapshot {
  /** The turn (input number in the conversation, from 0) whose change it precedes. */
  turn: number;
  file: string;
  /** Where the copy is (null: the file did not exist). */
  copy: string | null;
}

/** A file's state now, and the hash milk left it with at its last write. */
export interface FileNow {
  /** Hash of its content now; null when it does not exist. */
  hash: string | null;
  /** Hash of what milk last wrote there; null when milk's last act left it absent. */
  lastWritten: string | null;
}

export type RestoreStep =
  | { kind: 'restore'; file: string; copy: string }
  | { kind: 'remove'; file: string }
  | { kind: 'changed'; file: string };

/**
 * For a rewind to input `turn`: each file changed in that turn or later goes
 * back to the copy taken before its first such change (or away, if it did
 * not exist then), unless its content is no longer what milk left.
 */
export function planRestore(
  snapshots: readonly Snapshot[],
  turn: number,
  now: (file: string) => FileNow,
): RestoreStep[] {
  const first = new Map<string, Snapshot>();
  for (const s of snapshots) {
    if (s.turn < turn) continue;
    const had = first.get(s.file);
    if (!had || s.turn < had.turn) first.set(s.file, s);
  }
  const steps: RestoreStep[] = [];
  for (const [file, s] of [...first.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const state = now(file);
    if (state.hash !== state.lastWritten) steps.push({ kind: 'changed', file });
    else if (s.copy === null) steps.push({ kind: 'remove', file });
    else steps.push({ kind: 'restore', file, copy: s.copy });
  }
  return steps;
}

/** The files a rewind to `turn` would put back, for the question. */
export function filesSince(snapshots: readonly Snapshot[], turn: number): string[] {
  return [...new Set(snapshots.filter((s) => s.turn >= turn).map((s) => s.file))].sort();
}

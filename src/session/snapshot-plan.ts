// What a rewind (or /undo) does to the workspace's files with snapshots
// (session/snapshots.ts): every file some turn from the one rewound to on
// changed — by a tool, a command, a code generator — goes back to what the
// snapshot at that turn's start held (or away, if it held none), unless it
// is no longer what the last of those turns left (someone else changed it
// since: reported, left alone). Trees are git's, read as path → blob. Pure.

/** A file in a snapshot: its mode (git's: 100644, 100755, 120000) and blob. */
export interface TreeEntry {
  readonly mode: string;
  readonly blob: string;
}

export type Tree = ReadonlyMap<string, TreeEntry>;

/** A turn's snapshots: at its start, and at its end (null while it runs, or when the end's could not be taken). */
export interface TurnTrees {
  readonly seq: number;
  readonly start: Tree;
  readonly end: Tree | null;
}

export type SnapshotStep =
  | { readonly kind: 'write'; readonly file: string; readonly entry: TreeEntry }
  | { readonly kind: 'remove'; readonly file: string }
  | { readonly kind: 'changed'; readonly file: string };

const same = (a: TreeEntry | undefined, b: TreeEntry | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.blob === b.blob && a.mode === b.mode);

/** The files that differ between two trees, sorted. */
export function changedBetween(a: Tree, b: Tree): string[] {
  const out = new Set<string>();
  for (const [file, entry] of a) if (!same(entry, b.get(file))) out.add(file);
  for (const file of b.keys()) if (!a.has(file)) out.add(file);
  return [...out].sort();
}

/**
 * Going back to the start of turn `seq`: for each file a turn from it on changed, the step that puts it back; `now`
 * is the workspace as it is.
 */
export function planSnapshotRestore(turns: readonly TurnTrees[], seq: number, now: Tree): SnapshotStep[] {
  const from = turns.find((t) => t.seq === seq);
  if (!from) return [];
  // Each file, with what the last turn that changed it left there.
  const left = new Map<string, TreeEntry | undefined>();
  for (const t of [...turns].filter((t) => t.seq >= seq).sort((a, b) => a.seq - b.seq)) {
    const end = t.end ?? now;
    for (const file of changedBetween(t.start, end)) left.set(file, end.get(file));
  }
  const steps: SnapshotStep[] = [];
  for (const file of [...left.keys()].sort()) {
    const target = from.start.get(file);
    if (same(target, now.get(file))) continue;
    if (!same(left.get(file), now.get(file))) steps.push({ kind: 'changed', file });
    else if (target === undefined) steps.push({ kind: 'remove', file });
    else steps.push({ kind: 'write', file, entry: target });
  }
  return steps;
}

/** Parses `git ls-tree -r -z` output: mode, type, blob, path per entry (submodules' commits left out). */
export function parseLsTree(out: string): Map<string, TreeEntry> {
  const tree = new Map<string, TreeEntry>();
  for (const rec of out.split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, blob] = rec.slice(0, tab).split(' ');
    if (type === 'blob') tree.set(rec.slice(tab + 1), { mode, blob });
  }
  return tree;
}

/** An exclude line (gitignore syntax) that matches exactly this path from the work tree's root. */
export function excludeLine(relative: string): string {
  return '/' + relative.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`).replace(/ $/, '\\ ');
}

// The workspace's snapshots (session/snapshots.ts) as data: git's trees read
// as path → mode and blob, what differs between two, and the exclude lines
// that keep one path out of the store. What a rewind does with them:
// restore.ts. Pure.

/** A file in a snapshot: its mode (git's: 100644, 100755, 120000) and blob. */
export interface TreeEntry {
  readonly mode: string;
  readonly blob: string;
  /** Its whole mode and owner, where a plain restore would get them wrong (snapshot-modes.ts). */
  readonly meta?: { readonly perm: number; readonly uid: number; readonly gid: number };
}

export type Tree = ReadonlyMap<string, TreeEntry>;

/** Two entries are the same file: same bytes, same mode, same owner. */
export const same = (a: TreeEntry | undefined, b: TreeEntry | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.blob === b.blob && a.mode === b.mode && sameMeta(a, b));

const sameMeta = ({ meta: a }: TreeEntry, { meta: b }: TreeEntry): boolean =>
  a === b || (a !== undefined && b !== undefined && a.perm === b.perm && a.uid === b.uid && a.gid === b.gid);

/** The files that differ between two trees, sorted. */
export function changedBetween(a: Tree, b: Tree): string[] {
  const out = new Set<string>();
  for (const [file, entry] of a) if (!same(entry, b.get(file))) out.add(file);
  for (const file of b.keys()) if (!a.has(file)) out.add(file);
  return [...out].sort();
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

/** git's `-z` list as paths, each its bytes. */
export function splitNul(out: Buffer): Buffer[] {
  const paths: Buffer[] = [];
  for (let from = 0; from < out.length;) {
    let end = out.indexOf(0, from);
    if (end < 0) end = out.length;
    if (end > from) paths.push(out.subarray(from, end));
    from = end + 1;
  }
  return paths;
}

export const joinNul = (paths: readonly Buffer[]): Buffer =>
  Buffer.concat(paths.flatMap((p, i) => (i === 0 ? [p] : [NUL, p])));
const NUL = Buffer.from([0]);

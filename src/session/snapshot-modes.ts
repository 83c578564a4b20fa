// What git's trees cannot say about a file: its whole mode (git keeps only "executable or not") and its owner. The
// snapshots (snapshots.ts) note them here for every file they read, keep only those a restore would otherwise get
// wrong (a mode other than what a new file gets, an owner other than milk's), freeze a copy per snapshot, and keep
// the book beside the store's index at exit, for as long as that index is the one it describes. What a restore does
// with them: `settle`. Pure but for the stats handed in.

import type { Owner } from './contained';
import type { Tree, TreeEntry } from './snapshot-plan';

/** A file's permission bits (with setuid, setgid, sticky) and owner. */
export interface Meta {
  readonly perm: number;
  readonly uid: number;
  readonly gid: number;
}

export type Modes = ReadonlyMap<string, Meta>;

/** The bits a stat gives: enough of fs.Stats. */
export interface StatLike {
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly ctimeMs: number;
  isFile(): boolean;
}

/** The mode a new file gets where git writes one: 0666 or 0777, less the umask. */
export const plainPerm = (executable: boolean, umask: number): number => (executable ? 0o777 : 0o666) & ~umask;

/** Past this many, files touched within a snapshot's second are not stat'ed again at the next (see `recent`). */
const MAX_RECENT = 2000;

export class ModeBook {
  private live = new Map<string, Meta>();
  private frozen: Modes | null = null;
  /**
   * Files read within the second before a snapshot: git compares times in whole seconds, so a chmod in that same
   * second is a change it cannot see. The next snapshot stats them again.
   */
  private recentPaths = new Map<string, Buffer>();

  constructor(
    private readonly self: { uid: number; gid: number },
    private readonly umask: number,
  ) {}

  /** A path a snapshot read (`st` null: it is gone), at `now` (ms). */
  note(rel: Buffer, st: StatLike | null, now: number): void {
    const key = rel.toString('utf8');
    const meta = st?.isFile() ? this.unusual(st) : null;
    if (meta) {
      const had = this.live.get(key);
      if (!had || had.perm !== meta.perm || had.uid !== meta.uid || had.gid !== meta.gid) this.set(key, meta);
    } else if (this.live.has(key)) this.set(key, null);
    if (st && st.ctimeMs >= Math.floor(now / 1000) * 1000 - 1000 && this.recentPaths.size < MAX_RECENT)
      this.recentPaths.set(key, rel);
  }

  /** The files to stat again at the next snapshot (those read in the second before the last), forgotten once given. */
  recent(): Buffer[] {
    const out = [...this.recentPaths.values()];
    this.recentPaths = new Map();
    return out;
  }

  /** The book as it is now, for one snapshot: the same object until something changes. */
  freeze(): Modes {
    this.frozen ??= new Map(this.live);
    return this.frozen;
  }

  /** The book, to keep beside the index it describes. */
  toJSON(): Array<[string, number, number, number]> {
    return [...this.live].map(([k, m]) => [k, m.perm, m.uid, m.gid]);
  }

  /** Takes up a kept book (see toJSON); false if it is not one. */
  takeUp(kept: unknown): boolean {
    if (!Array.isArray(kept)) return false;
    const live = new Map<string, Meta>();
    for (const row of kept) {
      if (!Array.isArray(row) || typeof row[0] !== 'string' || !row.slice(1, 4).every(Number.isInteger)) return false;
      live.set(row[0], { perm: row[1] as number, uid: row[2] as number, gid: row[3] as number });
    }
    this.live = live;
    this.frozen = null;
    return true;
  }

  private set(key: string, meta: Meta | null): void {
    if (meta) this.live.set(key, meta);
    else this.live.delete(key);
    this.frozen = null;
  }

  /** What a plain restore would get wrong about this file; null: nothing. */
  private unusual(st: StatLike): Meta | null {
    const perm = st.mode & 0o7777;
    const plain = plainPerm((st.mode & 0o111) !== 0, this.umask);
    if (perm === plain && st.uid === this.self.uid && st.gid === this.self.gid) return null;
    return { perm, uid: st.uid, gid: st.gid };
  }
}

/** `tree` with each file's recorded mode and owner on its entry (so that `same` tells a chmod from no change). */
export function withMeta(tree: Tree, modes: Modes): Tree {
  if (modes.size === 0) return tree;
  const out = new Map<string, TreeEntry>(tree);
  for (const [rel, meta] of modes) {
    const entry = tree.get(rel);
    if (entry && entry.mode !== '120000') out.set(rel, { ...entry, meta });
  }
  return out;
}

/** Who milk is and what it may give, for `settle`. */
export interface Giver {
  readonly uid: number;
  readonly gid: number;
  readonly umask: number;
  /** The user and group ids that exist here (/etc/passwd, /etc/group). */
  readonly users: ReadonlySet<number>;
  readonly groups: ReadonlySet<number>;
}

/**
 * The mode and owner a restored file gets: its recorded ones. The owner only where milk is root and both ids exist;
 * setuid and setgid only together with the recorded owner (never on a file of milk's that another user's was), else
 * dropped and said.
 */
export function settle(entry: TreeEntry, g: Giver): { mode: number; owner?: Owner; note?: string } {
  const meta = entry.meta;
  if (!meta) return { mode: plainPerm(entry.mode === '100755', g.umask) };
  const theirs = meta.uid !== g.uid || meta.gid !== g.gid;
  if (!theirs) return { mode: meta.perm };
  if (g.uid === 0 && g.users.has(meta.uid) && g.groups.has(meta.gid))
    return { mode: meta.perm, owner: { uid: meta.uid, gid: meta.gid } };
  const special = meta.perm & 0o6000;
  if (!special) return { mode: meta.perm };
  const bits = special === 0o6000 ? 'setuid and setgid' : special === 0o4000 ? 'setuid' : 'setgid';
  const why = g.uid === 0 ? 'its owner no longer exists here' : 'only root can give its owner back';
  return { mode: meta.perm & ~0o6000, note: `${bits} dropped (${why})` };
}

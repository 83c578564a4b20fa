// Snapshots of the workspace's files in a private git store (its own GIT_DIR under the data dir, the workspace as the
// work tree), so that what commands change (sed -i, a generator, rm) is undone by a rewind as the file tools' changes
// are (checkpoints.ts). A snapshot is `git add -A` into a private index (.gitignore honoured, untracked files in, big
// files and the data dir out, the bytes exact whatever .gitattributes say; the person's .git never read or written)
// and `git write-tree`: an unchanged tree is a stat walk. Only a turn that runs a command takes them (turn-changes.ts):
// before its first command, naming what is there but ignored, and at its end. Without git, milk says so once and the
// copies are what a rewind has. A file goes back through restore-contained.ts.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { umaskNow } from './contained';
import { StoreGit } from './snapshot-git';
import { type DiffBase, diffAgainst } from './snapshot-diff';
import { ModeBook, type Modes, withMeta } from './snapshot-modes';
import { Tree, excludeLine, joinNul, parseLsTree, splitNul } from './snapshot-plan';
import { type StorePlaces, excludeFile, keepIndex, openStore, statAll } from './snapshot-store';
import { Pruner, holdRef, releaseRef } from './snapshot-prune';
import { expandRepos, ignoredInRepos, storeByName } from './snapshot-nested';
import type { TreeTurn } from './restore';

export interface SnapshotOptions {
  workspace: string;
  /** The private git dir (data dir's snapshots/<workspace key>.git). */
  store: string;
  /** Places never stored (the data dir, when it lies in the workspace): real paths. */
  leaveOut: readonly string[];
  /** Files bigger than this are not stored. */
  maxFileBytes: number;
  warn: (text: string) => void;
  /** What orders a turn's snapshot among the file tools' copies (checkpoints.ts): the same clock. */
  order: () => number;
  /** The git to run (tests); `git` on PATH by default. */
  git?: string;
  /** The store's caps: past the size, or the age, the snapshots of milks no longer running go (snapshot-prune.ts). */
  maxStoreBytes?: number;
  maxAgeDays?: number;
}

/** Past this many changed paths, a snapshot stores them by walking the tree rather than naming each. */
const MAX_NAMED = 2000;

/** A snapshot: git's tree, and the modes and owners git cannot hold (snapshot-modes.ts). */
interface Shot {
  readonly hash: string;
  readonly modes: Modes;
}

export type { DiffBase } from './snapshot-diff';

export class Snapshots {
  /** Whether git runs here: probed at the first snapshot. */
  private usable: Promise<boolean> | null = null;
  /** The store is set up (known without waiting, for exit). */
  private ready = false;
  /** A snapshot failed and the person was told (once). */
  private failed = false;
  /** Snapshots run one after another: they share the private index. */
  private chain: Promise<unknown> = Promise.resolve();
  private readonly starts = new Map<
    number,
    { at: number; tree: Promise<Shot | null>; ignored?: Promise<readonly string[]> }
  >();
  private readonly ends = new Map<number, Promise<Shot | null>>();
  private readonly trees = new Map<string, Tree>();
  private readonly places: StorePlaces;
  private readonly ref: string;
  /** This milk's ref's last part: its pid first (snapshot-prune.ts holds it while it runs). */
  private readonly name: string;
  private readonly pruner: Pruner;
  private lastCommit: string | null = null;
  private last: Shot | null = null;
  /** The repositories nested in the workspace met so far (snapshot-nested.ts). */
  private readonly repos = new Map<string, Buffer>();
  private readonly book = new ModeBook({ uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 }, umaskNow());
  /** Files left out for their size, as paths from the workspace: said once each. */
  private readonly tooBig = new Set<string>();

  /** git, run on the private store only. */
  private readonly repo: StoreGit;

  constructor(private readonly o: SnapshotOptions) {
    const index = path.join(o.store, `index-${process.pid}`);
    this.places = { store: o.store, workspace: o.workspace, index, leaveOut: o.leaveOut };
    this.repo = new StoreGit({ store: o.store, workspace: o.workspace, index, git: o.git });
    this.name = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    this.ref = `refs/milk/${this.name}`;
    const { store, maxStoreBytes, maxAgeDays, git } = o;
    this.pruner = new Pruner({ store, repo: this.repo, maxStoreBytes, maxAgeDays, git });
  }

  /**
   * Turn `seq` is about to run a command (or runs beside one): the workspace as it is, its snapshot taken the first
   * time and the same one after. Resolves once it is taken.
   */
  async turnSnapshot(seq: number): Promise<string | null> {
    let start = this.starts.get(seq);
    this.pruner.busy();
    if (!start) {
      const tree = this.take(`start ${seq}`);
      // What is there but ignored, so not stored, named at the same moment (beside the snapshot, on the other core:
      // it only reads the index, which git replaces whole): a rewind must never remove it.
      // Those in nested repositories once the snapshot has met them, before the command runs.
      const nested = tree.then(() => ignoredInRepos(this.repo, this.o.workspace, [...this.repos.values()]));
      const ignored = Promise.all([this.ignoredNow(), nested]).then(([a, b]) => a.concat(b));
      start = { at: this.o.order(), tree, ignored: ignored.catch(() => []) };
      this.starts.set(seq, start);
    }
    await start.ignored;
    return (await start.tree)?.hash ?? null;
  }

  /** Turn `seq` ended: its end's snapshot, if it took one at its start. */
  turnEnded(seq: number): void {
    if (!this.starts.has(seq)) return;
    const end = this.take(`end ${seq}`);
    this.ends.set(seq, end);
    void end.then(() => this.pruner.idle());
  }

  /** Before a file tool changes a file in turn `seq`: the turn's snapshot, if one is under way, finished first. */
  async beforeEdit(seq: number): Promise<void> {
    await this.starts.get(seq)?.tree;
  }

  /** The turns from `seq` on that took snapshots, as trees, and the workspace's tree now (none: nothing taken). */
  async turnsFrom(seq: number): Promise<{ turns: TreeTurn[]; now: Tree | null }> {
    const from = [...this.starts].filter(([s]) => s >= seq);
    if (from.length === 0) return { turns: [], now: null };
    const now = await this.take('now');
    if (now === null) return { turns: [], now: null };
    const turns: TreeTurn[] = [];
    for (const [s, start] of from) {
      const a = await start.tree;
      if (a === null) continue;
      const b = await this.ends.get(s);
      const ignored = (await start.ignored) ?? [];
      turns.push({ seq: s, at: start.at, start: await this.tree(a), end: b ? await this.tree(b) : null, ignored });
    }
    return { turns, now: await this.tree(now) };
  }

  /** The latest turn that took snapshots. */
  async lastTurn(): Promise<number | null> {
    let last: number | null = null;
    for (const [seq, start] of this.starts)
      if ((await start.tree) !== null && (last === null || seq > last)) last = seq;
    return last;
  }

  /** After a rewind to `seq`: the turns from it on count as having changed nothing (what they did is undone). */
  async rewound(seq: number): Promise<void> {
    const from = [...this.starts.keys()].filter((s) => s >= seq);
    if (from.length === 0) return;
    const after = this.take(`after going back to ${seq}`);
    for (const s of from) {
      this.starts.set(s, { at: this.o.order(), tree: after });
      this.ends.set(s, after);
    }
    await after;
  }

  /**
   * The workspace now against what `base` says its files were (every other file as it is now): git's unified diff, or
   * why there is none. The base is a tree made in a scratch index, never the snapshots' own.
   */
  async diffFrom(base: readonly DiffBase[]): Promise<{ text: string; cut: boolean } | { error: string }> {
    const now = await this.take('now');
    if (now === null) return { error: 'the workspace could not be snapshotted now (is git installed?)' };
    return diffAgainst(this.repo, this.o.store, now.hash, base);
  }

  /** At exit (synchronous, as exit's cleanup is): the index and its book kept for the next milk; nothing started. */
  keepIndexAtExit(): void {
    this.pruner.exit();
    if (!this.ready) return;
    releaseRef(this.o.store, this.name);
    keepIndex(this.places, this.book);
  }

  /** Runs `work` on the store after what was asked of it before (the snapshots share the private index). */
  private queue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** The paths there but ignored (an ignored folder once, ending in /), as git lists them; none without git. */
  private async ignoredNow(): Promise<string[]> {
    if (!(await (this.usable ??= this.setUp()))) return [];
    const args = ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'];
    return (await this.repo.must(args)).split('\0').filter(Boolean);
  }

  /** Takes a snapshot after those before it; its tree's hash, or null (no git, or it failed: said once). */
  private take(label: string): Promise<Shot | null> {
    return this.queue(() => this.snapshot(label)).catch((err: unknown) => {
      if (!this.failed)
        this.o.warn(`snapshot of the workspace failed (${(err as Error).message}); a rewind puts back what it can`);
      this.failed = true;
      return null;
    });
  }

  private async snapshot(label: string): Promise<Shot | null> {
    this.usable ??= this.setUp();
    if (!(await this.usable)) return null;
    // What changed since the last snapshot (the index's stat cache: an unchanged tree is a walk of stats), and what is
    // new; only those are read and stored. Paths as bytes end to end: a name that is not UTF-8 (planted or not) is
    // stored like any other.
    // Both only read the index: run side by side, one per core.
    const [changed, listed] = (
      await Promise.all([
        this.repo.bytes(['diff-files', '--name-only', '-z']),
        this.repo.bytes(['ls-files', '-z', '-o', '--exclude-standard']),
      ])
    ).map(splitNul);
    // A repository nested in the workspace is listed as its folder: its files are stored by name, as files.
    const { files: fresh, repos } = await expandRepos(this.repo, this.o.workspace, listed);
    for (const r of repos) this.repos.set(r.toString('latin1'), r);
    const nested = new Set(repos.length ? fresh.map((f) => f.toString('latin1')) : []);
    const unique = new Map([...changed, ...fresh].map((p) => [p.toString('latin1'), p]));
    const stats = await statAll(this.o.workspace, [...unique.values()], this.book);
    if (unique.size === 0 && this.last !== null && this.book.freeze() === this.last.modes) return this.last;
    let paths = await this.leaveOutBig([...unique.values()], stats);
    await storeByName(
      this.repo,
      paths.filter((p) => nested.has(p.toString('latin1'))),
    );
    if (nested.size > 0) paths = paths.filter((p) => !nested.has(p.toString('latin1')));
    if (paths.length > 0) {
      // --ignore-errors: a file that cannot be read (a socket, no permission) is left out, the rest stored. Many paths
      // are stored by a walk of the tree (git matches each path named against every file: quadratic), the big ones
      // excluded by now.
      const many = paths.length > MAX_NAMED;
      const named = many ? [] : ['--pathspec-from-file=-', '--pathspec-file-nul'];
      const add = await this.repo.git(
        ['add', '-A', '--ignore-errors', ...named],
        many ? {} : { stdin: joinNul(paths) },
      );
      if (add.code !== 0 && !/error: (open|unable)/.test(add.err)) throw new Error(add.err.trim().split('\n')[0]);
    }
    const tree = (await this.repo.must(['write-tree'])).trim();
    if (tree !== this.last?.hash) {
      const parent = this.lastCommit ? ['-p', this.lastCommit] : [];
      this.lastCommit = (await this.repo.must(['commit-tree', tree, ...parent, '-m', `milk: ${label}`])).trim();
      await this.repo.must(['update-ref', this.ref, this.lastCommit]);
    }
    this.last = { hash: tree, modes: this.book.freeze() };
    return this.last;
  }

  /**
   * Files over the cap are kept out of the store before `git add` would read them whole: an exclude line for each
   * (and one already stored is dropped from the index). Returns the paths to store.
   */
  private async leaveOutBig(paths: readonly Buffer[], stats: ReadonlyArray<fs.Stats | null>): Promise<Buffer[]> {
    const keep: Buffer[] = [];
    const big: Buffer[] = [];
    paths.forEach((rel, i) => {
      const st = stats[i];
      if (st?.isFile() && st.size > this.o.maxFileBytes) big.push(rel);
      else keep.push(rel);
    });
    const news = big.map((rel) => rel.toString('utf8')).filter((rel) => !this.tooBig.has(rel));
    if (big.length > 0) {
      await this.repo.git(
        ['rm', '-q', '--cached', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'],
        { stdin: joinNul(big) },
      );
    }
    if (news.length === 0) return keep;
    for (const rel of news) this.tooBig.add(rel);
    await fs.promises.appendFile(excludeFile(this.o.store), news.map(excludeLine).join('\n') + '\n');
    const mb = Math.round(this.o.maxFileBytes / 1048576);
    this.o.warn(
      `${news.length === 1 ? news[0] : `${news.length} files`} over ${mb} MB left out of the workspace's snapshots ` +
        `(a rewind cannot put ${news.length === 1 ? 'it' : 'them'} back)`,
    );
    return keep;
  }

  /** The store made (once), this process's index started from the last one's; false where git cannot run. */
  private async setUp(): Promise<boolean> {
    const version = await this.repo.git(['--version']).catch(() => null);
    if (!version || version.code !== 0) {
      this.o.warn(
        'git was not found: a rewind puts back only the files milk’s own tools changed, not what commands did',
      );
      return false;
    }
    await openStore(this.repo, this.places, this.book);
    holdRef(this.o.store, this.name);
    this.ready = true;
    return true;
  }

  /** A snapshot as data: git's tree, with the modes and owners git does not hold. */
  private async tree(shot: Shot): Promise<Tree> {
    return withMeta(await this.gitTree(shot.hash), shot.modes);
  }

  private async gitTree(hash: string): Promise<Tree> {
    const known = this.trees.get(hash);
    if (known) return known;
    const listed = await this.repo.git(['ls-tree', '-r', '-z', '--full-tree', hash]);
    // Its objects were removed from under this milk (the store deleted, or cleared by hand): said, never a crash.
    if (listed.code !== 0) throw new Error('that snapshot is gone from the store');
    const tree = parseLsTree(listed.out.toString('utf8'));
    this.trees.set(hash, tree);
    return tree;
  }

  /** git on the store (a restore reads the bytes it puts back from it). */
  get git(): StoreGit {
    return this.repo;
  }
}

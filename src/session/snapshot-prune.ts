// The snapshot store kept within its caps, safely with several milks on one workspace: each running milk holds its
// ref with a file named as it (`live/<ref>`, its pid first), and the pruner deletes only the refs of milks no longer
// running — past the age cap, or all of them past the size cap. Objects go by git's own grace period (two weeks
// unreferenced: another milk's snapshot that is written but not yet referenced stays), never `--prune=now`. It runs
// at most once a day, in a running milk's idle time, as git processes that milk kills at its exit: nothing outlives it.

import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { running } from './checkpoints';
import type { StoreGit } from './snapshot-git';

/** What unreferenced objects get before they go: git's own default. */
const GRACE = '2.weeks.ago';
/** At most one prune a day per store. */
export const PRUNE_EVERY_MS = 24 * 3600 * 1000;

export interface PruneOptions {
  readonly store: string;
  readonly repo: StoreGit;
  /** The caps: 2 GB and 30 days unless config.json sets them. */
  readonly maxStoreBytes?: number;
  readonly maxAgeDays?: number;
  /** Whether a process runs (tests); signal 0 by default. */
  readonly alive?: (pid: number) => boolean;
  /** git processes that may run long (repack, prune), handed over so that milk's exit can end them. */
  readonly started?: (child: ChildProcess) => void;
  /** The git to run (tests); `git` on PATH by default. */
  readonly git?: string;
}

const liveDir = (store: string): string => path.join(store, 'live');

/** Marks this milk's ref as in use while it runs (a file named as the ref's last part, its pid first). */
export function holdRef(store: string, name: string): void {
  fs.mkdirSync(liveDir(store), { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(liveDir(store), name), '');
}

/** At exit: this milk's ref no longer held (its snapshots go the way of any finished milk's). */
export function releaseRef(store: string, name: string): void {
  fs.rmSync(path.join(liveDir(store), name), { force: true });
}

/**
 * Whether the store is due a prune (none in the last day); marks it as pruned now if so. A store never pruned counts
 * from now: a new one has nothing to prune, and its milk's first idle seconds stay idle.
 */
export function duePrune(store: string, now = Date.now()): boolean {
  const stamp = path.join(store, 'pruned-at');
  const last = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
  if (last !== undefined && now - last < PRUNE_EVERY_MS) return false;
  fs.writeFileSync(stamp, '');
  return last !== undefined;
}

/** Deletes the finished milks' refs the caps ask for, then packs and prunes with git's grace. Returns those deleted. */
export async function prune(o: PruneOptions): Promise<string[]> {
  const alive = o.alive ?? running;
  const held = new Set<string>();
  for (const name of await fs.promises.readdir(liveDir(o.store)).catch(() => [] as string[])) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (pid && alive(pid)) held.add(name);
    else releaseRef(o.store, name);
  }
  const listed = await o.repo.must(['for-each-ref', '--format=%(refname) %(committerdate:unix)', 'refs/milk/']);
  const refs = listed
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [ref, when] = line.split(' ');
      return { ref, name: ref.slice('refs/milk/'.length), at: Number(when) * 1000 };
    });
  const over = (await sizeOf(path.join(o.store, 'objects'))) > (o.maxStoreBytes ?? 2048 * 1048576);
  const oldest = Date.now() - (o.maxAgeDays ?? 30) * 24 * 3600 * 1000;
  const gone = refs.filter((r) => !held.has(r.name) && (over || r.at < oldest)).map((r) => r.ref);
  if (gone.length > 0)
    await o.repo.must(['update-ref', '--stdin'], { stdin: gone.map((r) => `delete ${r}\n`).join(''), workTree: false });
  // Packs what is referenced; what is not is loosened and stays until the grace period ends (pack-refs is left out:
  // it would hold the refs' lock while another milk updates its own).
  await run(o, ['repack', '-d', '-l', '-A', `--unpack-unreachable=${GRACE}`, '-q']);
  await run(o, ['prune', `--expire=${GRACE}`]);
  return gone;
}

/** A git that may run long, handed to `started` (ended at milk's exit); its failure is only that nothing was freed. */
function run(o: PruneOptions, args: string[]): Promise<void> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
    // Its own process group: milk's exit ends git and what it starts (pack-objects) together.
    const child = spawn(o.git ?? 'git', args, {
      cwd: o.store,
      stdio: 'ignore',
      detached: true,
      env: { ...env, GIT_DIR: o.store, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
    o.started?.(child);
    child.on('error', () => resolve());
    child.on('close', () => resolve());
  });
}

/** The bytes under a folder (its files', not following links), read a chunk of stats at a time. */
async function sizeOf(dir: string): Promise<number> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  let total = 0;
  for (let at = 0; at < files.length; at += 64) {
    const stats = await Promise.all(files.slice(at, at + 64).map((f) => fs.promises.stat(f).catch(() => null)));
    for (const st of stats) total += st?.size ?? 0;
  }
  return total;
}

/** How long milk must have been idle (no turn since the last ended) before it prunes. */
const IDLE_MS = 3000;

/** When a running milk prunes its store: in idle time, at most daily; its git processes ended at exit. */
export class Pruner {
  private timer: NodeJS.Timeout | null = null;
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly o: Omit<PruneOptions, 'started'>) {}

  /** A turn began: no prune starts while it runs. */
  busy(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** A turn ended: a prune, if due, once milk has stayed idle a while. */
  idle(): void {
    this.busy();
    this.timer = setTimeout(() => {
      this.timer = null;
      let due = false;
      try {
        due = duePrune(this.o.store);
      } catch {
        // The store is gone or read-only: nothing to prune, and no reason to say so.
      }
      if (due) void prune({ ...this.o, started: (c) => this.track(c) }).catch(() => undefined);
    }, IDLE_MS);
    this.timer.unref();
  }

  /** At exit (synchronous): nothing started, and the git processes running (and theirs) ended. */
  exit(): void {
    this.busy();
    for (const child of this.children) {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }

  private track(child: ChildProcess): void {
    this.children.add(child);
    child.on('close', () => this.children.delete(child));
  }
}

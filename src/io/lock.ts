// A small lock file (`<file>.lock`, created exclusively, holding our pid and
// the time) so that several milk processes take turns on one history file. A
// lock whose holder is dead, or that is older than the stale limit, is broken.
// tryLock never waits: the submit path takes it or retries later from a
// timer. withLock waits (sleeping synchronously) and is for exit and the
// `milk history` commands, where nothing else is running.

import * as fs from 'node:fs';

export interface LockOptions {
  /** Give up after this long (ms). */
  timeoutMs: number;
  /** A lock older than this (ms) is taken to be abandoned. */
  staleMs: number;
}

export const DEFAULT_LOCK: LockOptions = { timeoutMs: 2000, staleMs: 10_000 };

export class LockTimeoutError extends Error {
  readonly code = 'ELOCKED';
  constructor() {
    super('the file is locked by another milk process');
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Whether a process with this pid exists (one we may not signal counts). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What a lock judged abandoned was, so a takeover breaks that lock and no
 * other: an inode number alone is not enough, as a lock removed and made
 * again at once often gets the same one back.
 */
interface Judged {
  readonly ino: bigint;
  readonly mtimeNs: bigint;
  readonly content: string;
}

function identity(file: string): Judged {
  const stat = fs.statSync(file, { bigint: true });
  return { ino: stat.ino, mtimeNs: stat.mtimeNs, content: fs.readFileSync(file, 'utf8') };
}

/** The pid a lock on `file` names, or null (no lock, or one being written). */
export function lockHolder(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file + '.lock', 'utf8').split(/\s+/)[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** The lock at `lockPath` if it is abandoned (holder dead, or older than staleMs); null if held or gone. */
function staleLock(lockPath: string, staleMs: number): Judged | null {
  try {
    const judged = identity(lockPath);
    if (Date.now() - Number(judged.mtimeNs / 1_000_000n) > staleMs) return judged;
    const [pid] = judged.content.split(/\s+/);
    // An empty lock may be one being written right now; give it until staleMs.
    return pid !== '' && !pidAlive(Number(pid)) ? judged : null;
  } catch {
    return null;
  }
}

/** For tests: runs between judging a lock abandoned and taking it over, where another process may act. */
export interface TakeoverHooks {
  beforeTakeover?: () => void;
}

/**
 * Breaks the abandoned lock judged earlier, and only that one. The path is
 * moved aside first (atomic, so two breakers never both remove it); if what
 * was moved is not the lock judged — another process broke it and took a
 * fresh one in between — it is linked back (link never overwrites) and the
 * lock stays theirs. Returns whether the path is now free to create.
 */
function breakLock(lockPath: string, judged: Judged): boolean {
  const aside = `${lockPath}.stale-${process.pid}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch {
    // Gone already: someone else broke it first. The create below decides.
    return true;
  }
  let moved: Judged | null = null;
  try {
    moved = identity(aside);
  } catch {
    // Unreadable: treat as not ours to remove.
  }
  if (moved && moved.ino === judged.ino && moved.mtimeNs === judged.mtimeNs && moved.content === judged.content) {
    fs.rmSync(aside, { force: true });
    return true;
  }
  try {
    fs.linkSync(aside, lockPath);
  } catch {
    // A third process made a lock in the instant between: theirs stands, and the one moved aside goes stale.
  }
  fs.rmSync(aside, { force: true });
  return false;
}

/** Takes the lock for `file` if it is free (or abandoned), without waiting. */
export function tryLock(file: string, staleMs: number = DEFAULT_LOCK.staleMs, hooks: TakeoverHooks = {}): boolean {
  const lockPath = file + '.lock';
  // Two tries: the second after breaking an abandoned lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
      try {
        fs.writeSync(fd, `${process.pid} ${new Date().toISOString()}\n`);
      } finally {
        fs.closeSync(fd);
      }
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const judged = staleLock(lockPath, staleMs);
      if (!judged) return false;
      hooks.beforeTakeover?.();
      if (!breakLock(lockPath, judged)) return false;
    }
  }
  return false;
}

export function unlock(file: string): void {
  try {
    fs.rmSync(file + '.lock', { force: true });
  } catch {
    // A lock we can't remove goes stale and is broken by the next writer.
  }
}

/** Runs `fn` holding the lock for `file`, waiting for it. Throws LockTimeoutError if it can't be had in time. */
export function withLock<T>(file: string, fn: () => T, options: LockOptions = DEFAULT_LOCK): T {
  const deadline = Date.now() + options.timeoutMs;
  let wait = 1;
  while (!tryLock(file, options.staleMs)) {
    if (Date.now() >= deadline) throw new LockTimeoutError();
    sleepSync(Math.min(wait, Math.max(1, deadline - Date.now())));
    wait = Math.min(wait * 2, 25);
  }
  try {
    return fn();
  } finally {
    unlock(file);
  }
}

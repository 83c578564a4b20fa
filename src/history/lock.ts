// A small synchronous lock file (`<file>.lock`, created exclusively, holding
// our pid and the time) so that several milk processes take turns on one
// history file. A lock whose holder is dead, or that is older than the stale
// limit, is broken. Synchronous on purpose: history writes happen at submit
// and at exit, where an await would let the turn (or the process) run ahead.

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
    super('history file is locked by another milk process');
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

function isStale(lockPath: string, staleMs: number): boolean {
  try {
    const stat = fs.statSync(lockPath);
    if (Date.now() - stat.mtimeMs > staleMs) return true;
    const [pid] = fs.readFileSync(lockPath, 'utf8').split(/\s+/);
    // An empty lock may be one being written right now; give it until staleMs.
    return pid !== '' && !pidAlive(Number(pid));
  } catch {
    return false;
  }
}

/** Runs `fn` holding the lock for `file`. Throws LockTimeoutError if it can't be had in time. */
export function withLock<T>(file: string, fn: () => T, options: LockOptions = DEFAULT_LOCK): T {
  const lockPath = file + '.lock';
  const deadline = Date.now() + options.timeoutMs;
  let wait = 1;
  for (;;) {
    try {
      const fd = fs.openSync(lockPath, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
      try {
        fs.writeSync(fd, `${process.pid} ${new Date().toISOString()}\n`);
      } finally {
        fs.closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (isStale(lockPath, options.staleMs)) {
        // Rename first so two breakers can't both delete a fresh lock.
        const aside = `${lockPath}.stale-${process.pid}`;
        try {
          fs.renameSync(lockPath, aside);
          fs.rmSync(aside, { force: true });
        } catch {
          // Someone else broke it first.
        }
        continue;
      }
      if (Date.now() >= deadline) throw new LockTimeoutError();
      sleepSync(wait);
      wait = Math.min(wait * 2, 25);
    }
  }
  try {
    return fn();
  } finally {
    try {
      fs.rmSync(lockPath, { force: true });
    } catch {
      // A lock we can't remove goes stale and is broken by the next writer.
    }
  }
}

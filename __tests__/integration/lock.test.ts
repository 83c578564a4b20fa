import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { tryLock, unlock } from '../../src/io/lock';
import { tempDir } from '../helpers/pty';

/** A pid that certainly belongs to no process: a child that has exited and been reaped. */
function deadPid(): number {
  return spawnSync('true').pid as number;
}

function abandonedLock(file: string): void {
  fs.writeFileSync(file + '.lock', `${deadPid()} 2020-01-01T00:00:00.000Z\n`);
}

describe('the history lock', () => {
  it('breaks a lock whose holder is dead', () => {
    const file = path.join(tempDir(), 'h');
    abandonedLock(file);
    expect(tryLock(file)).toBe(true);
    expect(fs.readFileSync(file + '.lock', 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    unlock(file);
  });

  it('leaves a live lock alone', () => {
    const file = path.join(tempDir(), 'h');
    expect(tryLock(file)).toBe(true);
    expect(tryLock(file)).toBe(false);
    unlock(file);
  });

  // Two processes judge the same abandoned lock stale; B breaks it and takes a fresh lock
  // before A moves "whatever is at the path" aside. Without checking what it moved, A would
  // remove B's fresh lock and both would hold it.
  it('gives one of two breakers of the same stale lock the lock, never both', () => {
    const dir = tempDir();
    const file = path.join(dir, 'h');
    abandonedLock(file);
    let bGot = false;
    let bLock: fs.Stats | null = null;
    const aGot = tryLock(file, undefined, {
      beforeTakeover: () => {
        bGot = tryLock(file);
        bLock = fs.statSync(file + '.lock');
      },
    });
    expect(bGot).toBe(true);
    expect(aGot).toBe(false);
    // B's own lock file is the one at the path, and nothing is left lying aside.
    expect(fs.statSync(file + '.lock').ino).toBe(bLock!.ino);
    expect(fs.readdirSync(dir).sort()).toEqual(['h.lock']);
    unlock(file);
  });

  it('lets a breaker proceed when the stale lock vanished before its takeover', () => {
    const dir = tempDir();
    const file = path.join(dir, 'h');
    abandonedLock(file);
    const got = tryLock(file, undefined, { beforeTakeover: () => fs.rmSync(file + '.lock') });
    expect(got).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['h.lock']);
    unlock(file);
  });
});

// One history file on disk: load it forgivingly, and append to it safely.
// Every write takes the lock, re-reads the file, merges, caps, writes a 0600
// temp file, fsyncs and renames it over the old one, so a crash at any moment
// leaves either the old file or the new one, and no process loses another's
// entries. A damaged file is copied aside before it is first rewritten.
// Messages name files and errors, never their content.

import * as fs from 'node:fs';
import * as fse from 'fs-extra';
import * as path from 'node:path';
import { HistoryHeader, needsRepair, parseHistory, serializeHistory } from './format';
import { DEFAULT_LOCK, LockOptions, pidAlive, withLock } from './lock';
import { HistoryEntry, mergeEntries } from './rules';

export interface LoadResult {
  entries: HistoryEntry[];
  /** One line for the status bar, if something was wrong. */
  warning: string | null;
}

/** Creates the folder and its parents, private to the user (0700). */
export function ensureDir(dir: string): void {
  fse.ensureDirSync(dir, 0o700);
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/** Explains an I/O error in a few words, without any file content. */
export function describeIoError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'disk full';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EISDIR':
      return 'is a directory';
    case 'ELOCKED':
      return 'locked by another milk process';
    default:
      return code ?? 'unexpected error';
  }
}

export class HistoryFile {
  /** The damaged file on disk has been copied aside (once per damage, not per read). */
  private repaired = false;

  constructor(
    readonly file: string,
    private readonly header: HistoryHeader,
    private readonly maxEntries: number,
    private readonly lock: LockOptions = DEFAULT_LOCK,
  ) {}

  get label(): string {
    return this.header.scope === 'global' ? 'global history' : 'session history';
  }

  /** Reads the file. Never throws: a bad file yields its good entries and a warning. */
  load(): LoadResult {
    this.removeAbandonedTemps();
    try {
      return this.read();
    } catch (err) {
      return { entries: [], warning: `${this.label} unreadable (${describeIoError(err)}); kept in memory only` };
    }
  }

  /**
   * Adds entries under the lock, merged with whatever other processes wrote.
   * Throws on I/O failure; the caller keeps the entries pending.
   */
  append(pending: readonly HistoryEntry[], options: { lockTimeoutMs?: number } = {}): void {
    this.locked(options, () => this.write(mergeEntries(this.read().entries, pending, this.maxEntries)));
  }

  /** Empties the file under the lock, keeping the header already on disk. */
  clear(): void {
    this.locked({}, () => this.write([], this.read().header ?? this.header));
  }

  private locked(options: { lockTimeoutMs?: number }, fn: () => void): void {
    ensureDir(path.dirname(this.file));
    const lock = options.lockTimeoutMs === undefined ? this.lock : { ...this.lock, timeoutMs: options.lockTimeoutMs };
    withLock(this.file, fn, lock);
  }

  /**
   * The file's good entries. A damaged file is copied aside before anything
   * rewrites it; a directory in its place is moved aside. Other I/O errors throw.
   */
  private read(): LoadResult & { header: HistoryHeader | null } {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(this.file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { entries: [], warning: null, header: null };
      if (code !== 'EISDIR') throw err;
      const aside = this.moveAside();
      return { entries: [], warning: `${this.label} file was a directory; moved to ${path.basename(aside ?? '?')}`, header: null };
    }
    const parsed = parseHistory(bytes);
    if (!needsRepair(parsed, this.header)) return { entries: parsed.entries, warning: null, header: parsed.header };
    const aside = this.copyAside(bytes);
    return {
      entries: parsed.entries,
      header: null,
      warning: `${this.label} damaged (${parsed.problems.join(', ')}); kept ${parsed.entries.length} entries, original saved as ${aside ? path.basename(aside) : '(copy failed)'}`,
    };
  }

  private write(entries: readonly HistoryEntry[], header: HistoryHeader = this.header): void {
    const tmp = `${this.file}.tmp-${process.pid}`;
    const data = serializeHistory(header, entries);
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeSync(fd, data);
      fs.fsyncSync(fd);
    } catch (err) {
      fs.closeSync(fd);
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    fs.closeSync(fd);
    fs.renameSync(tmp, this.file);
    // The file is whole again: if it is ever damaged anew, that copy is made too.
    this.repaired = false;
    fs.chmodSync(this.file, 0o600);
    // The rename itself must survive a power cut.
    try {
      const dfd = fs.openSync(path.dirname(this.file), 'r');
      try {
        fs.fsyncSync(dfd);
      } finally {
        fs.closeSync(dfd);
      }
    } catch {
      // Some file systems refuse fsync on a directory.
    }
  }

  /** Temp files of writers that died mid-write (SIGKILL, power cut). */
  private removeAbandonedTemps(): void {
    const dir = path.dirname(this.file);
    const prefix = path.basename(this.file) + '.tmp-';
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => n.startsWith(prefix));
    } catch {
      return;
    }
    for (const name of names) {
      const pid = Number(name.slice(prefix.length));
      // Our own pid can't be mid-write here: load runs before any append.
      if (pid === process.pid || !pidAlive(pid)) fs.rmSync(path.join(dir, name), { force: true });
    }
  }

  private copyAside(bytes: Buffer): string | null {
    if (this.repaired) return null;
    const aside = this.asideName();
    try {
      fs.writeFileSync(aside, bytes, { mode: 0o600, flag: 'wx' });
      this.repaired = true;
      return aside;
    } catch {
      return null;
    }
  }

  /** `<file>.corrupt-<time>`, with a counter if that name is taken (two within a millisecond). */
  private asideName(): string {
    const base = `${this.file}.corrupt-${stamp()}`;
    let name = base;
    for (let n = 1; fs.existsSync(name); n++) name = `${base}-${n}`;
    return name;
  }

  private moveAside(): string | null {
    const aside = this.asideName();
    try {
      // A directory where the file should be: moved aside whole, nothing inside it lost.
      fse.moveSync(this.file, aside);
      return aside;
    } catch {
      return null;
    }
  }
}

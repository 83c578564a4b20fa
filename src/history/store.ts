// One history file on disk: load it forgivingly, append to it cheaply, and
// compact it safely. An append is one O_APPEND write of whole lines under the
// lock, so it costs the same at 500 entries as at 100,000 and no process
// loses another's entries. Compaction (dedupe and cap) re-reads the file under
// the lock, writes a 0600 temp file, fsyncs and renames it over the old one,
// so a crash leaves the old file or the new one; a damaged file is copied
// aside before it is rewritten. Messages name files and errors, never content.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { HistoryHeader, needsRepair, parseHistory, serializeEntry, serializeHeader, serializeHistory } from './format';
import { DEFAULT_LOCK, LockOptions, pidAlive, tryLock, unlock, withLock } from '../io/lock';
import { HistoryEntry, compactEntries } from './rules';
import { FileMark, Growth, readGrowth, readTail } from './tail';
import { asideName, ensureDir, fileEnd, openForAppend, writeAll, writeAtomic } from '../io/files';
import { describeIoError } from '../io/errors';

export interface LoadResult {
  /** Every good entry in the file, oldest first (not yet deduplicated or capped). */
  entries: HistoryEntry[];
  /** One line for the status bar, if something was wrong. */
  warning: string | null;
  /** The file was damaged (and copied aside): compaction should rewrite it clean. */
  damaged?: boolean;
  /** Only the newest lines were read: the file holds far more than its cap. */
  partial?: boolean;
  /** Where the read ended, for reading what others append later; null when there was no file. */
  mark?: FileMark | null;
}

export class HistoryFile {
  /** The damaged file on disk has been copied aside (once per damage, not per read). */
  private repaired = false;
  /** Where this process's last rewrite (compaction, deletion, clear) left the file. */
  rewritten: FileMark | null = null;

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
      const { entries, warning, partial, mark } = this.read();
      return { entries, warning, damaged: warning !== null, partial, mark };
    } catch (err) {
      return { entries: [], warning: `${this.label} unreadable (${describeIoError(err)}); kept in memory only` };
    }
  }

  /**
   * Appends entries, waiting for the lock up to its timeout (exit, commands,
   * tests). Throws on I/O failure or timeout; the caller keeps them pending.
   */
  append(entries: readonly HistoryEntry[], options: { lockTimeoutMs?: number } = {}): void {
    this.locked(options, () => this.appendLines(entries, { sync: true }));
  }

  /**
   * Appends entries if the lock is free now; false (nothing written) when
   * another process holds it. Never waits: this runs inside a keystroke.
   * Throws on I/O failure; the caller keeps the entries pending.
   */
  tryAppend(entries: readonly HistoryEntry[]): boolean {
    ensureDir(path.dirname(this.file));
    if (!tryLock(this.file, this.lock.staleMs)) return false;
    try {
      this.appendLines(entries, { sync: false });
    } finally {
      unlock(this.file);
    }
    return true;
  }

  /**
   * Rewrites the file without consecutive duplicates and capped to the newest
   * entries, under the lock. Returns how many entries it now holds.
   */
  compact(options: { lockTimeoutMs?: number } = {}): number {
    let count = 0;
    this.locked(options, () => {
      const kept = compactEntries(this.read().entries, this.maxEntries);
      this.write(kept);
      count = kept.length;
    });
    return count;
  }

  /**
   * The entries other processes appended since `mark` (whole lines only), or
   * 'replaced' when the file was rewritten or shrank since. No lock: appends
   * are whole lines, and a line still being written waits for the next look.
   */
  readSince(mark: FileMark): { entries: HistoryEntry[]; mark: FileMark } | 'same' | 'replaced' {
    let growth: Growth;
    try {
      growth = readGrowth(this.file, mark);
    } catch {
      return 'replaced';
    }
    if (growth.kind !== 'grew') return growth.kind;
    return { entries: parseHistory(growth.bytes).entries, mark: growth.mark };
  }

  /** The start of the file as it is now (one that did not exist when it was loaded): everything in it is new. */
  startMark(): FileMark | null {
    try {
      return { offset: 0, ino: fs.statSync(this.file).ino };
    } catch {
      return null;
    }
  }

  /**
   * Deletes the entries `matches` picks, under the lock: the file is rewritten
   * (temp, fsync, rename) with its header and every other entry as they were.
   * Returns how many went; nothing is rewritten when none did.
   */
  remove(matches: (e: HistoryEntry) => boolean, options: { lockTimeoutMs?: number } = {}): number {
    let removed = 0;
    this.locked(options, () => {
      const { entries, header } = this.read();
      const kept = entries.filter((e) => !matches(e));
      removed = entries.length - kept.length;
      if (removed > 0) this.write(kept, header ?? this.header);
    });
    return removed;
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
   * One write of whole lines at the end; a new file gets its header, a torn
   * last line its missing newline. `sync` fsyncs before returning; otherwise
   * the fsync runs off the event loop (the line is already in the page cache,
   * so it outlives this process either way; the fsync is for power cuts).
   */
  private appendLines(entries: readonly HistoryEntry[], options: { sync: boolean }): void {
    if (entries.length === 0) return;
    let data = '';
    for (const e of entries) data += serializeEntry(e) + '\n';
    const fd = openForAppend(this.file);
    try {
      const end = fileEnd(fd);
      if (end === 'empty') data = serializeHeader(this.header) + '\n' + data;
      // A writer killed mid-line left it torn: ours starts on a line of its own.
      else if (end === 'torn') data = '\n' + data;
      writeAll(fd, data);
      if (options.sync) fs.fsyncSync(fd);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
    if (options.sync) fs.closeSync(fd);
    else fs.fsync(fd, () => fs.close(fd, () => undefined));
  }

  /**
   * The file's good entries. A damaged file is copied aside before anything
   * rewrites it; a directory in its place is moved aside. Other I/O errors throw.
   */
  private read(): LoadResult & { header: HistoryHeader | null } {
    let bytes: Buffer;
    let partial: boolean;
    let mark: FileMark;
    try {
      // Lines older than 1.25 x the cap can never be shown or kept: past a few MiB they are not read.
      const tail = readTail(this.file, Math.ceil(this.maxEntries * 1.25) + 2);
      bytes = tail.bytes;
      partial = !tail.whole;
      mark = tail.mark;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { entries: [], warning: null, header: null };
      if (code !== 'EISDIR') throw err;
      const aside = this.moveAside();
      return {
        entries: [],
        warning: `${this.label} file was a directory; moved to ${path.basename(aside ?? '?')}`,
        header: null,
      };
    }
    const parsed = parseHistory(bytes);
    if (!needsRepair(parsed, this.header))
      return { entries: parsed.entries, warning: null, header: parsed.header, partial, mark };
    const aside = this.copyAside(partial ? null : bytes);
    return {
      entries: parsed.entries,
      header: null,
      partial,
      mark,
      warning:
        `${this.label} damaged (${parsed.problems.join(', ')}); kept ${parsed.entries.length} entries, ` +
        `original saved as ${aside ? path.basename(aside) : '(copy failed)'}`,
    };
  }

  private write(entries: readonly HistoryEntry[], header: HistoryHeader = this.header): void {
    const data = serializeHistory(header, entries);
    writeAtomic(this.file, data);
    // Taken under the lock, so no other process's append can fall between the rewrite and the mark.
    this.rewritten = { offset: Buffer.byteLength(data), ino: fs.statSync(this.file).ino };
    // The file is whole again: if it is ever damaged anew, that copy is made too.
    this.repaired = false;
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

  /** Saves the damaged file as it is: the bytes read, or (when only its tail was read) a copy of the whole file. */
  private copyAside(bytes: Buffer | null): string | null {
    if (this.repaired) return null;
    const aside = asideName(this.file);
    try {
      if (bytes) fs.writeFileSync(aside, bytes, { mode: 0o600, flag: 'wx' });
      else {
        fs.copyFileSync(this.file, aside, fs.constants.COPYFILE_EXCL);
        fs.chmodSync(aside, 0o600);
      }
      this.repaired = true;
      return aside;
    } catch {
      return null;
    }
  }

  private moveAside(): string | null {
    const aside = asideName(this.file);
    try {
      // A directory where the file should be: moved aside whole, nothing inside it lost.
      fs.renameSync(this.file, aside);
      return aside;
    } catch {
      return null;
    }
  }
}

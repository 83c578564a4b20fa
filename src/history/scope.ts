// One history file as the running milk lives it: the list Up/Down and search
// walk, what still waits to be written, and how far the file has been read.
// An append is one try under the lock, never a wait: a busy lock is retried
// from a timer and, held for long, warned about once. The list is changed
// only in place (the search index sees it grow or shrink by identity).

import { recallable, serializeEntry } from './format';
import { HistoryEntry, compactEntries, sameInput } from './rules';
import type { HistoryFile } from './store';
import type { FileMark } from './tail';
import { describeIoError } from '../io/errors';
import { stashEntries, takeStashed } from './stash';

/** A lock busy this long is worth a warning (other milks hold it for milliseconds). */
const LOCK_WARN_MS = 1000;
const RETRY_FIRST_MS = 10;
const RETRY_MAX_MS = 250;
/** A file is compacted when it holds more than this many times its cap. */
const COMPACT_RATIO = 1.25;
/** A deletion waits this long for another process's lock (they hold it for milliseconds). */
export const FORGET_LOCK_MS = 300;

export interface ScopeOptions {
  maxEntries: number;
  /** False: no data dir; the list lives in memory and nothing is written. */
  writes: boolean;
  warn: (text: string) => void;
  /** A warning given at most once in this process however many files or reads meet its cause. */
  warnOnce: (text: string) => void;
  /** Entries kept only in memory (a draft cleared with Ctrl-C): on the list, never on disk. */
  remembered: WeakSet<HistoryEntry>;
  /** Milliseconds, for how long a lock has been busy and what is left of the exit budget. */
  clock: () => number;
}

export class HistoryScope {
  /** What Up/Down walk: loaded at start, plus this process's own inputs and others' as they are read. */
  readonly list: HistoryEntry[] = [];
  private pending: HistoryEntry[] = [];
  /** Entries in the file as far as this process knows (its own appends counted). */
  private onDisk = 0;
  /** The file was found damaged: rewrite it at the next compaction. */
  private damaged = false;
  /** A write failed (or the lock stayed busy) and the person was told. */
  private failing = false;
  /** Since when the lock has been busy, while an append waits for it. */
  private lockedSince: number | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryMs = RETRY_FIRST_MS;
  /** How far the file has been read (others' appends start there); null before there was a file. */
  private mark: FileMark | null = null;
  /** Lines this process appended and has not yet met again when reading what others appended. */
  private readonly own = new Map<string, number>();

  constructor(
    readonly file: HistoryFile,
    private readonly options: ScopeOptions,
  ) {}

  load(): void {
    const stashed = this.takeStashed();
    const { entries, warning, damaged, partial, mark } = this.file.load();
    this.mark = mark ?? null;
    // Appends from several processes leave duplicates and overshoot the cap until compaction.
    this.replaceList(this.recallable(entries));
    // A file read only in part holds more than it is worth: compact it.
    this.onDisk = partial ? Number.MAX_SAFE_INTEGER : entries.length;
    this.damaged = damaged === true;
    if (warning) this.options.warn(warning);
    // What an earlier milk could not write at its exit: written now, or kept pending here.
    for (const e of stashed) this.record(e);
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  /** Entries on the list, a draft only remembered not counted. */
  count(): number {
    return this.list.reduce((n, e) => n + (this.options.remembered.has(e) ? 0 : 1), 0);
  }

  /** An input for the list and, lock permitting, the file now. */
  record(entry: HistoryEntry): void {
    // A remembered draft sent as it was is replaced, not counted as the entry before it.
    const last = this.list[this.list.length - 1];
    if (last && this.options.remembered.has(last) && sameInput(last, entry)) this.list.pop();
    if (this.add(entry) && this.options.writes) {
      this.pending.push(entry);
      // A dir that stays unwritable must not grow memory without bound either.
      if (this.pending.length > this.options.maxEntries) this.pending.shift();
    }
    this.persist();
  }

  /** On the list only, never written (a composer cleared with Ctrl-C). */
  remember(entry: HistoryEntry): void {
    this.add(entry);
  }

  /**
   * Adds an entry in place unless it repeats the newest, keeping the newest
   * maxEntries. In place because copying a 100,000-entry list costs
   * milliseconds inside the Enter key; nothing holds an index into a list
   * across a submit (a browse or search ends before one).
   */
  private add(entry: HistoryEntry): boolean {
    const last = this.list[this.list.length - 1];
    if (last && sameInput(last, entry)) return false;
    this.list.push(entry);
    // shift() moves every element (linear in the list); past the cap it runs once per submit.
    while (this.list.length > this.options.maxEntries) this.list.shift();
    return true;
  }

  /** Deletes every entry `is` picks from the list, the pending ones and the file; returns how many left the list. */
  forget(is: (e: HistoryEntry) => boolean): number {
    let kept = 0;
    for (const e of this.list) if (!is(e)) this.list[kept++] = e;
    const removed = this.list.length - kept;
    this.list.length = kept;
    this.pending = this.pending.filter((e) => !is(e));
    if (!this.options.writes) return removed;
    try {
      const gone = this.file.remove(is, { lockTimeoutMs: FORGET_LOCK_MS });
      if (gone > 0) {
        this.onDisk -= gone;
        this.mark = this.file.rewritten;
        this.own.clear();
      }
    } catch (err) {
      this.options.warn(
        `could not delete from the ${this.file.label} file (${describeIoError(err)}); milk history delete can retry`,
      );
    }
    return removed;
  }

  /** One try at appending what is pending; a busy lock is retried from a timer, never waited for here. */
  persist(): void {
    if (this.pending.length === 0) return;
    let written: boolean;
    try {
      written = this.file.tryAppend(this.pending);
    } catch (err) {
      // Retried on the next submit and at exit.
      if (!this.failing) {
        this.failing = true;
        this.options.warn(`${this.file.label} not saved (${describeIoError(err)}); kept in memory`);
      }
      return;
    }
    if (written) return this.saved();
    const now = this.options.clock();
    this.lockedSince ??= now;
    if (!this.failing && now - this.lockedSince >= LOCK_WARN_MS) {
      this.failing = true;
      this.options.warn(`${this.file.label} not saved (${describeIoError({ code: 'ELOCKED' })}); kept in memory`);
    }
    if (!this.retry) {
      this.retry = setTimeout(() => {
        this.retry = null;
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
        this.persist();
      }, this.retryMs);
      this.retry.unref();
    }
  }

  private saved(): void {
    this.wrote();
    this.lockedSince = null;
    this.stopRetry();
    if (this.failing) {
      this.failing = false;
      this.options.warn(`${this.file.label} saved again`);
    }
  }

  /** At exit: what is pending, waiting for the lock until `deadline`. */
  flush(deadline: number): void {
    this.stopRetry();
    if (this.pending.length === 0) return;
    try {
      this.file.append(this.pending, { lockTimeoutMs: Math.max(0, deadline - this.options.clock()) });
      this.wrote();
    } catch {
      // The lock stayed busy (or the write failed): the entries go into a file of their own beside the
      // history, which the next milk to start merges. Nothing entered is lost with this process.
      this.stash();
    }
  }

  /** Writes what is still pending beside the file, for the next milk to take in (history/stash.ts). */
  private stash(): void {
    if (!this.options.writes || this.pending.length === 0) return;
    if (stashEntries(this.file.file, this.pending, this.options.clock())) this.pending = [];
  }

  /** The entries earlier milks stashed at exit, oldest first. */
  private takeStashed(): HistoryEntry[] {
    return this.options.writes ? takeStashed(this.file.file) : [];
  }

  /** The pending entries are on disk: counted, and remembered as ours for when the file is read again. */
  private wrote(): void {
    for (const e of this.pending) {
      const line = serializeEntry(e);
      this.own.set(line, (this.own.get(line) ?? 0) + 1);
    }
    this.onDisk += this.pending.length;
    this.pending = [];
  }

  /**
   * Takes in what other milks appended since the file was last read; a file rewritten by another is read again whole.
   */
  refresh(): void {
    // A file that did not exist at load (another milk, or this one, made it since) is new from its first byte.
    const mark = this.mark ?? this.file.startMark();
    if (!mark) return;
    const growth = this.file.readSince(mark);
    if (growth === 'same') return;
    if (growth === 'replaced') return this.reload();
    this.mark = growth.mark;
    for (const e of growth.entries) {
      const line = serializeEntry(e);
      const mine = this.own.get(line) ?? 0;
      if (mine > 0) {
        if (mine === 1) this.own.delete(line);
        else this.own.set(line, mine - 1);
        continue;
      }
      this.onDisk++;
      if (recallable(e)) this.insert(e);
    }
  }

  /**
   * Places another process's entry among this one's by when it was entered
   * (usually at the end, or a few back), skipping it beside an equal input.
   */
  private insert(entry: HistoryEntry): void {
    const list = this.list;
    let at = list.length;
    while (at > 0 && list[at - 1].ts > entry.ts) at--;
    if ((at > 0 && sameInput(list[at - 1], entry)) || (at < list.length && sameInput(list[at], entry))) return;
    list.splice(at, 0, entry);
    while (list.length > this.options.maxEntries) list.shift();
  }

  /** Reads the file again whole (another process rewrote it), keeping what is still pending here. */
  private reload(): void {
    const { entries, mark, warning } = this.file.load();
    if (!mark) return;
    if (warning) this.options.warn(warning);
    this.mark = mark;
    this.own.clear();
    this.onDisk = entries.length;
    // What is pending here, and a draft kept only in memory, stay.
    const kept = this.list.filter((e) => this.options.remembered.has(e));
    this.replaceList(this.recallable(entries));
    for (const e of [...this.pending, ...kept]) this.add(e);
  }

  /** What Up/Down may walk of a file's entries: a newer milk's kinds stay in the file only (said once). */
  private recallable(entries: readonly HistoryEntry[]): HistoryEntry[] {
    const shown = entries.filter(recallable);
    if (shown.length < entries.length) {
      this.options.warnOnce('history holds inputs of a kind a newer milk wrote: kept in the file, not shown here');
    }
    return compactEntries(shown, this.options.maxEntries);
  }

  /** In place, like every change to the list. */
  private replaceList(entries: readonly HistoryEntry[]): void {
    this.list.length = 0;
    for (const e of entries) this.list.push(e);
  }

  private stopRetry(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.retryMs = RETRY_FIRST_MS;
  }

  /** Worth rewriting while milk runs: damaged, or grown well past the cap (so not at every submit). */
  get needsCompaction(): boolean {
    return this.damaged || this.onDisk > this.options.maxEntries * COMPACT_RATIO;
  }

  /** To rewrite at exit: damaged, or holding more than the cap at all (the file is left at its cap). */
  get overCap(): boolean {
    return this.damaged || this.onDisk > this.options.maxEntries;
  }

  compact(lockTimeoutMs: number): void {
    try {
      this.onDisk = this.file.compact({ lockTimeoutMs });
      this.damaged = false;
      // Our own rewrite: the list already holds what it kept.
      this.mark = this.file.rewritten;
      this.own.clear();
    } catch {
      // The lock was busy or the disk refused: the file stays as it is, only larger; tried again later.
    }
  }
}

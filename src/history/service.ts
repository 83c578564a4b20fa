// The history service: the two files (session and global), the lists Up/Down
// and search walk, which of them is active, and what still waits to be
// written. A submit appends its entry to both files at once when their locks
// are free (one short write each, never a wait); when another process holds a
// lock the entry stays pending and a timer retries. Files are compacted
// (deduplicated, capped) when they grow past 1.25 × the cap, at idle or at
// exit. Whatever is pending is flushed at exit within a short budget.

import * as path from 'node:path';
import { Segment, segmentsText } from '../editor/model';
import { historyHeader, serializeEntry } from './format';
import { DEFAULT_LOCK, LockOptions } from './lock';
import { HistoryEntry, StoreVerdict, compactEntries, sameInput, storeVerdict } from './rules';
import { HistoryFile, describeIoError, ensureDir } from './store';
import type { FileMark } from './tail';
import type { HistoryMode } from '../settings/store';


export interface HistoryPaths {
  session: string;
  global: string;
}

export function historyPaths(dataDir: string, sessionId: string): HistoryPaths {
  return {
    session: path.join(dataDir, 'sessions', `${sessionId}.history`),
    global: path.join(dataDir, 'input_history'),
  };
}

export interface HistoryServiceOptions {
  /** Null: no data dir could be found; history lives in memory only and nothing is written. */
  dataDir: string | null;
  sessionId: string;
  /** Canonical workspace path, or null for a named session. */
  workspace: string | null;
  displayName: string;
  maxEntries: number;
  lock?: LockOptions;
  /** Shows a one-line warning (never history content). */
  warn: (text: string) => void;
  now?: () => Date;
  /** Where the history mode is kept (the settings); without it, a mode of the service's own. */
  settings?: { historyMode: HistoryMode };
}

interface Scope {
  readonly file: HistoryFile;
  /** What Up/Down walk: loaded at start, plus this process's own inputs. */
  list: HistoryEntry[];
  pending: HistoryEntry[];
  /** Entries in the file as far as this process knows (its own appends counted). */
  onDisk: number;
  /** The file was found damaged: rewrite it at the next compaction. */
  damaged: boolean;
  /** A write failed (or the lock stayed busy) and the person was told. */
  failing: boolean;
  /** Since when the lock has been busy, while an append waits for it. */
  lockedSince: number | null;
  retry: NodeJS.Timeout | null;
  retryMs: number;
  /** How far the file has been read (others' appends start there); null before there was a file. */
  mark: FileMark | null;
  /** Lines this process appended and has not yet met again when reading what others appended. */
  own: Map<string, number>;
}

/** Exit waits at most this long in all for other processes' locks. */
const EXIT_BUDGET_MS = 180;
/** A lock busy this long is worth a warning (other milks hold it for milliseconds). */
const LOCK_WARN_MS = 1000;
const RETRY_FIRST_MS = 10;
const RETRY_MAX_MS = 250;
/** Compaction waits for this long without a submit, so it never lands between two keys of a burst. */
const COMPACT_IDLE_MS = 1500;
/** A file is compacted when it holds more than this many times its cap. */
const COMPACT_RATIO = 1.25;
/** A deletion waits this long for another process's lock (they hold it for milliseconds). */
const FORGET_LOCK_MS = 300;

export class HistoryService {
  private readonly settings: { historyMode: HistoryMode };
  private readonly scopes: Record<HistoryMode, Scope>;
  /** Entries kept only in memory (cleared with Ctrl-C), never written. */
  private readonly remembered = new WeakSet<HistoryEntry>();
  private readonly now: () => Date;
  private compactTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: HistoryServiceOptions) {
    this.now = options.now ?? (() => new Date());
    this.settings = options.settings ?? { historyMode: 'session' };
    // Without a data dir the files are never opened; the paths only name them.
    const paths = historyPaths(options.dataDir ?? '/nonexistent-milk-data', options.sessionId);
    const make = (mode: HistoryMode): Scope => ({
      file: new HistoryFile(paths[mode], historyHeader(mode, options), options.maxEntries, options.lock ?? DEFAULT_LOCK),
      list: [],
      pending: [],
      onDisk: 0,
      damaged: false,
      failing: false,
      lockedSince: null,
      retry: null,
      retryMs: RETRY_FIRST_MS,
      mark: null,
      own: new Map(),
    });
    this.scopes = { session: make('session'), global: make('global') };
  }

  /** Reads both files. Never throws; problems become warnings. */
  load(): void {
    if (this.options.dataDir === null) return;
    try {
      ensureDir(path.join(this.options.dataDir, 'sessions'));
    } catch (err) {
      this.options.warn(`data dir unusable (${describeIoError(err)}); history kept in memory only`);
    }
    for (const scope of this.all()) {
      const { entries, warning, damaged, partial, mark } = scope.file.load();
      scope.mark = mark ?? null;
      // Appends from several processes leave duplicates and overshoot the cap until compaction.
      scope.list = compactEntries(entries, this.options.maxEntries);
      // A file read only in part holds more than it is worth: compact it.
      scope.onDisk = partial ? Number.MAX_SAFE_INTEGER : entries.length;
      scope.damaged = damaged === true;
      if (warning) this.options.warn(warning);
    }
    if (this.all().some((s) => this.needsCompaction(s))) this.scheduleCompaction();
  }

  /** Which list Up/Down and search walk: the settings' history mode. */
  get mode(): HistoryMode {
    return this.settings.historyMode;
  }

  set mode(mode: HistoryMode) {
    this.settings.historyMode = mode;
  }

  /** The list Up/Down and search walk in the current mode. */
  list(): readonly HistoryEntry[] {
    return this.scopes[this.mode].list;
  }

  /** Both lists, session first. */
  lists(): ReadonlyArray<readonly HistoryEntry[]> {
    return [this.scopes.session.list, this.scopes.global.list];
  }

  /** The list the other mode walks (what Ctrl+T in a search switches to). */
  otherList(): readonly HistoryEntry[] {
    return this.scopes[this.mode === 'session' ? 'global' : 'session'].list;
  }

  /**
   * Deletes every entry whose text is `text` (a secret that slipped past the
   * filter): from both lists, from what is pending, and from both files,
   * each rewritten under its lock with every other entry and its header kept.
   * Returns how many entries left the active list.
   */
  forget(text: string): number {
    const is = (e: HistoryEntry): boolean => segmentsText(e.segments) === text;
    let removed = 0;
    for (const scope of this.all()) {
      // In place, like every change to a list: the search index sees it shrink and rebuilds.
      let kept = 0;
      for (const e of scope.list) if (!is(e)) scope.list[kept++] = e;
      if (scope === this.scopes[this.mode]) removed = scope.list.length - kept;
      scope.list.length = kept;
      scope.pending = scope.pending.filter((e) => !is(e));
      if (this.options.dataDir === null) continue;
      try {
        const gone = scope.file.remove(is, { lockTimeoutMs: FORGET_LOCK_MS });
        if (gone === 0) continue;
        scope.onDisk -= gone;
        scope.mark = scope.file.rewritten;
        scope.own.clear();
      } catch (err) {
        this.options.warn(`could not delete from the ${scope.file.label} file (${describeIoError(err)}); milk history delete can retry`);
      }
    }
    return removed;
  }

  /** Entries on disk and pending, per file; a draft only remembered (cleared with Ctrl-C) is not one. */
  counts(): Record<HistoryMode, number> {
    const count = (scope: Scope): number => scope.list.reduce((n, e) => n + (this.remembered.has(e) ? 0 : 1), 0);
    return { session: count(this.scopes.session), global: count(this.scopes.global) };
  }

  /**
   * An input was submitted or queued: unless the rules say no, it goes into
   * both lists and, lock permitting, both files now, before the turn starts.
   */
  record(segments: readonly Segment[]): StoreVerdict {
    const verdict = storeVerdict(segments);
    if (!verdict.store) {
      // Every withheld input says so, each time: a person must never guess whether one was kept.
      if (verdict.reason === 'secret') this.options.warn(`input looks like a secret (${verdict.secret}): not saved to history`);
      if (verdict.reason === 'too-large') {
        const mb = (segmentsText(segments).length / 1e6).toFixed(1);
        this.options.warn(`input too large for history (${mb} M characters, limit 1 M): not saved`);
      }
      return verdict;
    }
    // The session's name travels with the entry, so the global history can say where it came from.
    const entry: HistoryEntry = { ts: this.now().toISOString(), segments: segments.map((s) => ({ ...s })), from: this.options.displayName };
    for (const scope of this.all()) {
      // A remembered draft sent as it was is replaced, not counted as the entry before it.
      const last = scope.list[scope.list.length - 1];
      if (last && this.remembered.has(last) && sameInput(last, entry)) scope.list.pop();
      if (this.add(scope.list, entry) && this.options.dataDir !== null) {
        scope.pending.push(entry);
        // A dir that stays unwritable must not grow memory without bound either.
        if (scope.pending.length > this.options.maxEntries) scope.pending.shift();
      }
      this.persist(scope);
    }
    if (this.all().some((s) => this.needsCompaction(s))) this.scheduleCompaction();
    return verdict;
  }

  /** Keeps text reachable with Up without writing it anywhere (a composer cleared with Ctrl-C). */
  remember(segments: readonly Segment[]): void {
    if (storeVerdict(segments).store === false) return;
    const entry: HistoryEntry = { ts: this.now().toISOString(), segments: segments.map((s) => ({ ...s })) };
    this.remembered.add(entry);
    for (const scope of this.all()) this.add(scope.list, entry);
  }

  /**
   * Adds an entry to a list in place unless it repeats the newest, keeping the
   * newest maxEntries. In place because copying a 100,000-entry list costs
   * milliseconds inside the Enter key; nothing holds an index into a list
   * across a submit (a browse or search ends before one).
   */
  private add(list: HistoryEntry[], entry: HistoryEntry): boolean {
    const last = list[list.length - 1];
    if (last && sameInput(last, entry)) return false;
    list.push(entry);
    // shift() on a large array is constant time in V8 (it moves the array's start).
    while (list.length > this.options.maxEntries) list.shift();
    return true;
  }

  /**
   * Places another process's entry among this one's by when it was entered
   * (usually at the end, or a few back), skipping it beside an equal input.
   */
  private insert(list: HistoryEntry[], entry: HistoryEntry): void {
    let at = list.length;
    while (at > 0 && list[at - 1].ts > entry.ts) at--;
    if ((at > 0 && sameInput(list[at - 1], entry)) || (at < list.length && sameInput(list[at], entry))) return;
    list.splice(at, 0, entry);
    while (list.length > this.options.maxEntries) list.shift();
  }

  /**
   * Writes whatever is still pending, sharing a short budget for lock waits
   * between both files, then compacts a file that has outgrown its cap.
   */
  flush(options: { reason: 'exit' }): void {
    const deadline = Date.now() + (options.reason === 'exit' ? EXIT_BUDGET_MS : 0);
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = null;
    for (const scope of this.all()) {
      this.stopRetry(scope);
      if (scope.pending.length === 0) continue;
      try {
        scope.file.append(scope.pending, { lockTimeoutMs: Math.max(0, deadline - Date.now()) });
        this.wrote(scope);
      } catch {
        // Still pending: nothing more can be done on the way out.
      }
    }
    for (const scope of this.all()) if (this.needsCompaction(scope)) this.compact(scope, Math.max(0, deadline - Date.now()));
  }

  get pendingCount(): number {
    return this.scopes.session.pending.length + this.scopes.global.pending.length;
  }

  private all(): Scope[] {
    return [this.scopes.session, this.scopes.global];
  }

  /** One try at appending what is pending; a busy lock is retried from a timer, never waited for here. */
  private persist(scope: Scope): void {
    if (scope.pending.length === 0) return;
    let written: boolean;
    try {
      written = scope.file.tryAppend(scope.pending);
    } catch (err) {
      // Retried on the next submit and at exit.
      if (!scope.failing) {
        scope.failing = true;
        this.options.warn(`${scope.file.label} not saved (${describeIoError(err)}); kept in memory`);
      }
      return;
    }
    if (written) {
      this.wrote(scope);
      scope.lockedSince = null;
      this.stopRetry(scope);
      if (scope.failing) {
        scope.failing = false;
        this.options.warn(`${scope.file.label} saved again`);
      }
      return;
    }
    const now = Date.now();
    scope.lockedSince ??= now;
    if (!scope.failing && now - scope.lockedSince >= LOCK_WARN_MS) {
      scope.failing = true;
      this.options.warn(`${scope.file.label} not saved (${describeIoError({ code: 'ELOCKED' })}); kept in memory`);
    }
    if (!scope.retry) {
      scope.retry = setTimeout(() => {
        scope.retry = null;
        scope.retryMs = Math.min(scope.retryMs * 2, RETRY_MAX_MS);
        this.persist(scope);
      }, scope.retryMs);
      scope.retry.unref();
    }
  }

  /** The pending entries are on disk: counted, and remembered as ours for when the file is read again. */
  private wrote(scope: Scope): void {
    for (const e of scope.pending) {
      const line = serializeEntry(e);
      scope.own.set(line, (scope.own.get(line) ?? 0) + 1);
    }
    scope.onDisk += scope.pending.length;
    scope.pending = [];
  }

  /**
   * Takes in what other milks appended to the files since they were last
   * read: called when browsing or a search starts, never during one, so a
   * list never shifts under the person. A look is one stat when nothing
   * changed; a file another process rewrote is read again whole.
   */
  refresh(): void {
    if (this.options.dataDir === null) return;
    for (const scope of this.all()) {
      // A file that did not exist at load (another milk, or this one, made it since) is new from its first byte.
      const mark = scope.mark ?? scope.file.startMark();
      if (!mark) continue;
      const growth = scope.file.readSince(mark);
      if (growth === 'same') continue;
      if (growth === 'replaced') {
        this.reload(scope);
        continue;
      }
      scope.mark = growth.mark;
      for (const e of growth.entries) {
        const line = serializeEntry(e);
        const mine = scope.own.get(line) ?? 0;
        if (mine > 0) {
          if (mine === 1) scope.own.delete(line);
          else scope.own.set(line, mine - 1);
          continue;
        }
        scope.onDisk++;
        this.insert(scope.list, e);
      }
    }
  }

  /** Reads a scope's file again whole (another process rewrote it), keeping what is still pending here. */
  private reload(scope: Scope): void {
    const { entries, mark, warning } = scope.file.load();
    if (!mark) return;
    if (warning) this.options.warn(warning);
    scope.mark = mark;
    scope.own.clear();
    scope.onDisk = entries.length;
    // In place, like every change to a list; what is pending here, and a draft kept only in memory, stay.
    const kept = scope.list.filter((e) => this.remembered.has(e));
    scope.list.length = 0;
    for (const e of compactEntries(entries, this.options.maxEntries)) scope.list.push(e);
    for (const e of [...scope.pending, ...kept]) this.add(scope.list, e);
  }

  private stopRetry(scope: Scope): void {
    if (scope.retry) clearTimeout(scope.retry);
    scope.retry = null;
    scope.retryMs = RETRY_FIRST_MS;
  }

  private needsCompaction(scope: Scope): boolean {
    return scope.damaged || scope.onDisk > this.options.maxEntries * COMPACT_RATIO;
  }

  /** Compaction runs once submits have paused; each new submit pushes it back. */
  private scheduleCompaction(): void {
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = setTimeout(() => {
      this.compactTimer = null;
      for (const scope of this.all()) {
        if (scope.pending.length === 0 && this.needsCompaction(scope)) this.compact(scope, 0);
      }
    }, COMPACT_IDLE_MS);
    this.compactTimer.unref();
  }

  private compact(scope: Scope, lockTimeoutMs: number): void {
    try {
      scope.onDisk = scope.file.compact({ lockTimeoutMs });
      scope.damaged = false;
      // Our own rewrite: the list already holds what it kept.
      scope.mark = scope.file.rewritten;
      scope.own.clear();
    } catch {
      // The lock was busy or the disk refused: the file stays as it is, only larger; tried again later.
    }
  }
}

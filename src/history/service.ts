// The history service: the pair of history files (session and global, each a
// HistoryScope), which of them Up/Down and search walk (the settings' history
// mode), and the rules for what is kept. A submit goes to both at once, never
// waiting for a lock; files are compacted (deduplicated, capped) once they
// grow past 1.25 × the cap, at idle or at exit; whatever is pending is
// flushed at exit within a short budget.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { segmentsText } from '../editor/model';
import { Segment } from '../protocol/segments';
import { historyHeader } from './format';
import { DEFAULT_LOCK, LockOptions } from '../io/lock';
import { HistoryEntry, StoreVerdict, storeVerdict } from './rules';
import { FORGET_LOCK_MS, HistoryScope } from './scope';
import { HistoryFile } from './store';
import { describeIoError } from '../io/errors';
import { ensureDir } from '../io/files';
import { HistoryMode, otherMode } from '../settings/store';
import { dataLayout } from '../kernel/data-dir';

export interface HistoryPaths {
  session: string;
  global: string;
}

export function historyPaths(dataDir: string, sessionId: string): HistoryPaths {
  return {
    session: dataLayout(dataDir).sessionHistory(sessionId),
    global: dataLayout(dataDir).globalHistory,
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
  /** Milliseconds, for lock budgets and warnings (tests pass their own). */
  clock?: () => number;
  /** Where the history mode is kept (the settings); without it, a mode of the service's own. */
  settings?: { readonly historyMode: HistoryMode; setHistoryMode(mode: HistoryMode): void };
}

/** Exit waits at most this long in all for other processes' locks. */
const EXIT_BUDGET_MS = 180;
/** Compaction waits for this long without a submit, so it never lands between two keys of a burst. */
const COMPACT_IDLE_MS = 1500;

export class HistoryService {
  private readonly settings: { readonly historyMode: HistoryMode; setHistoryMode(mode: HistoryMode): void };
  private readonly scopes: Record<HistoryMode, HistoryScope>;
  /** Entries kept only in memory (cleared with Ctrl-C), never written. */
  private readonly remembered = new WeakSet<HistoryEntry>();
  private readonly now: () => Date;
  private readonly clock: () => number;
  private compactTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: HistoryServiceOptions) {
    this.now = options.now ?? (() => new Date());
    let own: HistoryMode = 'session';
    this.settings = options.settings ?? {
      get historyMode() {
        return own;
      },
      setHistoryMode: (mode) => void (own = mode),
    };
    // Without a data dir the files are never opened; the paths only name them.
    const paths = historyPaths(options.dataDir ?? '/nonexistent-milk-data', options.sessionId);
    this.clock = options.clock ?? Date.now;
    const warned = new Set<string>();
    const warnOnce = (text: string): void => {
      if (warned.has(text)) return;
      warned.add(text);
      options.warn(text);
    };
    const scope = {
      maxEntries: options.maxEntries,
      writes: options.dataDir !== null,
      warn: options.warn,
      warnOnce,
      remembered: this.remembered,
      clock: this.clock,
    };
    const make = (mode: HistoryMode): HistoryScope =>
      new HistoryScope(
        new HistoryFile(paths[mode], historyHeader(mode, options), options.maxEntries, options.lock ?? DEFAULT_LOCK),
        scope,
      );
    this.scopes = { session: make('session'), global: make('global') };
  }

  /** Which list Up/Down and search walk: the settings' history mode. */
  get mode(): HistoryMode {
    return this.settings.historyMode;
  }

  set mode(mode: HistoryMode) {
    this.settings.setHistoryMode(mode);
  }

  /** Reads both files. Never throws; problems become warnings. */
  load(): void {
    if (this.options.dataDir === null) return;
    try {
      ensureDir(dataLayout(this.options.dataDir).sessions);
    } catch (err) {
      this.options.warn(`data dir unusable (${describeIoError(err)}); history kept in memory only`);
    }
    for (const scope of this.all()) scope.load();
    if (this.all().some((s) => s.needsCompaction)) this.scheduleCompaction();
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
    return this.scopes[otherMode(this.mode)].list;
  }

  /**
   * Deletes every entry whose text is `text` (a secret that slipped past the
   * filter): from both lists, from what is pending, from both files, and from
   * every other session's history file (a global search finds entries other
   * sessions made, and their files hold them too), each rewritten under its
   * lock with every other entry and its header kept. Says how many entries
   * left how many files (or lists, without a data dir).
   */
  forget(text: string): { entries: number; files: number } {
    const is = (e: HistoryEntry): boolean => segmentsText(e.segments) === text;
    let entries = 0;
    let files = 0;
    const count = (n: number): void => {
      entries += n;
      if (n > 0) files++;
    };
    for (const scope of this.all()) count(scope.forget(is));
    for (const file of this.otherSessionFiles()) {
      const sessionId = path.basename(file, '.history');
      const store = new HistoryFile(
        file,
        historyHeader('session', { sessionId, workspace: null, displayName: sessionId }),
        Number.MAX_SAFE_INTEGER,
        this.options.lock ?? DEFAULT_LOCK,
      );
      try {
        count(store.remove(is, { lockTimeoutMs: FORGET_LOCK_MS }));
      } catch (err) {
        this.options.warn(
          `could not delete from session ${sessionId}'s history (${describeIoError(err)}); milk history delete can ` +
            `retry`,
        );
      }
    }
    return { entries, files };
  }

  /** Every session's history file in the data dir but this one's. */
  private otherSessionFiles(): string[] {
    if (this.options.dataDir === null) return [];
    const dir = dataLayout(this.options.dataDir).sessions;
    const own = historyPaths(this.options.dataDir, this.options.sessionId).session;
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => n.endsWith('.history'))
      .map((n) => path.join(dir, n))
      .filter((f) => f !== own);
  }

  /** Entries on disk and pending, per file; a draft only remembered (cleared with Ctrl-C) is not one. */
  counts(): Record<HistoryMode, number> {
    return { session: this.scopes.session.count(), global: this.scopes.global.count() };
  }

  /**
   * An input was submitted or queued: unless the rules say no, it goes into
   * both lists and, lock permitting, both files now, before the turn starts.
   */
  record(segments: readonly Segment[]): StoreVerdict {
    const verdict = storeVerdict(segments);
    if (!verdict.store) {
      // Every withheld input says so, each time: a person must never guess whether one was kept.
      if (verdict.reason === 'secret')
        this.options.warn(`input looks like a secret (${verdict.secret}): not saved to history`);
      if (verdict.reason === 'too-large') {
        const mb = (segmentsText(segments).length / 1e6).toFixed(1);
        this.options.warn(`input too large for history (${mb} M characters, limit 1 M): not saved`);
      }
      return verdict;
    }
    // The session's name travels with the entry, so the global history can say where it came from.
    const entry: HistoryEntry = {
      ts: this.now().toISOString(),
      segments: segments.map((s) => ({ ...s })),
      from: this.options.displayName,
    };
    for (const scope of this.all()) scope.record(entry);
    if (this.all().some((s) => s.needsCompaction)) this.scheduleCompaction();
    return verdict;
  }

  /** Keeps text reachable with Up without writing it anywhere (a composer cleared with Ctrl-C). */
  remember(segments: readonly Segment[]): void {
    if (storeVerdict(segments).store === false) return;
    const entry: HistoryEntry = { ts: this.now().toISOString(), segments: segments.map((s) => ({ ...s })) };
    this.remembered.add(entry);
    for (const scope of this.all()) scope.remember(entry);
  }

  /**
   * Writes whatever is still pending, sharing a short budget for lock waits
   * between both files, then compacts a file that holds more than its cap, so
   * what is on disk after milk is at most the cap (and /history counts it so).
   */
  flush(options: { reason: 'exit' }): void {
    const deadline = this.clock() + (options.reason === 'exit' ? EXIT_BUDGET_MS : 0);
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = null;
    for (const scope of this.all()) scope.flush(deadline);
    for (const scope of this.all()) if (scope.overCap) scope.compact(Math.max(0, deadline - this.clock()));
  }

  get pendingCount(): number {
    return this.scopes.session.pendingCount + this.scopes.global.pendingCount;
  }

  /**
   * Takes in what other milks appended to the files since they were last
   * read: called when browsing or a search starts, never during one, so a
   * list never shifts under the person. A look is one stat when nothing changed.
   */
  refresh(): void {
    if (this.options.dataDir === null) return;
    for (const scope of this.all()) scope.refresh();
  }

  private all(): HistoryScope[] {
    return [this.scopes.session, this.scopes.global];
  }

  /** Compaction runs once submits have paused; each new submit pushes it back. */
  private scheduleCompaction(): void {
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = setTimeout(() => {
      this.compactTimer = null;
      for (const scope of this.all()) if (scope.pendingCount === 0 && scope.needsCompaction) scope.compact(0);
    }, COMPACT_IDLE_MS);
    this.compactTimer.unref();
  }
}

// The history service: the two files (session and global), the lists Up/Down
// and search walk, which of them is active, and what still waits to be
// written. Inputs are written at submit, before the turn starts; whatever a
// failed write left pending is retried on the next one and flushed at exit.

import * as path from 'node:path';
import { Segment, segmentsText } from '../editor/model';
import { historyHeader } from './format';
import { DEFAULT_LOCK, LockOptions } from './lock';
import { HistoryEntry, StoreVerdict, appendDeduped, capEntries, sameInput, storeVerdict } from './rules';
import { HistoryFile, describeIoError, ensureDir } from './store';

export type HistoryMode = 'session' | 'global';

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
  dataDir: string;
  sessionId: string;
  /** Canonical workspace path, or null for a named session. */
  workspace: string | null;
  displayName: string;
  maxEntries: number;
  lock?: LockOptions;
  /** Shows a one-line warning (never history content). */
  warn: (text: string) => void;
  now?: () => Date;
}

interface Scope {
  readonly file: HistoryFile;
  /** What Up/Down walk: loaded at start, plus this process's own inputs. */
  list: HistoryEntry[];
  pending: HistoryEntry[];
  failing: boolean;
}

/** Exit waits at most this long in all for other processes' locks. */
const EXIT_BUDGET_MS = 180;
/**
 * A submit waits at most this long for a lock (held for milliseconds in normal
 * use) before keeping the entry in memory and retrying on the next write: the
 * composer must not freeze behind a stuck process.
 */
const SUBMIT_LOCK: LockOptions = { timeoutMs: 750, staleMs: DEFAULT_LOCK.staleMs };

export class HistoryService {
  mode: HistoryMode = 'session';
  private readonly scopes: Record<HistoryMode, Scope>;
  private secretWarned = false;
  /** Entries kept only in memory (cleared with Ctrl-C), never written. */
  private readonly remembered = new WeakSet<HistoryEntry>();
  private readonly now: () => Date;

  constructor(private readonly options: HistoryServiceOptions) {
    this.now = options.now ?? (() => new Date());
    const paths = historyPaths(options.dataDir, options.sessionId);
    const make = (mode: HistoryMode): Scope => ({
      file: new HistoryFile(paths[mode], historyHeader(mode, options), options.maxEntries, options.lock ?? SUBMIT_LOCK),
      list: [],
      pending: [],
      failing: false,
    });
    this.scopes = { session: make('session'), global: make('global') };
  }

  /** Reads both files. Never throws; problems become warnings. */
  load(): void {
    try {
      ensureDir(path.join(this.options.dataDir, 'sessions'));
    } catch (err) {
      this.options.warn(`data dir unusable (${describeIoError(err)}); history kept in memory only`);
    }
    for (const scope of Object.values(this.scopes)) {
      const { entries, warning } = scope.file.load();
      scope.list = entries;
      if (warning) this.options.warn(warning);
    }
  }

  /** The list Up/Down and search walk in the current mode. */
  list(): readonly HistoryEntry[] {
    return this.scopes[this.mode].list;
  }

  /** Both lists, session first. */
  lists(): ReadonlyArray<readonly HistoryEntry[]> {
    return [this.scopes.session.list, this.scopes.global.list];
  }

  counts(): Record<HistoryMode, number> {
    return { session: this.scopes.session.list.length, global: this.scopes.global.list.length };
  }

  /**
   * An input was submitted or queued: unless the rules say no, it goes into
   * both lists and both files now, before the turn starts.
   */
  record(segments: readonly Segment[]): StoreVerdict {
    const verdict = storeVerdict(segments);
    if (!verdict.store) {
      if (verdict.reason === 'secret' && !this.secretWarned) {
        this.secretWarned = true;
        this.options.warn(`input looks like a secret (${verdict.secret}): not saved to history`);
      }
      if (verdict.reason === 'too-large') {
        const mb = (segmentsText(segments).length / 1e6).toFixed(1);
        this.options.warn(`input too large for history (${mb} M characters, limit 1 M): not saved`);
      }
      return verdict;
    }
    const entry: HistoryEntry = { ts: this.now().toISOString(), segments: segments.map((s) => ({ ...s })) };
    for (const scope of Object.values(this.scopes)) {
      // A remembered draft sent as it was is replaced, not counted as the entry before it.
      const last = scope.list[scope.list.length - 1];
      const base = last && this.remembered.has(last) && sameInput(last, entry) ? scope.list.slice(0, -1) : scope.list;
      scope.list = capEntries(appendDeduped(base, entry), this.options.maxEntries);
      // A dir that stays unwritable must not grow memory without bound either.
      if (scope.list[scope.list.length - 1] === entry) scope.pending = capEntries([...scope.pending, entry], this.options.maxEntries);
      this.persist(scope);
    }
    return verdict;
  }

  /** Keeps text reachable with Up without writing it anywhere (a composer cleared with Ctrl-C). */
  remember(segments: readonly Segment[]): void {
    if (storeVerdict(segments).store === false) return;
    const entry: HistoryEntry = { ts: this.now().toISOString(), segments: segments.map((s) => ({ ...s })) };
    this.remembered.add(entry);
    for (const scope of Object.values(this.scopes)) {
      scope.list = capEntries(appendDeduped(scope.list, entry), this.options.maxEntries);
    }
  }

  /** Writes whatever is still pending, sharing a short budget for lock waits between both files. */
  flush(options: { reason: 'exit' }): void {
    const deadline = Date.now() + (options.reason === 'exit' ? EXIT_BUDGET_MS : 0);
    for (const scope of Object.values(this.scopes)) this.persist(scope, Math.max(0, deadline - Date.now()));
  }

  get pendingCount(): number {
    return this.scopes.session.pending.length + this.scopes.global.pending.length;
  }

  private persist(scope: Scope, lockTimeoutMs?: number): void {
    if (scope.pending.length === 0) return;
    try {
      scope.file.append(scope.pending, { lockTimeoutMs });
      scope.pending = [];
      if (scope.failing) {
        scope.failing = false;
        this.options.warn(`${scope.file.label} saved again`);
      }
    } catch (err) {
      if (!scope.failing) {
        scope.failing = true;
        this.options.warn(`${scope.file.label} not saved (${describeIoError(err)}); kept in memory`);
      }
    }
  }
}

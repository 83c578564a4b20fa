// The workspace's paths for @-mentions, kept off the keystroke path: listed
// as glob lists them (ripgrep or milk's walker, .gitignore honoured) after
// the screen is up, listed again whenever the picker opens on a list older
// than a few seconds, and prepared for the matcher in short slices. A search
// runs in slices between keystrokes too; a newer query drops an older one's
// work. What the person typed never waits for any of it.

import {
  FileHit,
  PreparedPath,
  addWithFolders,
  browsePaths,
  mergeHits,
  preparePaths,
  rankSlice,
} from '../search/files';
import * as path from 'node:path';
import { workspaceFiles } from './search';

/** Paths kept at most: a workspace bigger than this (a home folder) is cut, and the picker says so. */
export const MAX_INDEXED = 200_000;
/** Paths prepared or searched per slice: a few milliseconds each, however large the workspace. */
const SLICE = 1000;
/** An index older than this is listed again when the picker opens. */
const STALE_MS = 3000;

export interface FileResults {
  readonly query: string;
  readonly hits: readonly FileHit[];
  /** The index is still being built: more may come. */
  readonly indexing: boolean;
  /** The workspace had more paths than MAX_INDEXED. */
  readonly cut: boolean;
}

export class FileIndex {
  private paths: string[] = [];
  private prepared: PreparedPath[] = [];
  private built = false;
  private cut = false;
  private builtAt = -Infinity;
  private building = false;
  /** Bumped by each search: a slice of an older one stops. */
  private generation = 0;
  private last: { query: string; limit: number; done: (r: FileResults) => void } | null = null;
  private waiting: Array<() => void> = [];

  constructor(
    private readonly workspace: string,
    private readonly clock: () => number = Date.now,
    /** Directories added to the workspace (--add-dir, /add-dir): their files listed too, by their whole paths. */
    private readonly also: () => readonly string[] = () => [],
  ) {}

  /**
   * Lists the workspace again unless a list is being made or is fresh; a search waiting on it is run again when it is
   * ready.
   */
  refresh(): void {
    if (this.building || this.clock() - this.builtAt < STALE_MS) return;
    this.building = true;
    const added = this.also().map((dir) =>
      workspaceFiles(dir).then(
        (files) => files.map((f) => path.join(dir, f)),
        () => [],
      ),
    );
    Promise.all([workspaceFiles(this.workspace), ...added]).then(
      (lists) => this.prepare(lists.flat()),
      () => {
        // An unreadable workspace offers nothing; the picker says no files match.
        this.building = false;
        this.builtAt = this.clock();
        this.built = true;
        this.rerun();
      },
    );
  }

  private prepare(all: string[]): void {
    this.cut = all.length > MAX_INDEXED;
    const files = this.cut ? all.slice(0, MAX_INDEXED) : all;
    const paths: string[] = [];
    const folders = new Set<string>();
    const prepared: PreparedPath[] = [];
    // A slice of files at a time: their folders added, then all of it prepared for the matcher.
    const step = (from: number): void => {
      if (from < files.length) {
        const before = paths.length;
        addWithFolders(files, from, Math.min(files.length, from + SLICE), folders, paths);
        for (const p of preparePaths(paths.slice(before))) prepared.push(p);
        setImmediate(() => step(from + SLICE));
        return;
      }
      this.paths = paths;
      this.prepared = prepared;
      this.built = true;
      this.building = false;
      this.builtAt = this.clock();
      this.rerun();
    };
    step(0);
  }

  private rerun(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
    if (this.last) this.search(this.last.query, this.last.limit, this.last.done);
  }

  /** Resolves once a list is made (the bench and the tests wait on it; the picker shows what there is meanwhile). */
  ready(): Promise<void> {
    if (this.built && !this.building) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * The best `limit` paths for `query`, handed to `done` (at once for an
   * empty query, after the slices otherwise); a later search cancels it.
   */
  search(query: string, limit: number, done: (r: FileResults) => void): void {
    const generation = ++this.generation;
    this.last = { query, limit, done };
    const answer = (hits: FileHit[]): void =>
      done({ query, hits, indexing: !this.built || this.building, cut: this.cut });
    if (!query) return answer(browsePaths(this.paths, limit));
    let best: FileHit[] = [];
    const targets = this.prepared;
    const step = (from: number): void => {
      if (generation !== this.generation) return;
      best = mergeHits(best, rankSlice(query, targets, from, Math.min(targets.length, from + SLICE), limit), limit);
      if (from + SLICE < targets.length) setImmediate(() => step(from + SLICE));
      else answer(best);
    };
    setImmediate(() => step(0));
  }

  /** The picker closed: nothing waits on a search any more. */
  close(): void {
    this.generation++;
    this.last = null;
  }
}

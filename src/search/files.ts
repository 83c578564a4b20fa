// Ranking the workspace's paths for an @-mention. The matcher is fuzzysort
// (3.x, MIT): the fastest maintained fuzzy matcher for JavaScript on path
// lists, loadable with require, and its ranking is what people expect of fzf
// on paths (contiguous runs, word and path-segment starts, shorter targets
// first). Its match positions light the matched characters. The work is cut
// into slices so a caller can keep each one short (tools/file-index.ts runs
// them between keystrokes); a slice's best hits merge with the others'. Pure.

import fuzzysort from 'fuzzysort';

export type PreparedPath = Fuzzysort.Prepared;

export interface FileHit {
  /** Workspace-relative, '/'-separated; a folder ends in '/'. */
  readonly path: string;
  /** Higher is better; comparable across slices. */
  readonly score: number;
  /** The matched characters' offsets in `path`. */
  readonly indexes: readonly number[];
}

/** Below this score a match is too scattered to offer. */
const THRESHOLD = 0.2;

export function preparePaths(paths: readonly string[]): PreparedPath[] {
  return paths.map((p) => fuzzysort.prepare(p));
}

/** Files and, once each, the folders above them ('src/', 'src/tui/'), folders before their files. */
export function withFolders(files: readonly string[]): string[] {
  return addWithFolders(files, 0, files.length, new Set(), []);
}

/** withFolders a slice at a time: files[from, to) onto `out`, `seen` holding the folders already added. */
export function addWithFolders(
  files: readonly string[],
  from: number,
  to: number,
  seen: Set<string>,
  out: string[],
): string[] {
  for (let i = from; i < to; i++) {
    const f = files[i];
    let at = f.indexOf('/');
    while (at !== -1) {
      const dir = f.slice(0, at + 1);
      if (!seen.has(dir)) {
        seen.add(dir);
        out.push(dir);
      }
      at = f.indexOf('/', at + 1);
    }
    out.push(f);
  }
  return out;
}

/** Best first: score, then the shorter path, then name order. */
function better(a: FileHit, b: FileHit): number {
  return b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** The best `limit` hits for `query` among targets[from, to). */
export function rankSlice(
  query: string,
  targets: readonly PreparedPath[],
  from: number,
  to: number,
  limit: number,
): FileHit[] {
  const results = fuzzysort.go(query.replace(/^\.\//, ''), targets.slice(from, to), { limit, threshold: THRESHOLD });
  return results.map((r) => ({ path: r.target, score: r.score, indexes: [...r.indexes] })).sort(better);
}

/** Two slices' hits as one list, best first, at most `limit`. */
export function mergeHits(a: readonly FileHit[], b: readonly FileHit[], limit: number): FileHit[] {
  return [...a, ...b].sort(better).slice(0, limit);
}

/** Before anything is typed after @: the shallowest paths, folders first, in name order. */
export function browsePaths(paths: readonly string[], limit: number): FileHit[] {
  const depth = (p: string): number => p.replace(/\/$/, '').split('/').length;
  const top = paths.filter((p) => depth(p) === 1);
  const folders = top.filter((p) => p.endsWith('/')).sort();
  const files = top.filter((p) => !p.endsWith('/')).sort();
  return [...folders, ...files].slice(0, limit).map((path) => ({ path, score: 0, indexes: [] }));
}

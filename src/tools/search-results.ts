// What glob and grep give the model: paths in one order whatever found them
// (ripgrep or milk's own walker), and grep's hits as grep prints them, cut
// at a bound with a note that says how to narrow the search; a line is cut
// only where no secret is cut in two. Pure.

import { clearCut } from '../kernel/secret-shapes';

/** One line of a file that grep shows: a match, or a line of context around one. */
export interface HitLine {
  /** 1-based. */
  n: number;
  text: string;
  match: boolean;
  /** Where the line begins in its file, in bytes (to look back for a private key's BEGIN line). */
  at?: number;
}

/** A file's hits: its matching lines and their context, in line order. */
export interface FileHits {
  /** Relative to the workspace, '/'-separated. */
  path: string;
  lines: HitLine[];
  /** Matching lines, when `lines` does not hold them (grep's count mode). */
  matches?: number;
}

export type GrepOutput = 'content' | 'files' | 'count';

/** Lines of grep output at most (matches, context and separators). */
export const MAX_GREP_LINES = 400;
/** Paths glob, or grep in `files` and `count` modes, lists at most. */
export const MAX_LISTED = 1000;
/** A shown line longer than this keeps its head and says how long it was (minified files). */
export const MAX_LINE_CHARS = 300;
/** Context lines around a match, at most: what grep's schema allows a call to ask for. */
export const MAX_CONTEXT = 20;

function hasSurrogates(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0xd800) return true;
  return false;
}

/**
 * Orders names by their UTF-8 bytes, as ripgrep sorts them: string order
 * agrees with byte order except where a character outside the BMP meets
 * one above U+D7FF.
 */
export function compareNames(a: string, b: string, bytes: (s: string) => Uint8Array): number {
  if (hasSurrogates(a) || hasSurrogates(b)) {
    const x = bytes(a);
    const y = bytes(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function shown(text: string): string {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  return line.length > MAX_LINE_CHARS
    ? `${line.slice(0, clearCut(line, MAX_LINE_CHARS))}… [line of ${line.length} characters]`
    : line;
}

/** Takes files' hits in path order until the output is full; then says what it holds. */
export class GrepCollector {
  /** A line of output: written, or a hit line written when the text is asked for (a key's line may be masked first). */
  private readonly out: Array<string | { path: string; line: HitLine }> = [];
  private readonly taken: Array<{ source: string; lines: HitLine[] }> = [];
  private files = 0;
  private matches = 0;
  private full = false;

  constructor(
    private readonly mode: GrepOutput,
    private readonly context: number,
  ) {}

  /**
   * True while there is room for more; a file that does not fit whole is cut and ends the collection. `source`: where
   * the file is read, when its shown path is another.
   */
  add(hits: FileHits, source = hits.path): boolean {
    const matches = hits.matches ?? hits.lines.filter((l) => l.match).length;
    if (this.full || matches === 0) return !this.full;
    if (this.mode !== 'content') {
      if (this.files >= MAX_LISTED) return !(this.full = true);
      this.out.push(this.mode === 'files' ? hits.path : `${hits.path}:${matches}`);
    } else {
      this.addLines(hits);
      this.taken.push({ source, lines: hits.lines });
    }
    this.files++;
    this.matches += matches;
    return !this.full;
  }

  private addLines(hits: FileHits): void {
    let last = -1;
    for (const line of hits.lines) {
      const gap = this.out.length > 0 && this.context > 0 && (last === -1 || line.n > last + 1);
      if (this.out.length + (gap ? 2 : 1) > MAX_GREP_LINES) {
        this.full = true;
        return;
      }
      if (gap) this.out.push('--');
      this.out.push({ path: hits.path, line });
      last = line.n;
    }
  }

  /** The files whose lines are in the output, each with where it is read; their lines' text may still be changed. */
  shownFiles(): ReadonlyArray<{ source: string; lines: HitLine[] }> {
    return this.taken;
  }

  /** A few words for the call's block in the transcript. */
  summary(): string {
    if (this.files === 0) return 'no matches';
    const files = `${this.files}${this.full ? '+' : ''} file${this.files === 1 && !this.full ? '' : 's'}`;
    return this.mode === 'files'
      ? files
      : `${this.matches}${this.full ? '+' : ''} matching line${this.matches === 1 && !this.full ? '' : 's'} in ` +
          `${files}`;
  }

  /** Whether the output filled before every file was taken. */
  get stopped(): boolean {
    return this.full;
  }

  text(): string {
    if (this.out.length === 0) return 'no matches';
    const unit = this.mode === 'content' ? `${MAX_GREP_LINES} lines` : `${MAX_LISTED} files`;
    const note = this.full ? `\n[stopped at ${unit}: more matches not shown; narrow the pattern, path or glob]` : '';
    const files = `${this.files} file${this.files === 1 ? '' : 's'}`;
    const lines = `${this.matches} matching line${this.matches === 1 ? '' : 's'}`;
    // In files mode a search stops reading a file at its first match, so only files are counted.
    const sum =
      this.mode === 'count' || this.full ? '' : `\n[${this.mode === 'files' ? files : `${lines} in ${files}`}]`;
    const out = this.out.map((o) =>
      typeof o === 'string'
        ? o
        : `${o.path}${o.line.match ? ':' : '-'}${o.line.n}${o.line.match ? ':' : '-'}${shown(o.line.text)}`,
    );
    return `${out.join('\n')}${sum}${note}`;
  }
}

/** glob's answer: the paths (capped) and how many there were. */
export function listing(paths: readonly string[]): string {
  if (paths.length === 0) return 'no files match';
  const head = paths.slice(0, MAX_LISTED).join('\n');
  return paths.length > MAX_LISTED
    ? `${head}\n[${paths.length - MAX_LISTED} more of ${paths.length} not shown; narrow the pattern or path]`
    : head;
}

// glob and grep through ripgrep when it is on PATH: its file list, and its
// JSON events read into the same FileHits milk's own search produces. The
// flags make ripgrep's rules the ones walk.ts follows (.gitignore without
// needing a repository, hidden files in, `.git` out, no .ignore files, no
// global git excludes, paths in name order), so either gives the same answer.

import { withheldVariables } from '../kernel/credentials';
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { FileHits, HitLine } from './search-results';
import { toolEnv } from './env';

/** Files larger than this are not searched (by either search). */
export const MAX_GREP_FILE_BYTES = 8 * 1024 * 1024;

const COMMON = [
  '--hidden',
  '--no-require-git',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--sort',
  'path',
  '--no-config',
  '-g',
  '!.git',
];

export class NoRipgrep extends Error {}

export interface GrepQuery {
  pattern: string;
  ignoreCase: boolean;
  context: number;
  /** A slashless file glob ripgrep can filter by first (the exact filter is applied to what it returns). */
  nameGlob?: string;
  /** What is wanted of a file: its lines, whether it matches at all, or how many lines match. */
  want: 'lines' | 'first' | 'count';
}

/**
 * Runs rg in `root` over `rel` (the whole root when empty), handing each
 * stdout line to `onLine`, which returns false to stop rg early. Rejects
 * with NoRipgrep when there is no rg to run, or with rg's own message.
 */
function run(
  root: string,
  args: string[],
  signal: AbortSignal | undefined,
  onLine: (line: string) => boolean,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('rg', args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: toolEnv(process.env, { withhold: withheldVariables() }),
    });
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let stderr = '';
    let stopped = false;
    let said = false;
    const stop = (): void => {
      stopped = true;
      child.kill('SIGKILL');
    };
    const onAbort = (): void => stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => {
      if (stopped) return;
      const lines = (rest + decoder.write(d)).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        said = true;
        if (!onLine(line)) return stop();
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString('utf8');
    });
    child.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? new NoRipgrep('rg is not on PATH') : err);
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (!stopped && rest) onLine(rest);
      // 1: nothing matched. 2: an error, which may concern only some files (an unreadable folder): then the rest
      // stands.
      const failed = code === 2 && (!said || /regex parse error/.test(stderr));
      if (stopped || code === 0 || code === 1 || (code === 2 && !failed)) resolve();
      else reject(new Error(stderr.trim().split('\n').slice(0, 8).join('\n') || `rg ended with code ${code}`));
    });
  });
}

/** The files under `rel` that ripgrep would search and `keep` keeps, in name order. */
export async function rgFiles(
  root: string,
  rel: string,
  keep: (file: string) => boolean,
  signal?: AbortSignal,
): Promise<string[]> {
  const files: string[] = [];
  // Kept as they come, a pipe's worth at a time: the event loop never holds a 50,000-path list at once.
  await run(root, ['--files', ...COMMON, ...(rel ? ['--', rel] : [])], signal, (line) => {
    if (line && keep(line)) files.push(line);
    return true;
  });
  return files;
}

interface RgText {
  text?: string;
  bytes?: string;
}

function textOf(t: RgText | undefined): string {
  if (!t) return '';
  return t.text ?? Buffer.from(t.bytes ?? '', 'base64').toString('utf8');
}

/**
 * Searches with ripgrep, handing each file's hits to `take` in path order
 * until it returns false. Binary files (a NUL byte) are left out, as milk's
 * own search leaves them out.
 */
export async function rgGrep(
  root: string,
  rel: string,
  q: GrepQuery,
  take: (hits: FileHits) => boolean,
  signal?: AbortSignal,
): Promise<void> {
  const args = ['--json', ...COMMON, '--max-filesize', String(MAX_GREP_FILE_BYTES)];
  if (q.ignoreCase) args.push('-i');
  if (q.context > 0) args.push('-C', String(q.context));
  if (q.want === 'first') args.push('-m', '1');
  if (q.nameGlob) args.push('-g', q.nameGlob);
  args.push('-e', q.pattern);
  if (rel) args.push('--', rel);
  let lines: HitLine[] = [];
  await run(root, args, signal, (line) => {
    // Counting needs only each file's end (its stats): a match event is not worth parsing.
    if (!line || (q.want === 'count' && line.startsWith('{"type":"match"'))) return true;
    const event = JSON.parse(line) as {
      type: string;
      data: {
        path?: RgText;
        lines?: RgText;
        line_number?: number;
        absolute_offset?: number;
        binary_offset?: number | null;
        stats?: { matched_lines: number };
      };
    };
    const d = event.data;
    if (event.type === 'begin') lines = [];
    else if (event.type === 'match' || event.type === 'context') {
      const text = textOf(d.lines).replace(/\n$/, '');
      lines.push({ n: d.line_number ?? 0, text, match: event.type === 'match', at: d.absolute_offset });
    } else if (event.type === 'end') {
      if (d.binary_offset !== null && d.binary_offset !== undefined) return true;
      const file = textOf(d.path).replace(/^\.\//, '');
      return q.want === 'count'
        ? take({ path: file, lines: [], matches: d.stats?.matched_lines ?? 0 })
        : take({ path: file, lines });
    }
    return true;
  });
}

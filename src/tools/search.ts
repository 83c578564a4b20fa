// The glob and grep tools: files and lines of the workspace, .gitignore
// honoured, through ripgrep when it is on PATH and milk's own walker and
// worker otherwise (MILK_SEARCH=js chooses those), with the same answer
// either way. Patterns match paths relative to the folder searched; a
// pattern without a slash matches a file's name at any depth.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { confineRead, inside, realPlaces, ToolPathError } from './confine';
import type { Bounds } from './tool';
import { maskKeyHits } from './key-hits';
import { FileHits, GrepCollector, GrepOutput, MAX_CONTEXT, listing } from './search-results';
import { NoRipgrep, rgFiles, rgGrep } from './ripgrep';
import { walkFiles } from './walk';
import { GlobError, globMatcher } from '../kernel/glob-match';

/** ripgrep was looked for and is not there: milk's own search from then on. */
let noRipgrep = false;

function useRipgrep(): boolean {
  return !noRipgrep && process.env.MILK_SEARCH !== 'js';
}

/** Runs the ripgrep way, or milk's own when there is no rg. */
async function either<T>(rg: () => Promise<T>, js: () => Promise<T>): Promise<T> {
  if (useRipgrep()) {
    try {
      return await rg();
    } catch (err) {
      if (!(err instanceof NoRipgrep)) throw err;
      noRipgrep = true;
    }
  }
  return js();
}

interface Place {
  root: string;
  /** The folder or file searched, relative to root ('' for root itself). */
  rel: string;
  isFile: boolean;
  /** Whether a file (relative to root) is in a place no tool may reach (milk's data dir, wherever it lies). */
  hidden: (file: string) => boolean;
  /** A found file as the model is told it: relative to the workspace, or whole in an added directory. */
  shown: (file: string) => string;
}

async function place(workspace: string, p: string, bounds: Bounds = {}): Promise<Place> {
  const ws = await fs.promises.realpath(workspace);
  const real = await confineRead(workspace, p || '.', bounds);
  const st = await fs.promises.stat(real);
  if (!st.isDirectory() && !st.isFile()) throw new ToolPathError(`${p} is not a folder or a regular file`);
  const addedDirs = [...(bounds.also ?? []), ...(bounds.readOnly ?? [])];
  const added = await Promise.all(addedDirs.map((d) => fs.promises.realpath(d).catch(() => ws)));
  const root = inside(ws, real) ? ws : (added.find((d) => inside(d, real)) ?? ws);
  const within = (await realPlaces(bounds.hidden ?? []))
    .filter((h) => inside(root, h))
    .map((h) => path.relative(root, h).split(path.sep).join('/'));
  return {
    root,
    rel: path.relative(root, real).split(path.sep).join('/'),
    isFile: st.isFile(),
    hidden: (file) => within.some((h) => file === h || file.startsWith(`${h}/`)),
    shown: root === ws ? (file) => file : (file) => path.join(root, file),
  };
}

/** A matcher for a path glob, relative to the folder searched (`rel`). */
function relativeMatcher(glob: string, rel: string): (file: string) => boolean {
  let test: (file: string) => boolean;
  try {
    test = globMatcher(glob);
  } catch (err) {
    if (err instanceof GlobError) throw new ToolPathError(err.message);
    throw err;
  }
  const cut = rel ? rel.length + 1 : 0;
  return (file) => test(file.slice(cut));
}

function files(pl: Place, match: (file: string) => boolean, signal?: AbortSignal): Promise<string[]> {
  if (pl.isFile) return Promise.resolve([pl.rel]);
  const keep = (file: string): boolean => !pl.hidden(file) && match(file);
  return either(
    () => rgFiles(pl.root, pl.rel, keep, signal),
    () => walkFiles(pl.root, path.join(pl.root, pl.rel), keep, signal),
  );
}

/** Every file of the workspace as glob sees them (.gitignore honoured), for the @-mention index. */
export async function workspaceFiles(workspace: string, signal?: AbortSignal): Promise<string[]> {
  return files(await place(workspace, ''), () => true, signal);
}

export interface GlobArgs {
  pattern: string;
  path?: string;
  /** Places no tool may reach (milk's data dir). */
  hidden?: readonly string[];
  /** Directories added to the workspace (--add-dir). */
  also?: readonly string[];
  /** Folders it may search but no tool may write (a used skill's). */
  readOnly?: readonly string[];
}

/** What glob or grep tells the model, and in a few words what the transcript shows of it. */
export interface Found {
  text: string;
  summary: string;
}

/** glob: the workspace's files under `path` that match `pattern`, in name order. */
export async function globTool(workspace: string, args: GlobArgs, signal?: AbortSignal): Promise<Found> {
  if (!args.pattern) throw new ToolPathError('glob needs a pattern, such as **/*.ts');
  const pl = await place(workspace, args.path ?? '', args);
  if (pl.isFile) throw new ToolPathError(`${args.path} is a file; glob lists the files of a folder`);
  const match = relativeMatcher(args.pattern, pl.rel);
  const found = (await files(pl, match, signal)).map(pl.shown);
  return {
    text: listing(found),
    summary: found.length === 0 ? 'no files' : `${found.length} file${found.length === 1 ? '' : 's'}`,
  };
}

export interface GrepArgs {
  pattern: string;
  path?: string;
  glob?: string;
  context?: number;
  ignoreCase?: boolean;
  output?: GrepOutput;
  /** Places no tool may reach (milk's data dir). */
  hidden?: readonly string[];
  /** Directories added to the workspace (--add-dir). */
  also?: readonly string[];
  /** Folders it may search but no tool may write (a used skill's). */
  readOnly?: readonly string[];
}

/** grep: the lines of the workspace's files that match a regular expression, with context, in path order. */
export async function grepTool(workspace: string, args: GrepArgs, signal?: AbortSignal): Promise<Found> {
  if (!args.pattern) throw new ToolPathError('grep needs a pattern');
  const pl = await place(workspace, args.path ?? '', args);
  const output: GrepOutput = args.output === 'files' || args.output === 'count' ? args.output : 'content';
  const context = output === 'content' ? Math.max(0, Math.min(MAX_CONTEXT, Math.floor(args.context ?? 0))) : 0;
  const collector = new GrepCollector(output, context);
  const match = args.glob && !pl.isFile ? relativeMatcher(args.glob, pl.rel) : () => true;
  const take = (hits: FileHits): boolean =>
    pl.hidden(hits.path) || !match(hits.path) || collector.add({ ...hits, path: pl.shown(hits.path) }, hits.path);
  const nameGlob = args.glob && !args.glob.includes('/') && !pl.isFile ? args.glob : undefined;
  const want = output === 'content' ? 'lines' : output === 'files' ? 'first' : 'count';
  const query = { pattern: args.pattern, ignoreCase: args.ignoreCase === true, context, nameGlob, want } as const;
  let timedOut = false;
  await either(
    () => rgGrep(pl.root, pl.rel, query, take, signal),
    async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { jsGrep } = require('./grep-js') as typeof import('./grep-js');
      const list = await files(pl, match, signal);
      timedOut = await jsGrep(pl.root, list, query, take, signal);
    },
  );
  await maskKeyHits(pl.root, collector.shownFiles());
  const text =
    collector.text() +
    (timedOut
      ? '\n[the search ran out of time and stopped: what it found by then is above; narrow the path or glob]'
      : '');
  return { text, summary: collector.summary() + (timedOut ? ', out of time' : '') };
}

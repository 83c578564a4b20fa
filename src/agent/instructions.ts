// What milk tells the model about where it runs and what the project asks:
// the AGENTS.md files from the repository's root down to the workspace
// (CLAUDE.md where a folder has no AGENTS.md), the person's own in the data
// dir first, each cut at MAX_INSTRUCTION_BYTES; and the environment (the git
// repository and branch, read from .git without running git). Read once
// after start-up and again for a new conversation, never on a keystroke.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { insideReal, openRegular, readRegularCapped } from '../io/files';
import { describeIoError } from '../io/errors';
import type { Environment, Instruction } from './prompt';
import { dataLayout } from '../kernel/data-dir';
import { MAX_IMPORT_DEPTH, importLines } from './instruction-imports';
import { gitRoot } from '../io/files';

export const MAX_INSTRUCTION_BYTES = 32 * 1024;
/** `.git` (a worktree's pointer) and HEAD are a line each. */
const MAX_GIT_FILE_BYTES = 4096;
const NAMES = ['AGENTS.md', 'CLAUDE.md'];

/** The branch checked out (or the commit, detached), from .git/HEAD; a worktree's `.git` file is followed. */
export function gitBranch(root: string): string {
  try {
    let gitDir = path.join(root, '.git');
    // Never blocking, regular files only, small: a .git from an archive may hold a FIFO or a link to /dev/zero.
    if (fs.statSync(gitDir).isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readRegularCapped(gitDir, MAX_GIT_FILE_BYTES).toString('utf8'));
      if (m) gitDir = path.resolve(root, m[1].trim());
    }
    const head = readRegularCapped(path.join(gitDir, 'HEAD'), MAX_GIT_FILE_BYTES).toString('utf8').trim();
    const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    return ref ? ref[1] : `detached at ${head.slice(0, 12)}`;
  } catch {
    return 'unknown';
  }
}

/** The local date, YYYY-MM-DD. */
export function localDate(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function readEnvironment(cwd: string, now: Date = new Date()): Environment {
  const root = gitRoot(cwd);
  return {
    cwd,
    os: `${os.type()} ${os.release()} (${process.platform}, ${process.arch})`,
    shell: process.env.SHELL || '/bin/sh',
    date: localDate(now),
    git: root ? { root, branch: gitBranch(root) } : null,
  };
}

/** The first `max` bytes of a regular file as text, a character cut in two dropped; and its size. */
function readCapped(file: string, max: number): { text: string; bytes: number } {
  const fd = openRegular(file);
  try {
    const bytes = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(bytes, max));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    let text = buf.subarray(0, n).toString('utf8');
    if (bytes > max) text = text.replace(/\uFFFD+$/, '');
    return { text, bytes };
  } finally {
    fs.closeSync(fd);
  }
}

export interface Instructions {
  files: Instruction[];
  /** Files there that could not be read, said without their content. */
  problems: string[];
}

/** The folders from the repository root (or the workspace, outside one) down to the workspace. */
function foldersDown(cwd: string): string[] {
  const root = gitRoot(cwd) ?? cwd;
  const out: string[] = [];
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    out.unshift(d);
    if (d === root || path.dirname(d) === d) break;
  }
  return out;
}

/**
 * The instruction files that apply to the workspace: the person's own first, then the root's, the nearest last; each
 * followed by the files it imports (`@path` lines: agent/instruction-imports.ts).
 */
export function findInstructions(
  cwd: string,
  dataDir: string | null,
  max = MAX_INSTRUCTION_BYTES,
  home = os.homedir(),
): Instructions {
  const found: Instructions = { files: [], problems: [] };
  const candidates: string[][] = [];
  if (dataDir) candidates.push([dataLayout(dataDir).agents]);
  for (const d of foldersDown(cwd)) candidates.push(NAMES.map((n) => path.join(d, n)));
  const repo = gitRoot(cwd) ?? cwd;
  for (const [i, names] of candidates.entries()) {
    const file = names.find((f) => fs.existsSync(f));
    if (!file) continue;
    // The repository's files are the repository's: one that is a link out of it (to ~/.aws/credentials) is not read.
    if ((i > 0 || !dataDir) && !insideReal(file, repo)) {
      found.problems.push(`${file}: a link to a file outside the repository; not read`);
      continue;
    }
    try {
      const { text, bytes } = readCapped(file, max);
      found.files.push({ path: file, text, bytes, cut: bytes > max });
      // The person's own file may import from home and the data dir; a repository's, only from the repository.
      const own = i === 0 && dataDir !== null;
      const roots = own ? [repo, dataDir, home] : [repo];
      readImports(file, text, { roots, max, home, seen: [realOf(file)], depth: 1 }, found);
    } catch (err) {
      found.problems.push(`${file}: not read (${describeIoError(err)})`);
    }
  }
  return found;
}

const realOf = (file: string): string => {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
};

/** Each file `text` (read from `file`) imports, read and added after it, and theirs, within the rules. */
function readImports(
  file: string,
  text: string,
  o: { roots: readonly string[]; max: number; home: string; seen: readonly string[]; depth: number },
  found: Instructions,
): void {
  for (const { line, path: written } of importLines(text)) {
    const at = `${file}:${line}`;
    const target = written.startsWith('~/')
      ? path.join(o.home, written.slice(2))
      : path.resolve(path.dirname(file), written);
    if (o.depth > MAX_IMPORT_DEPTH) {
      found.problems.push(`${at}: imports nested more than ${MAX_IMPORT_DEPTH} deep; ${written} not read`);
      continue;
    }
    if (!fs.existsSync(target)) {
      found.problems.push(`${at}: imports ${written}, which is not there`);
      continue;
    }
    if (!o.roots.some((root) => insideReal(target, root))) {
      found.problems.push(`${at}: imports ${written}, outside the places an import may reach; not read`);
      continue;
    }
    const real = realOf(target);
    if (o.seen.includes(real)) {
      found.problems.push(`${at}: imports ${written}, which imports it back (a cycle); not read again`);
      continue;
    }
    try {
      const got = readCapped(target, o.max);
      found.files.push({ path: target, text: got.text, bytes: got.bytes, cut: got.bytes > o.max, importedBy: at });
      readImports(target, got.text, { ...o, seen: [...o.seen, real], depth: o.depth + 1 }, found);
    } catch (err) {
      found.problems.push(`${at}: imports ${written}, not read (${describeIoError(err)})`);
    }
  }
}

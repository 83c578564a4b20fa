// milk's own file walker, for when ripgrep is not on PATH: the files under a
// folder of the workspace that ripgrep would list, in ripgrep's order. Rules
// as ripgrep applies them with the flags ripgrep.ts passes: every .gitignore
// from the file system's root down (a deeper one overrides a shallower one),
// .git/info/exclude of a repository, hidden files included, `.git` and
// symbolic links left out, each folder's names sorted by their bytes.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Ignore } from 'ignore';
import { compareNames } from './search-results';

interface Rules {
  /** The folder the rules are relative to. */
  dir: string;
  ignore: Ignore;
}

function newIgnore(): Ignore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('ignore') as typeof import('ignore'))();
}

async function readRules(dir: string, files: readonly string[]): Promise<Rules | null> {
  let ig: Ignore | null = null;
  for (const f of files) {
    let text: string;
    try {
      text = await fs.promises.readFile(path.join(dir, f), 'utf8');
    } catch {
      continue;
    }
    ig ??= newIgnore();
    ig.add(text);
  }
  return ig ? { dir, ignore: ig } : null;
}

/** The rules a folder's own files set. */
function folderRules(dir: string): Promise<Rules | null> {
  return readRules(dir, ['.git/info/exclude', '.gitignore']);
}

/** Whether the rules in force leave `abs` out; the deepest rule that speaks decides. */
function ignored(rules: readonly Rules[], abs: string, isDir: boolean): boolean {
  let out = false;
  for (const r of rules) {
    const rel = path.relative(r.dir, abs).split(path.sep).join('/');
    if (rel === '' || rel.startsWith('..')) continue;
    const t = r.ignore.test(isDir ? `${rel}/` : rel);
    if (t.ignored) out = true;
    else if (t.unignored) out = false;
  }
  return out;
}

const encoder = new TextEncoder();
const byName = (a: fs.Dirent, b: fs.Dirent): number => compareNames(a.name, b.name, (s) => encoder.encode(s));

/** The rules from `dir`'s ancestors, outermost first (ripgrep reads them all the way up). */
async function ancestorRules(dir: string): Promise<Rules[]> {
  const chain: string[] = [];
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    chain.unshift(d);
    if (path.dirname(d) === d) break;
  }
  const rules: Rules[] = [];
  for (const d of chain) {
    const r = await folderRules(d);
    if (r) rules.push(r);
  }
  return rules;
}

/** A path as a literal gitignore pattern. */
function literal(rel: string): string {
  return rel.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`).replace(/ $/, '\\ ');
}

/**
 * ripgrep matches a rule against each entry it meets, never against the
 * folder it was asked to search or that folder's parents: `rg x build`
 * searches build/ though .gitignore says `build/`. The `ignore` library
 * tests parents too, so each parent between a rule's folder and `from` is
 * let through by a last, literal rule.
 */
function letThrough(rules: readonly Rules[], from: string): void {
  for (const r of rules) {
    const segments = path.relative(r.dir, from).split(path.sep).filter(Boolean);
    for (let i = 1; i <= segments.length; i++) r.ignore.add(`!/${literal(segments.slice(0, i).join('/'))}/`);
  }
}

/**
 * The files under `from` (a real folder inside the real `root`), relative to
 * `root` and '/'-separated, depth first in name order, that `keep` keeps. Stops early when
 * `signal` aborts.
 */
export async function walkFiles(
  root: string,
  from: string,
  keep: (file: string) => boolean,
  signal?: AbortSignal,
): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string, inherited: Rules[]): Promise<void> => {
    if (signal?.aborted) return;
    const own = await folderRules(dir);
    const rules = own ? [...inherited, own] : inherited;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      return; // Unreadable: ripgrep says so on stderr and goes on; so does the walk, silently.
    }
    entries.sort(byName);
    for (const e of entries) {
      if (e.name === '.git' || e.isSymbolicLink()) continue;
      const abs = path.join(dir, e.name);
      if (!e.isDirectory() && !e.isFile()) continue;
      if (ignored(rules, abs, e.isDirectory())) continue;
      if (e.isDirectory()) await visit(abs, rules);
      else {
        const file = path.relative(root, abs).split(path.sep).join('/');
        if (keep(file)) out.push(file);
      }
    }
  };
  const above = await ancestorRules(from);
  letThrough(above, from);
  await visit(from, above);
  return out;
}

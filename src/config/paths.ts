// Where milk keeps its data and what the session is called. The data dir is
// --data-dir, else $MILK_HOME, else ~/.milk: never anywhere in the workspace.
// Pure: the environment and the passwd home are passed in.

import { sha256Hex } from '../kernel/sha256';
import * as path from 'node:path';

/**
 * The data dir: --data-dir, else $MILK_HOME, else <home>/.milk. Null when
 * there is none of these: a missing or relative home must never turn into a
 * `.milk` inside the workspace.
 */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv, home: string | null): string | null {
  if (flag) return path.resolve(flag);
  if (env.MILK_HOME) return path.resolve(env.MILK_HOME);
  if (home && path.isAbsolute(home)) return path.join(home, '.milk');
  return null;
}

/** $HOME when it is an absolute path, else the passwd entry's home (as `fallback` gives it), else null. */
export function pickHome(envHome: string | undefined, fallback: () => string | null): string | null {
  if (envHome && path.isAbsolute(envHome)) return envHome;
  const home = fallback();
  return home && path.isAbsolute(home) ? home : null;
}

export const SESSION_RULE = 'a session name is 1-64 characters of A-Z a-z 0-9 . _ -';
const SESSION_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Null when the name is valid, else the reason. */
export function checkSessionName(name: string): string | null {
  if (!SESSION_NAME.test(name)) return SESSION_RULE;
  if (name === '.' || name === '..') return 'a session name cannot be "." or ".."';
  return null;
}

const WORKTREE_RULE = 'a worktree name is 1-64 characters of A-Z a-z 0-9 . _ -, not starting with . or -';

/** Null when `name` can name a worktree and its branch (milk/NAME), else why not. */
export function checkWorktreeName(name: string): string | null {
  if (!/^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/.test(name) || name.includes('..') || name.endsWith('.lock'))
    return WORKTREE_RULE;
  return null;
}

/**
 * A stable, readable id for a workspace: a slug of its canonical path plus a
 * short hash of the full path, so two directories never share a session.
 */
export function sessionIdForWorkspace(canonicalPath: string): string {
  const hash = sha256Hex(canonicalPath).slice(0, 8);
  const slug = canonicalPath
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/-{2,}/g, '-')
    .toLowerCase();
  const tail = slug.length > 40 ? slug.slice(slug.length - 40).replace(/^[-.]+/, '') : slug;
  return tail ? `${tail}-${hash}` : `root-${hash}`;
}

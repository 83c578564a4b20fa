// Where milk keeps its data and what the session is called. The data dir is
// --data-dir, else $MILK_HOME, else ~/.milk: never anywhere in the workspace.
// Pure apart from reading the home directory default passed in.

import { createHash } from 'node:crypto';
import * as path from 'node:path';

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv, home: string): string {
  const dir = flag || env.MILK_HOME || path.join(home, '.milk');
  return path.resolve(dir);
}

export const SESSION_RULE = 'a session name is 1-64 characters of A-Z a-z 0-9 . _ -';
const SESSION_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Null when the name is valid, else the reason. */
export function checkSessionName(name: string): string | null {
  if (!SESSION_NAME.test(name)) return SESSION_RULE;
  if (name === '.' || name === '..') return 'a session name cannot be "." or ".."';
  return null;
}

/**
 * A stable, readable id for a workspace: a slug of its canonical path plus a
 * short hash of the full path, so two directories never share a session.
 */
export function sessionIdForWorkspace(canonicalPath: string): string {
  const hash = createHash('sha256').update(canonicalPath).digest('hex').slice(0, 8);
  const slug = canonicalPath
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/-{2,}/g, '-')
    .toLowerCase();
  const tail = slug.length > 40 ? slug.slice(slug.length - 40).replace(/^[-.]+/, '') : slug;
  return tail ? `${tail}-${hash}` : `root-${hash}`;
}

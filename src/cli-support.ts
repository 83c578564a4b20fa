// What the command line's parts share: usage errors, the flag parsers, and
// where a run's data lives (data dir, workspace, session). No commands here.

import type { ApprovalMode } from './settings/approval';
import { InvalidArgumentError } from 'commander';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkSessionName, pickHome, resolveDataDir, sessionIdForWorkspace } from './config/paths';

export class UsageError extends Error {}

export const NO_HOME = 'no home directory (HOME is empty or relative, and the account has none); set MILK_HOME or --data-dir';

function passwdHome(): string | null {
  try {
    return os.userInfo().homedir;
  } catch {
    return null;
  }
}

/**
 * Where this run's data lives and which session it is: the flags, else the
 * environment and the directory. The data dir is null when there is no home
 * to put it in: never a `.milk` in the workspace.
 */
export function locate(opts: MainOptions): { dataDir: string | null; workspace: string; sessionId: string } {
  const workspace = fs.realpathSync(process.cwd());
  return {
    dataDir: resolveDataDir(opts.dataDir, process.env, pickHome(process.env.HOME, passwdHome)),
    workspace,
    sessionId: opts.session ?? sessionIdForWorkspace(workspace),
  };
}

/** The data dir, for commands that cannot do without one. */
export function requireDataDir(dataDir: string | null): string {
  if (dataDir === null) throw new UsageError(NO_HOME);
  return dataDir;
}

export function version(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return 'unknown';
  }
}

export function parseSession(value: string): string {
  const problem = checkSessionName(value);
  if (problem) throw new InvalidArgumentError(problem + '.');
  return value;
}

export function parseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new InvalidArgumentError('expected an http:// or https:// URL.');
  }
  return value;
}

export function parsePositive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number from 1.');
  return n;
}

export function parseNonEmpty(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('must not be empty.');
  return value;
}

export interface MainOptions {
  dataDir?: string;
  session?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  script?: string;
  continue?: boolean;
  resume?: string | boolean;
  approval?: ApprovalMode;
  sandbox?: 'on' | 'off';
}


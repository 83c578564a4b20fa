#!/usr/bin/env node
// The `milk` command: finds the data dir's cache folder, turns on Node's own compile cache there for the packages
// (module.enableCompileCache, Node ≥ 22.1), and loads the program's bundles (milk.js and its parts) with V8's caches
// of them, made after start-up and a first turn have run (code-cache.ts, on every Node). Nothing else loads before
// it, so this file stays small.

import * as fs from 'node:fs';
import * as nodeModule from 'node:module';
import * as os from 'node:os';
import { pickHome, resolveDataDir } from './config/paths';
import { dataLayout } from './kernel/data-dir';
import { loadBundles } from './code-cache';
import { byNpmStart } from './app/relaunch';

/** When Node's compile cache is first written: after start-up has settled (exit writes the rest). */
const FLUSH_MS = 2000;

/** --data-dir as commander will read it (`--data-dir X` or `--data-dir=X`), before any `--`. */
export function dataDirFlag(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a === '--data-dir') found = argv[++i];
    else if (a.startsWith('--data-dir=')) found = a.slice('--data-dir='.length);
  }
  return found;
}

type CacheApi = { enableCompileCache?: (dir: string) => unknown; flushCompileCache?: () => void };

/**
 * `<data>/cache`, private (0700), for V8's compiled code of milk and its packages; null where there is none to use.
 * Only where the data dir already exists: `milk --help` or a bad flag never makes one.
 */
function cacheDir(): string | null {
  if (process.env.MILK_CODE_CACHE === '0') return null;
  try {
    const home = pickHome(process.env.HOME, () => os.userInfo().homedir);
    const data = resolveDataDir(dataDirFlag(process.argv), process.env, home);
    if (!data || !fs.statSync(data).isDirectory()) return null;
    const dir = dataLayout(data).cache;
    fs.mkdirSync(dir, { mode: 0o700, recursive: true });
    return dir;
  } catch {
    // No data dir yet, or one we cannot use: no cache this time.
    return null;
  }
}

/** Node's own compile cache (Node >= 22.1) for the packages: made as each file is first compiled. */
function enableNodeCache(dir: string): void {
  const api = nodeModule as unknown as CacheApi;
  if (typeof api.enableCompileCache !== 'function') return;
  try {
    api.enableCompileCache(dir);
    // Written at exit too; flushing once start-up settles keeps it for a milk that is killed.
    if (typeof api.flushCompileCache === 'function') setTimeout(() => api.flushCompileCache?.(), FLUSH_MS).unref();
  } catch {
    // Only the speed-up is lost.
  }
}

type Main = (argv: string[]) => Promise<number>;

// `npm start` runs in milk's own folder; milk opens where npm was started (INIT_CWD), as `milk` would there.
if (byNpmStart(process.env) && process.env.INIT_CWD) {
  try {
    process.chdir(process.env.INIT_CWD);
  } catch {
    // A folder gone or closed to us: milk opens in its own, as before.
  }
}

const dir = cacheDir();
if (dir) enableNodeCache(dir);
const { main } = (dir ? loadBundles(__dirname, dir) : null) ?? loadBundle();

main(process.argv).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`milk: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

function loadBundle(): { main: Main } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./milk.js') as { main: Main };
}

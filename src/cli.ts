#!/usr/bin/env node
// The `milk` command: turns on Node's own compile cache in the data dir
// (module.enableCompileCache, Node ≥ 22.1; Node 20 runs without one), then
// loads the program bundle (milk.js). Nothing else loads before it, so this
// file stays small.

import * as fs from 'node:fs';
import * as nodeModule from 'node:module';
import * as os from 'node:os';
import { pickHome, resolveDataDir } from './config/paths';
import { dataLayout } from './kernel/data-dir';

/**
 * When the cache is first written: after start-up has settled, so it holds what start-up ran (exit writes the rest).
 */
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
 * `<data>/cache`, private (0700), for V8's compiled code of milk and its
 * packages. Only where the data dir already exists: `milk --help` or a bad
 * flag never makes one. Any failure only costs the speed-up.
 */
function enableCache(): void {
  const api = nodeModule as unknown as CacheApi;
  if (process.env.MILK_CODE_CACHE === '0' || typeof api.enableCompileCache !== 'function') return;
  try {
    const home = pickHome(process.env.HOME, () => os.userInfo().homedir);
    const data = resolveDataDir(dataDirFlag(process.argv), process.env, home);
    if (!data || !fs.statSync(data).isDirectory()) return;
    const dir = dataLayout(data).cache;
    fs.mkdirSync(dir, { mode: 0o700, recursive: true });
    api.enableCompileCache(dir);
    // Written at exit too; flushing once start-up settles keeps it for a milk that is killed.
    if (typeof api.flushCompileCache === 'function') setTimeout(() => api.flushCompileCache?.(), FLUSH_MS).unref();
  } catch {
    // No data dir yet, or one we cannot use: no cache this time.
  }
}

type Main = (argv: string[]) => Promise<number>;
enableCache();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { main } = require('./milk.js') as { main: Main };

main(process.argv).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`milk: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

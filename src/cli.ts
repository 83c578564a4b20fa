#!/usr/bin/env node
// The `milk` command: finds the data dir as the program will, then runs the
// program bundle (milk.js) and the packages it loads through the code cache
// kept there (code-cache.ts; MILK_CODE_CACHE=0 turns it off). Nothing else
// loads before it, so this file stays small.

import * as os from 'node:os';
import * as path from 'node:path';
import { CodeCache, loadBundle } from './code-cache';
import { pickHome, resolveDataDir } from './config/paths';

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

function cacheDir(): string | null {
  try {
    const home = pickHome(process.env.HOME, () => os.userInfo().homedir);
    const data = resolveDataDir(dataDirFlag(process.argv), process.env, home);
    return data && path.join(data, 'cache');
  } catch {
    return null;
  }
}

type Main = (argv: string[]) => Promise<number>;
const dir = process.env.MILK_CODE_CACHE === '0' ? null : cacheDir();
// The build's seed (see code-cache.ts); `no-seed` is for tests of the data dir's own cache.
const cache = dir === null ? null : new CodeCache(dir, process.env.MILK_CODE_CACHE === 'no-seed' ? null : path.join(__dirname, 'code-cache'));
// Without a seed, a first start has no folder yet: only the bundle's cache is made, the packages' on the next start.
if (cache?.exists) cache.hookPackages();
const { main } = loadBundle(path.join(__dirname, 'milk.js'), cache) as { main: Main };
cache?.saveWhenSettled();

main(process.argv).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`milk: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

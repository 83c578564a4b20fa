#!/usr/bin/env node
// The `milk` command: finds the data dir's cache folder, turns on Node's own compile cache there for the packages
// and the parts (module.enableCompileCache, Node ≥ 22.1), and loads the program bundle (milk.js) with V8's cache of
// it, made after start-up has run (on every Node). Nothing else loads before it, so this file stays small.

import * as fs from 'node:fs';
import * as nodeModule from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
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

/** Node's own compile cache (Node >= 22.1) for the packages and the parts: made as each file is first compiled. */
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

const dir = cacheDir();
if (dir) enableNodeCache(dir);
const { main } = (dir ? bundleWithCache(dir) : null) ?? loadBundle();

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

/**
 * milk.js compiled with V8's cache of it, kept in the data dir, on every Node (20 has no compile cache of its own).
 * Node's compile cache is made as a file is compiled, when V8 has compiled only its outermost code: every function
 * start-up runs was compiled again at each start. This one is made once start-up has run, so it holds them
 * (script.createCachedData after running). V8 checks a cache against its own version and flags and the source's
 * length only, so the file is named by the bundle's content hash (dist/milk.sha, from the build), its size, Node's
 * version and the machine. Any failure loads the bundle as a plain require.
 */
function bundleWithCache(dir: string): { main: Main } | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const vm = require('node:vm') as typeof import('node:vm');
    const file = path.join(__dirname, 'milk.js');
    const source = fs.readFileSync(file, 'utf8');
    const sha = fs.readFileSync(path.join(__dirname, 'milk.sha'), 'utf8').trim();
    const cacheFile = path.join(dir, `milk-${sha}-${source.length}-${process.version}-${process.arch}.v8`);
    let cached: Buffer | undefined;
    try {
      cached = fs.readFileSync(cacheFile);
    } catch {
      cached = undefined;
    }
    const script = new vm.Script(nodeModule.wrap(source), { filename: file, cachedData: cached });
    const mod = new nodeModule.Module(file, module);
    mod.filename = file;
    mod.paths = (nodeModule as unknown as { _nodeModulePaths(d: string): string[] })._nodeModulePaths(__dirname);
    // The parts require milk.js by its path: they find this module, not a second copy.
    require.cache[file] = mod;
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run.call(mod.exports, mod.exports, nodeModule.createRequire(file), mod, file, __dirname);
    mod.loaded = true;
    if (!cached || script.cachedDataRejected) keepCache(dir, cacheFile, script);
    return mod.exports as { main: Main };
  } catch {
    return null;
  }
}

/**
 * The cache written once start-up has settled (a temp file renamed over it), older ones of milk.js removed. Never at
 * the exit of a short command (milk history, --help): its cache would hold none of the full screen's start-up, and
 * a cache V8 accepts is not made again.
 */
function keepCache(dir: string, cacheFile: string, script: import('node:vm').Script): void {
  const write = (): void => {
    try {
      const temp = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(temp, cacheFile);
      for (const old of fs.readdirSync(dir))
        if (/^milk-.*\.v8$/.test(old) && path.join(dir, old) !== cacheFile)
          fs.rmSync(path.join(dir, old), { force: true });
    } catch {
      // Only the speed-up is lost.
    }
  };
  setTimeout(write, FLUSH_MS).unref();
}

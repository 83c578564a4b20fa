// V8's caches of milk's own bundles (dist/milk.js and dist/parts/*.js) and of the package the first paint loads
// (neo-blessed), kept in the data dir, on every Node (20 has no compile cache of its own). Node's compile cache is
// made as a file is compiled, when V8 has compiled only its outermost code: every function a start or a turn runs
// was compiled again in each process. These are made after the code has run (script.createCachedData), so they hold
// what it compiled: once start-up has settled, and again after the first turn (the request, the stream, the
// answer's first frames), which the app announces with codeRan() (kernel/code-ran.ts). Loaded only by cli.ts; any
// failure loads a file as a plain require.

import * as fs from 'node:fs';
import * as nodeModule from 'node:module';
import * as path from 'node:path';
import type * as vmType from 'node:vm';
import { CODE_RAN } from './kernel/code-ran';

/** When the caches are first written: after start-up has settled, so they hold what start-up ran. */
const START_MS = 2000;
/** After the first turn: past its last frames, and a bundle a tick, so a key typed meanwhile waits for one write. */
const TURN_MS = 1000;

/** What a cache was made after: start-up, or a turn too (which holds more). */
type Made = 'start' | 'turn';

interface Loaded {
  readonly name: string;
  readonly script: vmType.Script;
  /** The file name without its `-start.v8` or `-turn.v8`. */
  readonly stem: string;
  /** What the cache V8 took was made after; null: none was taken. */
  readonly made: Made | null;
}

type JsLoader = (mod: NodeModule, file: string) => void;
type Main = (argv: string[]) => Promise<number>;

/**
 * milk.js and its parts, each compiled with its cache from `dir`; null when this build names no bundles (then
 * cli.ts requires milk.js as it is). V8 checks a cache against its own version and flags and the source's length
 * only: each file is named by the bundle's content hash (dist/bundles.json, from the build), its size, Node's version
 * and the machine.
 */
export function loadBundles(dist: string, dir: string): { main: Main } | null {
  let hashes: Record<string, string>;
  try {
    hashes = JSON.parse(fs.readFileSync(path.join(dist, 'bundles.json'), 'utf8')) as Record<string, string>;
  } catch {
    return null;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vm = require('node:vm') as typeof vmType;
  const loaded: Loaded[] = [];
  /** `file` compiled with the cache named `name` and `version` (what tells one content of it from another). */
  const compile = (name: string, version: string | undefined, file: string): vmType.Script | null => {
    if (!version) return null;
    try {
      const source = fs.readFileSync(file, 'utf8');
      const stem = path.join(dir, `${name}-${version}-${source.length}-${process.version}-${process.arch}`);
      const [made, cachedData] = readCache(stem);
      const script = new vm.Script(nodeModule.wrap(source), { filename: file, cachedData });
      loaded.push({ name, script, stem, made: cachedData && !script.cachedDataRejected ? made : null });
      return script;
    } catch {
      return null;
    }
  };
  const parts = path.join(dist, 'parts');
  const packages = cachedPackages();
  hookLoads((file) => {
    if (path.dirname(file) === parts) {
      const name = path.basename(file, '.js');
      return compile(name, hashes[name], file);
    }
    const pkg = packages.find((p) => file.startsWith(p.root));
    return pkg ? compile(pkg.name(file), pkg.version(file), file) : null;
  });
  const main = runMain(path.join(dist, 'milk.js'), (file) => compile('milk', hashes.milk, file));
  if (!main) return null;
  keepCaches(dir, loaded);
  return main;
}

/**
 * The packages the first paint loads, all CommonJS: their files are compiled with caches too (Node 20 has none of
 * its own, and Node 22's holds none of the functions they ran). A file's cache is named by its path in the package,
 * the package's version and the file's modification time: hashing each file at every start would cost more than
 * the cache saves.
 */
const PAINT_PACKAGES = ['neo-blessed'];

interface CachedPackage {
  readonly root: string;
  name(file: string): string;
  version(file: string): string | undefined;
}

function cachedPackages(): CachedPackage[] {
  const found: CachedPackage[] = [];
  for (const pkg of PAINT_PACKAGES) {
    try {
      const manifest = require.resolve(`${pkg}/package.json`);
      const root = path.dirname(manifest) + path.sep;
      const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: string };
      if (typeof version !== 'string') continue;
      found.push({
        root,
        name: (file) => `${pkg}~${path.relative(root, file).replace(/\.js$/, '').split(path.sep).join('~')}`,
        version: (file) => `${version}-${Math.round(fs.statSync(file).mtimeMs)}`,
      });
    } catch {
      // Not installed where this milk runs: its files load as they are.
    }
  }
  return found;
}

/** The best cache there is for a bundle: one made after a turn, else after start-up. */
function readCache(stem: string): [Made, Buffer] | [null, undefined] {
  for (const made of ['turn', 'start'] as const) {
    try {
      return [made, fs.readFileSync(`${stem}-${made}.v8`)];
    } catch {
      // None of this kind.
    }
  }
  return [null, undefined];
}

/** Runs a compiled bundle as the CommonJS module `mod` (what Module.prototype._compile does with its wrapper). */
function run(script: vmType.Script, mod: NodeModule, file: string): void {
  const fn = script.runInThisContext() as (...args: unknown[]) => void;
  fn.call(mod.exports, mod.exports, nodeModule.createRequire(file), mod, file, path.dirname(file));
}

/** milk.js, compiled with its cache and run as the module the parts require by its path. */
function runMain(file: string, compile: (file: string) => vmType.Script | null): { main: Main } | null {
  const script = compile(file);
  if (!script) return null;
  const mod = new nodeModule.Module(file, module);
  mod.filename = file;
  mod.paths = (nodeModule as unknown as { _nodeModulePaths(d: string): string[] })._nodeModulePaths(path.dirname(file));
  // The parts require milk.js by its path: they find this module, not a second copy.
  require.cache[file] = mod;
  run(script, mod, file);
  mod.loaded = true;
  return mod.exports as { main: Main };
}

/**
 * The parts are required by path (app/parts.ts, and milk.js's references into them), and the packages by name: Node's
 * loader for `.js` files hands those `compile` takes (it answers null for the rest) to it, every other file to itself.
 */
function hookLoads(compile: (file: string) => vmType.Script | null): void {
  const loaders = (nodeModule as unknown as { _extensions: Record<string, JsLoader> })._extensions;
  const plain = loaders['.js'];
  loaders['.js'] = function (this: unknown, mod, file) {
    const script = compile(file);
    if (script) run(script, mod, file);
    else plain.call(this, mod, file);
  };
}

/**
 * Writes what a bundle compiled, as a temp file renamed over its cache, the bundle's other caches removed. Once
 * start-up has settled, for the bundles that had none; after the first turn, for those whose cache was made before
 * any turn. Never at exit: a short command (milk history, --help) would keep a cache of none of the full screen, and
 * a cache V8 takes is not made again.
 */
function keepCaches(dir: string, loaded: Loaded[]): void {
  const write = (b: Loaded, made: Made): void => {
    try {
      const file = `${b.stem}-${made}.v8`;
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, b.script.createCachedData(), { mode: 0o600 });
      fs.renameSync(temp, file);
      const prefix = `${b.name}-`;
      for (const old of fs.readdirSync(dir))
        if (old.startsWith(prefix) && old.endsWith('.v8') && path.join(dir, old) !== file)
          fs.rmSync(path.join(dir, old), { force: true });
    } catch {
      // Only the speed-up is lost.
    }
  };
  const written = new Map<string, Made>();
  setTimeout(() => {
    for (const b of loaded) {
      if (b.made !== null || written.has(b.name)) continue;
      write(b, 'start');
      written.set(b.name, 'start');
    }
  }, START_MS).unref();
  let turned = false;
  (globalThis as Record<symbol, unknown>)[CODE_RAN] = (): void => {
    if (turned) return;
    turned = true;
    const due = loaded.filter((b) => b.made !== 'turn');
    const next = (): void => {
      const b = due.shift();
      if (!b) return;
      write(b, 'turn');
      written.set(b.name, 'turn');
      setTimeout(next, 0).unref();
    };
    setTimeout(next, TURN_MS).unref();
  };
}

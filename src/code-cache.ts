// V8's caches of milk's own bundles (dist/milk.js and dist/parts/*.js) and of the package the first paint loads
// (CACHED_PACKAGES), kept in the data dir, on every Node (20 has no compile cache of its own). Node's
// compile cache is made as a file is compiled, when V8 has compiled only its outermost code: every function a start
// or a turn runs was compiled again in each process. These are made after the code has run
// (script.createCachedData), so they hold what it compiled: once start-up has settled, and again after the first
// turn (the request, the stream, the answer's first frames), which the app announces with codeRan()
// (kernel/code-ran.ts). Loaded only by cli.ts; any failure loads a file as a plain require.

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
  const ofPackage = packageFile();
  hookLoads((file) => {
    if (path.dirname(file) === parts) {
      const name = path.basename(file, '.js');
      return compile(name, hashes[name], file);
    }
    const pkg = ofPackage(file);
    return pkg ? compile(pkg.name, pkg.version, file) : null;
  });
  const main = runMain(path.join(dist, 'milk.js'), (file) => compile('milk', hashes.milk, file));
  if (!main) return null;
  keepCaches(dir, loaded);
  return main;
}

/**
 * The packages whose files are compiled with caches too, loaded as CommonJS: the screen's, the one package the first
 * paint loads (Node 20 compiled its 459 KB at every start, and Node 22's cache holds none of the functions it ran;
 * with its caches a start is ~20 ms sooner). The Markdown parser and the highlighter, loaded while the person types,
 * were measured with caches too and gained nothing visible: their load is spent evaluating, not compiling. Others load
 * as they are (an ES module among them must not go through a CommonJS wrapper).
 */
const CACHED_PACKAGES = new Set(['neo-blessed']);

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/**
 * The cache name and version of a file of one of those packages, or null. A file's cache is named by its path in the
 * package and versioned by the package's version and the file's modification time: hashing each file at every start
 * would cost more than its cache saves, and the package is found from the path, not resolved, so that a start pays
 * nothing for the packages it does not load.
 */
function packageFile(): (file: string) => { name: string; version: string } | null {
  const versions = new Map<string, string | null>();
  const versionOf = (root: string): string | null => {
    if (!versions.has(root)) {
      let version: string | null = null;
      try {
        const v = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: unknown })
          .version;
        version = typeof v === 'string' ? v : null;
      } catch {
        // No version to name its caches by: its files load as they are.
      }
      versions.set(root, version);
    }
    return versions.get(root) ?? null;
  };
  return (file) => {
    const at = file.lastIndexOf(NODE_MODULES);
    if (at < 0) return null;
    const [first, second] = file.slice(at + NODE_MODULES.length).split(path.sep);
    const pkg = first.startsWith('@') ? `${first}/${second}` : first;
    if (!CACHED_PACKAGES.has(pkg)) return null;
    const root = file.slice(0, at + NODE_MODULES.length) + pkg;
    const version = versionOf(root);
    if (version === null) return null;
    const name = `${pkg}~${path.relative(root, file).replace(/\.js$/, '').split(path.sep).join('~')}`;
    return { name, version: `${version}-${Math.round(fs.statSync(file).mtimeMs)}` };
  };
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
  /** The bundles written by this process: the start-up write never goes over one written after a turn. */
  const written = new Set<string>();
  setTimeout(() => {
    for (const b of loaded) {
      if (b.made !== null || written.has(b.name)) continue;
      write(b, 'start');
      written.add(b.name);
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
      written.add(b.name);
      setTimeout(next, 0).unref();
    };
    setTimeout(next, TURN_MS).unref();
  };
}

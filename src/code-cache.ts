// Compiles milk's bundle and the packages it loads through V8's code cache,
// as Node 22's module.enableCompileCache would on this Node 20: compiling
// JavaScript was about a tenth of start-up (blessed's forty files most of it),
// and a first answer paid again for each function it ran for the first time.
// The cache lives in the data dir (the person's own, never the workspace or a
// shared temp dir), one file per script, named by a hash of its path, its
// content, Node's version and the architecture; V8 rejects one that does not
// fit, and it is written again. Any failure here only costs the speed-up.

import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
// The class itself, whose prototype Node's loader calls: an interop copy would not do.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import Module = require('node:module');

/** When the first caches are written: after start-up has settled, so they hold what it ran. */
const FIRST_SAVE_MS = 2000;
/** Caches no start has used for this long (other builds, removed packages) are dropped. */
const STALE_MS = 14 * 24 * 3600 * 1000;

type Wrapped = (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
interface ModuleInternals {
  paths: string[];
  filename: string;
  loaded: boolean;
  _compile(content: string, filename: string): unknown;
}
type ModuleStatics = typeof Module & {
  wrap(source: string): string;
  _nodeModulePaths(dir: string): string[];
  _resolveFilename(request: string, parent: Module, isMain: boolean, options?: { paths?: string[] }): string;
  _resolveLookupPaths(request: string, parent: Module): string[] | null;
  _extensions: NodeJS.RequireExtensions;
  _cache: NodeJS.Dict<NodeModule>;
};
const statics = Module as ModuleStatics;

interface Entry {
  script: vm.Script;
  /** Where its cache goes (worked out when first needed: hashing is not free on a first start). */
  file: string | (() => string);
  /** Bytes of cache on disk for it (0: none, or V8 rejected it). */
  size: number;
}

export class CodeCache {
  private readonly entries: Entry[] = [];
  /** Whether there is a cache to look in: on a first start without a seed there is none, and nothing is looked up. */
  readonly exists: boolean;

  /**
   * `dir` is the data dir's cache, read and written; `seed`, read only, is the
   * one the build made by starting milk in a pty (scripts/seed-code-cache.js), so
   * that a first start need not compile either. V8 rejects it on another Node.
   */
  constructor(private readonly dir: string, private readonly seed: string | null = null) {
    this.exists = fs.existsSync(dir) || (seed !== null && fs.existsSync(seed));
  }

  /** The script of `source`, with its cache when there is one that V8 takes. */
  compile(source: string, filename: string): vm.Script {
    const file = () => {
      const key = crypto.createHash('sha256').update(`${filename}\0${process.version}\0${process.arch}\0`).update(source).digest('hex').slice(0, 32);
      return path.join(this.dir, `${key}.bin`);
    };
    let data: Buffer | undefined;
    let known: string | undefined;
    if (this.exists) {
      known = file();
      data = readOrUndefined(known) ?? (this.seed === null ? undefined : readOrUndefined(path.join(this.seed, path.basename(known))));
    }
    const script = new vm.Script(statics.wrap(source), { filename, cachedData: data });
    const size = data && !script.cachedDataRejected ? data.length : 0;
    this.entries.push({ script, file: known ?? file, size });
    return script;
  }

  /** Compiles every CommonJS package file milk requires from now on through the cache. */
  hookPackages(): void {
    const proto = Module.prototype as unknown as ModuleInternals;
    const original = proto._compile;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const cache = this;
    proto._compile = function (this: Module & ModuleInternals, content: string, filename: string): unknown {
      if (!filename.includes(`${path.sep}node_modules${path.sep}`) || !filename.endsWith('.js')) return original.call(this, content, filename);
      const run = cache.compile(stripShebang(content), filename).runInThisContext() as Wrapped;
      return run.call(this.exports, this.exports, requireFor(this), this, filename, path.dirname(filename));
    };
  }

  /**
   * Writes the cache of each script that now holds a tenth more than is on
   * disk (temp file, rename: a reader never sees half of one): once start-up
   * has settled, and at exit with what the session added.
   */
  saveWhenSettled(): void {
    // A start that found every cache it needed has nothing to add yet: no work while idle.
    if (this.entries.some((e) => e.size === 0)) setTimeout(() => this.save(), FIRST_SAVE_MS).unref();
    process.once('exit', () => this.save());
  }

  private save(): void {
    // Only inside a data dir that exists: milk creates it (private) on start; this never does.
    try {
      if (!fs.existsSync(path.dirname(this.dir))) return;
      fs.mkdirSync(this.dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return;
    }
    const written = new Set<string>();
    for (const entry of this.entries) {
      if (typeof entry.file !== 'string') entry.file = entry.file();
      const file = entry.file;
      written.add(path.basename(file));
      const data = entry.script.createCachedData();
      if (data.length < entry.size * 1.1) {
        touch(file);
        continue;
      }
      try {
        const temp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(temp, data, { mode: 0o600 });
        fs.renameSync(temp, file);
        entry.size = data.length;
      } catch {
        // A full or read-only disk: the next start compiles as it would have without a cache.
        return;
      }
    }
    this.dropStale(written);
  }

  private dropStale(keep: Set<string>): void {
    try {
      const now = Date.now();
      for (const name of fs.readdirSync(this.dir)) {
        const file = path.join(this.dir, name);
        if (!keep.has(name) && now - fs.statSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
      }
    } catch {
      // Someone else tidied first.
    }
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Marks a cache as used, so that dropping unused ones spares it. */
function touch(file: string): void {
  try {
    const now = new Date();
    fs.utimesSync(file, now, now);
  } catch {
    // Read-only: it stays until it is stale.
  }
}

function stripShebang(source: string): string {
  return source.startsWith('#!') ? `//${source.slice(2)}` : source;
}

/** The `require` Node gives a module: resolution from it, and its children recorded. */
function requireFor(mod: Module): NodeJS.Require {
  const req = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) => statics._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => statics._resolveLookupPaths(request, mod);
  req.resolve = resolve;
  req.main = require.main;
  req.extensions = statics._extensions;
  req.cache = statics._cache;
  return req;
}

/** Runs the program bundle as a CommonJS module compiled through `cache` (none: plainly). */
export function loadBundle(file: string, cache: CodeCache | null): unknown {
  const source = fs.readFileSync(file, 'utf8');
  const script = cache ? cache.compile(source, file) : new vm.Script(statics.wrap(source), { filename: file });
  const mod = new Module(file) as Module & ModuleInternals;
  mod.filename = file;
  mod.paths = statics._nodeModulePaths(path.dirname(file));
  const run = script.runInThisContext() as Wrapped;
  run.call(mod.exports, mod.exports, requireFor(mod), mod, file, path.dirname(file));
  mod.loaded = true;
  return mod.exports;
}

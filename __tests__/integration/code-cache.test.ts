// The code cache behind the `milk` command: written into the data dir only,
// taken by V8 on the next start, and harmless when missing, corrupt,
// unwritable or turned off.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, tempDir } from '../helpers/pty';

const DIST = path.join(__dirname, '..', '..', 'dist');

// The data dir's own cache, without the build's seed (which a first start would take instead).
function run(args: string[], env: NodeJS.ProcessEnv = {}, cwd = tempDir()) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd, env: { ...process.env, HOME: tempDir(), MILK_CODE_CACHE: 'no-seed', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const cacheFiles = (data: string): string[] => {
  try {
    return fs.readdirSync(path.join(data, 'cache')).sort();
  } catch {
    return [];
  }
};

describe('code cache', () => {
  it('is written into the data dir, private, and nowhere in the workspace', () => {
    const data = tempDir();
    const workspace = tempDir();
    expect(run(['--data-dir', data, 'history', 'list'], {}, workspace).code).toBe(0);
    // A first start makes the bundle's; the next one those of the packages it loads (commander at least).
    expect(cacheFiles(data)).toHaveLength(1);
    expect(run(['--data-dir', data, 'history', 'list'], {}, workspace).code).toBe(0);
    const files = cacheFiles(data);
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(files.every((f) => /^[0-9a-f]{32}\.bin$/.test(f))).toBe(true);
    expect(fs.statSync(path.join(data, 'cache')).mode & 0o777).toBe(0o700);
    for (const f of files) expect(fs.statSync(path.join(data, 'cache', f)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(workspace)).toEqual([]);
  });

  it('is taken by V8 on the next start, and written again when V8 rejects it', () => {
    const dir = path.join(tempDir(), 'cache');
    const script = `
      const { CodeCache } = require(${JSON.stringify(path.join(DIST, 'code-cache.js'))});
      const cache = new CodeCache(${JSON.stringify(dir)});
      const s = cache.compile('exports.f = function f(x) { return x * 2; };', '/virtual/f.js');
      const m = { exports: {} };
      s.runInThisContext()(m.exports, require, m, '/virtual/f.js', '/virtual');
      m.exports.f(2);
      cache.saveWhenSettled();
      process.stdout.write(String(s.cachedDataRejected));
    `;
    const once = () => spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout;
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    // No cache: nothing for V8 to take or reject.
    expect(once()).toBe('undefined');
    expect(once()).toBe('false');
    const [file] = fs.readdirSync(dir);
    fs.writeFileSync(path.join(dir, file), Buffer.from('not a code cache at all'));
    expect(once()).toBe('true');
    expect(once()).toBe('false');
  });

  it("the build's seed is taken by V8 on a first start, and the data dir's own cache comes first", () => {
    const seed = path.join(DIST, 'code-cache');
    expect(fs.readdirSync(seed).length).toBeGreaterThanOrEqual(10);
    const script = (dir: string) => `
      const { CodeCache } = require(${JSON.stringify(path.join(DIST, 'code-cache.js'))});
      const cache = new CodeCache(${JSON.stringify(dir)}, ${JSON.stringify(seed)});
      const bundle = ${JSON.stringify(path.join(DIST, 'milk.js'))};
      const s = cache.compile(require('fs').readFileSync(bundle, 'utf8'), bundle);
      process.stdout.write(String(s.cachedDataRejected));
    `;
    const fresh = path.join(tempDir(), 'cache');
    expect(spawnSync(process.execPath, ['-e', script(fresh)], { encoding: 'utf8' }).stdout).toBe('false');
    // The data dir's own cache is the one looked at (here one V8 rejects, so it is seen to be the one read).
    const data = tempDir();
    expect(run(['--data-dir', data, 'history', 'list']).code).toBe(0);
    const [own] = cacheFiles(data);
    fs.writeFileSync(path.join(data, 'cache', own), Buffer.alloc(64, 0xff));
    expect(spawnSync(process.execPath, ['-e', script(path.join(data, 'cache'))], { encoding: 'utf8' }).stdout).toBe('true');
  });

  it('a corrupt, unreadable or unwritable cache costs nothing but the speed-up', () => {
    const data = tempDir();
    expect(run(['--data-dir', data, 'history', 'list']).code).toBe(0);
    for (const f of cacheFiles(data)) fs.writeFileSync(path.join(data, 'cache', f), Buffer.alloc(64, 0xff));
    const corrupt = run(['--data-dir', data, 'history', 'list']);
    expect(corrupt).toMatchObject({ code: 0, stderr: '' });
    // Rewritten over the garbage.
    expect(cacheFiles(data).every((f) => fs.statSync(path.join(data, 'cache', f)).size > 64)).toBe(true);
    if (process.getuid?.() !== 0) {
      fs.chmodSync(path.join(data, 'cache'), 0o500);
      expect(run(['--data-dir', data, 'history', 'list'])).toMatchObject({ code: 0, stderr: '' });
      fs.chmodSync(path.join(data, 'cache'), 0o700);
    }
    fs.rmSync(path.join(data, 'cache'), { recursive: true });
    fs.writeFileSync(path.join(data, 'cache'), 'a file where the folder goes');
    expect(run(['--data-dir', data, 'history', 'list'])).toMatchObject({ code: 0, stderr: '' });
  });

  it('never creates a data dir, and MILK_CODE_CACHE=0 turns it off', () => {
    const parent = tempDir();
    const data = path.join(parent, 'not-yet');
    expect(run(['--data-dir', data, '--version']).code).toBe(0);
    expect(fs.existsSync(data)).toBe(false);
    const off = tempDir();
    expect(run(['--data-dir', off, 'history', 'list'], { MILK_CODE_CACHE: '0' }).code).toBe(0);
    expect(cacheFiles(off)).toEqual([]);
  });
});

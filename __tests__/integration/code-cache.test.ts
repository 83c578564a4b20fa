// Node's compile cache behind the `milk` command (module.enableCompileCache,
// Node ≥ 22.1): written into the data dir only, private, never in the
// workspace, harmless when corrupt or in the way, off with MILK_CODE_CACHE=0;
// on Node 20, which has none, nothing is written.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodeModule from 'node:module';
import * as path from 'node:path';
import { CLI, KEY, MilkPty, tempDir } from '../helpers/pty';

const DIST = path.join(__dirname, '..', '..', 'dist');

const HAS_CACHE = typeof (nodeModule as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function run(args: string[], env: NodeJS.ProcessEnv = {}, cwd = tempDir()) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    cwd,
    env: { ...process.env, HOME: tempDir(), NODE_COMPILE_CACHE: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under the data dir's cache folder. */
const cacheFiles = (data: string): string[] => {
  try {
    return fs
      .readdirSync(path.join(data, 'cache'), { recursive: true })
      .map(String)
      .filter((f) => fs.statSync(path.join(data, 'cache', f)).isFile())
      .sort();
  } catch {
    return [];
  }
};

describe('compile cache', () => {
  (HAS_CACHE ? it : it.skip)('is written into the data dir, private, and nowhere in the workspace', () => {
    const data = tempDir();
    const workspace = tempDir();
    expect(run(['--data-dir', data, 'history', 'list'], {}, workspace).code).toBe(0);
    const files = cacheFiles(data);
    // The bundle and the packages it loaded (commander at least).
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(fs.statSync(path.join(data, 'cache')).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(workspace)).toEqual([]);
    // The next start reads it and leaves it as it was.
    expect(run(['--data-dir', data, 'history', 'list'], {}, workspace).code).toBe(0);
    expect(cacheFiles(data)).toEqual(files);
  });

  (HAS_CACHE ? it : it.skip)('a corrupt cache or a file where its folder goes costs nothing but the speed-up', () => {
    const data = tempDir();
    expect(run(['--data-dir', data, 'history', 'list']).code).toBe(0);
    for (const f of cacheFiles(data)) fs.writeFileSync(path.join(data, 'cache', f), Buffer.alloc(64, 0xff));
    expect(run(['--data-dir', data, 'history', 'list'])).toMatchObject({ code: 0, stderr: '' });
    fs.rmSync(path.join(data, 'cache'), { recursive: true });
    fs.writeFileSync(path.join(data, 'cache'), 'a file where the folder goes');
    expect(run(['--data-dir', data, 'history', 'list'])).toMatchObject({ code: 0, stderr: '' });
  });

  // Root reads and writes whatever the mode says; CI runs this file again as another user.
  (HAS_CACHE && process.getuid?.() !== 0 ? it : it.skip)(
    'an unwritable cache folder costs nothing but the speed-up',
    () => {
      const data = tempDir();
      expect(run(['--data-dir', data, 'history', 'list']).code).toBe(0);
      fs.chmodSync(path.join(data, 'cache'), 0o500);
      try {
        expect(run(['--data-dir', data, 'history', 'list'])).toMatchObject({ code: 0, stderr: '' });
      } finally {
        fs.chmodSync(path.join(data, 'cache'), 0o700);
      }
    },
  );

  it('never creates a data dir, and MILK_CODE_CACHE=0 turns it off', () => {
    const parent = tempDir();
    const data = path.join(parent, 'not-yet');
    expect(run(['--data-dir', data, '--version']).code).toBe(0);
    expect(fs.existsSync(data)).toBe(false);
    const off = tempDir();
    expect(run(['--data-dir', off, 'history', 'list'], { MILK_CODE_CACHE: '0' }).code).toBe(0);
    expect(cacheFiles(off)).toEqual([]);
  });

  (HAS_CACHE ? it.skip : it)('on a Node without a compile cache, nothing is written', () => {
    const data = tempDir();
    expect(run(['--data-dir', data, 'history', 'list']).code).toBe(0);
    expect(cacheFiles(data)).toEqual([]);
  });
});

// The bundles' own V8 caches (src/code-cache.ts), on every Node: made once start-up has run and again after the first
// turn, so they hold the functions start-up and a turn compiled, which Node's compile cache (made as a file is
// compiled) does not.
describe("the bundles' caches, made after start-up and after a first turn", () => {
  // milk.js and the parts a session loads whether it uses them or not (the agent's); the others only where used.
  const { afterPaint } = JSON.parse(fs.readFileSync(path.join(DIST, 'parts', 'index.json'), 'utf8')) as {
    afterPaint: string[];
  };
  const bundles = ['milk', ...afterPaint];
  const hashed = Object.keys(JSON.parse(fs.readFileSync(path.join(DIST, 'bundles.json'), 'utf8')) as object);
  /** Each bundle's cache file, by what it was made after ('start' or 'turn'). */
  const caches = (data: string, made: string): string[] =>
    cacheFiles(data).filter((f) => f.endsWith(`-${made}.v8`) && bundles.some((b) => f.startsWith(`${b}-`)));
  const mtimes = (data: string, files: string[]): number[] =>
    files.map((f) => fs.statSync(path.join(data, 'cache', f)).mtimeMs);

  it('are written for milk.js and the parts every session loads, made again after a turn, used by the next start, and a corrupt one costs only the speed-up', async () => {
    expect(hashed).toEqual(expect.arrayContaining([...bundles, 'snapshots', 'commands']));
    const data = tempDir();
    const start = async (): Promise<MilkPty> => {
      const m = new MilkPty({ args: ['--data-dir', data] });
      await m.waitForText('history: session');
      return m;
    };
    const turn = async (m: MilkPty): Promise<void> => {
      m.write('hello' + KEY.enter);
      await m.waitForText('You wrote one line');
    };
    let m = await start();
    await m.waitFor(() => caches(data, 'start').length === bundles.length, 'every cache written', 10000);
    // The package the first paint loads has its caches too, a file each.
    await m.waitFor(() => cacheFiles(data).some((f) => /^neo-blessed~lib~program-.*-start\.v8$/.test(f)), 'blessed');
    for (const f of caches(data, 'start')) {
      expect(f).toContain(process.version);
      expect(fs.statSync(path.join(data, 'cache', f)).mode & 0o777).toBe(0o600);
    }
    await turn(m);
    // After the first turn each is made again, holding what the turn compiled, and the one before it removed.
    await m.waitFor(() => caches(data, 'turn').length === bundles.length, 'every cache made after the turn', 10000);
    await m.waitFor(() => caches(data, 'start').length === 0, 'the caches made before it removed', 5000);
    m.kill('SIGKILL');
    const made = caches(data, 'turn');
    const before = mtimes(data, made);
    // Used as they are by the next start and its turn (not written again). That nothing is written is only seen once
    // both writes would have happened: 2 s after start-up, and 1 s after the turn (src/code-cache.ts).
    const began = Date.now();
    m = await start();
    await turn(m);
    await new Promise((resolve) => setTimeout(resolve, Math.max(1500, 3000 - (Date.now() - began))));
    expect(mtimes(data, made)).toEqual(before);
    m.kill('SIGKILL');
    // A corrupt one is rejected by V8, and written again.
    const milk = made.find((f) => f.startsWith('milk-'))!;
    fs.writeFileSync(path.join(data, 'cache', milk), Buffer.alloc(4096, 0xff));
    m = await start();
    await turn(m);
    await m.waitFor(() => fs.statSync(path.join(data, 'cache', milk)).size > 4096, 'the cache written again', 10000);
    m.kill('SIGKILL');
  });
});

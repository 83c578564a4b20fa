// Two milks on one workspace (issue "Snapshots you can trust", finding 7), with real git: each holds its snapshots
// while it runs, and a prune past the size cap (10 MB here) takes only those of milks no longer running, with git's
// grace period for the objects; both still undo their own turn. A prune runs in a milk's idle time, at most daily.
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StoreGit } from '../../src/session/snapshot-git';
import { duePrune, prune } from '../../src/session/snapshot-prune';
import { commands } from '../helpers/snapshot-agent';
import { tempDir } from '../helpers/pty';

jest.setTimeout(60000);

const caps = (dataDir: string) => ({ dataDir, snapshots: { maxFileMb: 8, maxStoreMb: 10 } });

function setUp() {
  const ws = fs.realpathSync(tempDir('milk-two-'));
  execFileSync('git', ['init', '-q'], { cwd: ws });
  // 15 MB that does not compress: the store is over its 10 MB cap from the first snapshot.
  for (const name of ['one.bin', 'two.bin', 'three.bin'])
    fs.writeFileSync(path.join(ws, name), crypto.randomBytes(5 << 20));
  const data = tempDir();
  const store = () => {
    const root = path.join(data, 'snapshots');
    return path.join(root, fs.readdirSync(root).find((d) => d.endsWith('.git')) as string);
  };
  return { ws, data, store };
}

const refs = (store: string): string[] =>
  execFileSync('git', ['--git-dir', store, 'for-each-ref', '--format=%(refname)', 'refs/milk/'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

it('two milks with a 10 MB cap each undo their own turn after a prune; a finished milk’s snapshots go', async () => {
  const { ws, data, store } = setUp();
  const one = fs.readFileSync(path.join(ws, 'one.bin'));
  const two = fs.readFileSync(path.join(ws, 'two.bin'));
  const a = commands(ws, ['printf changed > one.bin'], caps(data));
  const b = commands(ws, ['rm two.bin'], caps(data));
  expect((await a.turn('change one')).status).toBe('done');
  expect((await b.turn('delete two')).status).toBe('done');
  // A third milk that ran and is gone (its pid is no process), its ref still there.
  const finished = 'refs/milk/999999999-gone-x';
  execFileSync('git', ['--git-dir', store(), 'update-ref', finished, refs(store())[0]]);
  const repo = new StoreGit({ store: store(), workspace: ws, index: path.join(store(), 'index-prune') });
  const gone = await prune({ store: store(), repo, maxStoreBytes: 10 << 20, maxAgeDays: 30 });
  expect(gone).toEqual([finished]);
  expect(refs(store())).toHaveLength(2);
  expect((await a.files().restore(0)).failed).toEqual([]);
  expect(fs.readFileSync(path.join(ws, 'one.bin')).equals(one)).toBe(true);
  // A milk that exits lets its snapshots go at the next prune past the cap; the one still running keeps its own and
  // can still undo its turn.
  const before = refs(store());
  a.cleanup.run();
  fs.rmSync(path.join(store(), 'pruned-at'), { force: true });
  const second = await prune({ store: store(), repo, maxStoreBytes: 10 << 20, maxAgeDays: 30 });
  expect(second).toHaveLength(1);
  expect(refs(store())).toEqual(before.filter((r) => r !== second[0]));
  expect((await b.files().restore(0)).failed).toEqual([]);
  expect(fs.readFileSync(path.join(ws, 'two.bin')).equals(two)).toBe(true);
  b.cleanup.run();
});

it('prunes in idle time after a turn, at most once a day, under the age cap only what is older', async () => {
  const { ws, data, store } = setUp();
  const a = commands(ws, ['printf changed > one.bin', 'printf again > one.bin'], caps(data));
  expect((await a.turn('change one')).status).toBe('done');
  const stamp = path.join(store(), 'pruned-at');
  const until = async (what: string, done: () => boolean) => {
    for (const deadline = Date.now() + 15000; !done();) {
      if (Date.now() > deadline) throw new Error(what);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  // A new store counts from now: its first idle time marks the day, and prunes nothing.
  const finished = 'refs/milk/999999999-gone-x';
  execFileSync('git', ['--git-dir', store(), 'update-ref', finished, refs(store())[0]]);
  await until('no stamp in idle time', () => fs.existsSync(stamp));
  await new Promise((r) => setTimeout(r, 500));
  expect(refs(store())).toContain(finished);
  // A day on, the next turn's idle time prunes: the finished milk's ref goes (the store is over its 10 MB).
  const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
  fs.utimesSync(stamp, dayAgo, dayAgo);
  expect((await a.turn('change it again')).status).toBe('done');
  await until('no prune in idle time', () => !refs(store()).includes(finished));
  expect(fs.statSync(stamp).mtimeMs).toBeGreaterThan(Date.now() - 60000);
  expect(duePrune(store())).toBe(false);
  expect(duePrune(store(), Date.now() + 25 * 3600 * 1000)).toBe(true);
  // Under the size cap, a finished milk's ref younger than the age cap stays.
  const repo = new StoreGit({ store: store(), workspace: ws, index: path.join(store(), 'index-prune') });
  execFileSync('git', ['--git-dir', store(), 'update-ref', 'refs/milk/999999999-young-x', refs(store())[0]]);
  expect(await prune({ store: store(), repo, maxStoreBytes: 1 << 30, maxAgeDays: 30 })).toEqual([]);
  expect((await a.files().restore(1)).failed).toEqual([]);
  a.cleanup.run();
});

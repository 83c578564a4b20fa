// Snapshots keep modes and owners (issue "Snapshots you can trust", finding 4), with real git and real commands: a
// deleted 0600 key and a 4750 tool come back as they were; a chmod alone is undone; as root, the owner comes back
// where it exists here, and a setuid bit never comes back without it; the modes are kept across milks with the index.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commands } from '../helpers/snapshot-agent';
import { tempDir } from '../helpers/pty';

jest.setTimeout(30000);

const root = process.getuid?.() === 0;
const asRoot = root ? it : it.skip;

function repository(): string {
  const ws = fs.realpathSync(tempDir('milk-modes-'));
  execFileSync('git', ['init', '-q'], { cwd: ws });
  return ws;
}

const modeOf = (file: string): number => fs.statSync(file).mode & 0o7777;

it('a deleted 0600 key and a 4750 tool come back with their modes', async () => {
  const ws = repository();
  const key = path.join(ws, 'key.pem');
  const tool = path.join(ws, 'bin', 'tool');
  fs.writeFileSync(key, 'secret\n');
  fs.chmodSync(key, 0o600);
  fs.mkdirSync(path.dirname(tool));
  fs.writeFileSync(tool, '#!/bin/sh\n');
  fs.chmodSync(tool, 0o4750);
  const a = commands(ws, ['rm -rf key.pem bin']);
  expect((await a.turn('delete')).status).toBe('done');
  const report = await a.files().restore(0);
  expect(report.failed).toEqual([]);
  expect(report.restored).toEqual([tool, key]);
  expect(modeOf(key)).toBe(0o600);
  expect(modeOf(tool)).toBe(0o4750);
  expect(report.notes).toBeUndefined();
});

it('a chmod alone is a change, and undone', async () => {
  const ws = repository();
  const key = path.join(ws, 'key.pem');
  fs.writeFileSync(key, 'secret\n');
  fs.chmodSync(key, 0o600);
  const a = commands(ws, ['chmod 644 key.pem']);
  expect((await a.turn('open it up')).status).toBe('done');
  expect(modeOf(key)).toBe(0o644);
  expect(await a.files().files(0)).toEqual([key]);
  expect((await a.files().restore(0)).restored).toEqual([key]);
  expect(modeOf(key)).toBe(0o600);
});

asRoot(
  'as root, an owner that exists here comes back; a setuid bit whose owner does not is dropped and said',
  async () => {
    const ws = repository();
    const theirs = path.join(ws, 'theirs.sh');
    const orphan = path.join(ws, 'orphan.sh');
    for (const f of [theirs, orphan]) fs.writeFileSync(f, '#!/bin/sh\n');
    // nobody (65534) exists in any Debian; 4242 in none of this machine's files.
    fs.chownSync(theirs, 65534, 65534);
    fs.chmodSync(theirs, 0o4755);
    fs.chownSync(orphan, 4242, 4242);
    fs.chmodSync(orphan, 0o4755);
    const a = commands(ws, ['rm theirs.sh orphan.sh']);
    expect((await a.turn('delete')).status).toBe('done');
    const report = await a.files().restore(0);
    expect(report.failed).toEqual([]);
    const st = fs.statSync(theirs);
    expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([65534, 65534, 0o4755]);
    const o = fs.statSync(orphan);
    expect([o.uid, o.mode & 0o7777]).toEqual([0, 0o755]);
    expect(report.notes).toEqual([`${orphan}: setuid dropped (its owner no longer exists here)`]);
  },
);

it("the modes are kept with the store's index: the next milk undoes a deletion with the mode the last one saw", async () => {
  const ws = repository();
  const data = tempDir();
  const key = path.join(ws, 'key.pem');
  fs.writeFileSync(key, 'secret\n');
  fs.chmodSync(key, 0o600);
  const first = commands(ws, ['true'], { dataDir: data });
  expect((await first.turn('look')).status).toBe('done');
  first.cleanup.run();
  // The book beside the index kept names the key (by path and mode, never its bytes).
  const kept = (fs.readdirSync(data, { recursive: true }) as string[]).filter((f) => f.endsWith('index.modes'));
  expect(kept).toHaveLength(1);
  const book = fs.readFileSync(path.join(data, kept[0]), 'utf8');
  expect(book).toContain('"key.pem",384');
  expect(book).not.toContain('secret');
  // The next milk's first snapshot reads only what changed since the index kept: key.pem is not read again.
  const second = commands(ws, ['rm key.pem'], { dataDir: data });
  expect((await second.turn('delete')).status).toBe('done');
  expect((await second.files().restore(0)).restored).toEqual([key]);
  expect(modeOf(key)).toBe(0o600);
});

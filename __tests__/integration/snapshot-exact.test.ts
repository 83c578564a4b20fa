// Snapshots keep files exactly (issue "Snapshots you can trust"), with real git and real commands: the workspace's
// .gitattributes (text=auto, working-tree-encoding) never change the bytes a rewind puts back; a file name that is
// not UTF-8 does not stop the workspace being snapshotted; what was there but ignored is never removed; a snapshot
// gone from the store is said to be, never a crash.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Snapshots } from '../../src/session/snapshots';
import { commands } from '../helpers/snapshot-agent';
import { tempDir } from '../helpers/pty';

jest.setTimeout(30000);

function repository(): string {
  const ws = fs.realpathSync(tempDir('milk-exact-'));
  execFileSync('git', ['init', '-q'], { cwd: ws });
  return ws;
}

it('CRLF and UTF-16 files come back byte for byte under text=auto and working-tree-encoding', async () => {
  const ws = repository();
  fs.writeFileSync(path.join(ws, '.gitattributes'), '* text=auto\nwide.txt text working-tree-encoding=UTF-16LE\n');
  const crlf = Buffer.from('one\r\ntwo\r\n');
  const wide = Buffer.from('hello\nwörld\n', 'utf16le');
  fs.writeFileSync(path.join(ws, 'crlf.txt'), crlf);
  fs.writeFileSync(path.join(ws, 'wide.txt'), wide);
  const a = commands(ws, ['rm crlf.txt wide.txt']);
  expect((await a.turn('delete them')).status).toBe('done');
  expect(fs.existsSync(path.join(ws, 'crlf.txt'))).toBe(false);
  const report = await a.files().restore(0);
  expect(report.failed).toEqual([]);
  expect(fs.readFileSync(path.join(ws, 'crlf.txt')).equals(crlf)).toBe(true);
  expect(fs.readFileSync(path.join(ws, 'wide.txt')).equals(wide)).toBe(true);
  expect(a.warnings).toEqual([]);
});

it('a file name that is not UTF-8 is stored like any other: rm -rf src after it is undone', async () => {
  const ws = repository();
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'main.ts'), 'export const x = 1;\n');
  // A name with the byte 0xFF, planted by the first turn's command; the second deletes src/.
  const a = commands(ws, ['printf planted > "$(printf \'bad\\377.txt\')"', 'rm -rf src']);
  expect((await a.turn('plant')).status).toBe('done');
  expect(fs.readdirSync(Buffer.from(ws), { encoding: 'buffer' }).some((n) => n.includes(0xff))).toBe(true);
  expect((await a.turn('delete')).status).toBe('done');
  expect(fs.existsSync(path.join(ws, 'src'))).toBe(false);
  expect(a.warnings.filter((w) => /snapshot/.test(w))).toEqual([]);
  const last = await a.files().lastTurn();
  expect(last).toBe(1);
  const report = await a.files().restore(1);
  expect(report.restored).toEqual([path.join(ws, 'src', 'main.ts')]);
  expect(fs.readFileSync(path.join(ws, 'src', 'main.ts'), 'utf8')).toBe('export const x = 1;\n');
  // The planted file is the first turn's, and stays.
  expect(fs.readdirSync(Buffer.from(ws), { encoding: 'buffer' }).some((n) => n.includes(0xff))).toBe(true);
});

it("never removes what was there before the turn though ignored then: the person's .env and build/ stay", async () => {
  const ws = repository();
  fs.writeFileSync(path.join(ws, '.gitignore'), '.env\nbuild/\n');
  fs.writeFileSync(path.join(ws, '.env'), 'TOKEN=only-copy\n');
  fs.mkdirSync(path.join(ws, 'build'));
  fs.writeFileSync(path.join(ws, 'build', 'out.js'), 'built\n');
  // The command makes them stop being ignored: the turn's end stores them, as if the turn had made them.
  const a = commands(ws, ["printf '' > .gitignore"]);
  expect((await a.turn('unignore')).status).toBe('done');
  const at = (f: string) => path.join(ws, f);
  // The question names what will happen: .gitignore put back, nothing removed.
  expect(await a.files().files(0)).toEqual([at('.gitignore')]);
  const report = await a.files().restore(0);
  expect(report).toEqual({
    restored: [at('.gitignore')],
    removed: [],
    changed: [],
    failed: [],
    kept: [at('.env'), at('build/out.js')],
  });
  expect(fs.readFileSync(at('.env'), 'utf8')).toBe('TOKEN=only-copy\n');
  expect(fs.readFileSync(at('build/out.js'), 'utf8')).toBe('built\n');
  expect(fs.readFileSync(at('.gitignore'), 'utf8')).toBe('.env\nbuild/\n');
});

it('a snapshot whose objects are gone from the store is said to be gone, never a crash', async () => {
  const ws = repository();
  fs.writeFileSync(path.join(ws, 'a.txt'), 'one\n');
  const store = path.join(tempDir(), 'store.git');
  let clock = 0;
  const snaps = new Snapshots({
    workspace: ws,
    store,
    leaveOut: [],
    maxFileBytes: 1024 * 1024,
    warn: () => undefined,
    order: () => clock++,
  });
  const start = await snaps.turnSnapshot(0);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'two\n');
  snaps.turnEnded(0);
  expect(start).toMatch(/^[0-9a-f]{40}$/);
  // Removed from under this milk, as another's clean-up (or a person) could.
  fs.rmSync(path.join(store, 'objects', start!.slice(0, 2), start!.slice(2)));
  await expect(snaps.turnsFrom(0)).rejects.toThrow('that snapshot is gone from the store');
});

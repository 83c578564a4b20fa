// Rewind's copies on a real data dir: files the file tools changed go back
// to what they were before the turn rewound to, a file milk made goes away,
// and a file changed since by something else is reported and left alone.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Checkpoints, sweepCopies } from '../../src/session/checkpoints';
import { RewindFiles } from '../../src/session/rewind-files';
import { editFileTool, writeFileTool } from '../../src/tools/files';
import { tempDir } from '../helpers/pty';

/** A rewind from the copies alone: no turn ran a command, so none took a snapshot. */
const rewind = (ws: string, cp: Checkpoints) =>
  new RewindFiles({ workspace: fs.realpathSync(ws), copies: cp, snapshots: () => null });

describe('rewind copies', () => {
  it('puts back what the turns since changed, and leaves what someone else changed since', async () => {
    const ws = tempDir();
    const cp = new Checkpoints(path.join(tempDir(), 'copies'));
    const hooks = (turn: number) => ({ before: (f: string) => cp.before(f, turn), after: (f: string) => cp.after(f) });
    const at = (f: string) => path.join(fs.realpathSync(ws), f);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a0\n');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b0\n');
    await writeFileTool(ws, 'a.txt', 'a1\n', hooks(0));
    await editFileTool(ws, 'a.txt', [{ old_string: 'a1', new_string: 'a2', replace_all: false }], hooks(1));
    await writeFileTool(ws, 'new.txt', 'made\n', hooks(1));
    await writeFileTool(ws, 'b.txt', 'b1\n', hooks(1));
    // Someone else changes b.txt after milk's write.
    fs.writeFileSync(path.join(ws, 'b.txt'), 'edited by hand\n');
    expect(await rewind(ws, cp).files(1)).toEqual([at('a.txt'), at('b.txt'), at('new.txt')]);

    const report = await rewind(ws, cp).restore(1);
    expect(report).toEqual({ restored: [at('a.txt')], removed: [at('new.txt')], changed: [at('b.txt')], failed: [] });
    expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('a1\n');
    expect(fs.existsSync(path.join(ws, 'new.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8')).toBe('edited by hand\n');
    // Turn 0's copy is still there for a rewind further back.
    expect((await rewind(ws, cp).restore(0)).restored).toEqual([at('a.txt')]);
    expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('a0\n');
  });

  it('never writes or deletes through a folder a later command swapped for a symbolic link', async () => {
    const ws = tempDir();
    const outside = tempDir();
    const cp = new Checkpoints(path.join(tempDir(), 'copies'));
    const hooks = { before: (f: string) => cp.before(f, 1), after: (f: string) => cp.after(f) };
    fs.mkdirSync(path.join(ws, 'sub'));
    fs.writeFileSync(path.join(ws, 'sub', 'kept.txt'), 'before\n');
    await writeFileTool(ws, 'sub/kept.txt', 'milk wrote\n', hooks);
    await writeFileTool(ws, 'sub/made.txt', 'milk made\n', hooks);
    // A command then moves the folder away and links its name to a place outside, holding what milk wrote.
    fs.renameSync(path.join(ws, 'sub'), path.join(ws, 'sub.moved'));
    fs.symlinkSync(outside, path.join(ws, 'sub'));
    fs.writeFileSync(path.join(outside, 'kept.txt'), 'milk wrote\n');
    fs.writeFileSync(path.join(outside, 'made.txt'), 'milk made\n');
    const report = await rewind(ws, cp).restore(1);
    expect(report.restored).toEqual([]);
    expect(report.removed).toEqual([]);
    expect(report.failed).toEqual([
      expect.stringMatching(/kept\.txt \(a folder on its path is a link or a file; not followed\)$/),
      expect.stringMatching(/made\.txt \(a folder on its path is a link or a file; not followed\)$/),
    ]);
    expect(fs.readFileSync(path.join(outside, 'kept.txt'), 'utf8')).toBe('milk wrote\n');
    expect(fs.readFileSync(path.join(outside, 'made.txt'), 'utf8')).toBe('milk made\n');
  });

  it('never writes through a link planted at the name of its temp file', async () => {
    const ws = tempDir();
    const outside = path.join(tempDir(), 'victim.txt');
    fs.writeFileSync(outside, 'victim\n');
    const cp = new Checkpoints(path.join(tempDir(), 'copies'));
    const hooks = { before: (f: string) => cp.before(f, 1), after: (f: string) => cp.after(f) };
    fs.writeFileSync(path.join(ws, 'a.txt'), 'before\n');
    await writeFileTool(ws, 'a.txt', 'after\n', hooks);
    const file = path.join(fs.realpathSync(ws), 'a.txt');
    // The name earlier versions used, and a few guesses at its like.
    for (const name of [`${file}.milk-restore-${process.pid}`, `${file}.milk-restore`]) fs.symlinkSync(outside, name);
    expect((await rewind(ws, cp).restore(1)).restored).toEqual([file]);
    expect(fs.readFileSync(file, 'utf8')).toBe('before\n');
    expect(fs.readFileSync(outside, 'utf8')).toBe('victim\n');
  });

  it("removes what milks no longer running left (killed with -9), never a running one's", async () => {
    const root = tempDir();
    const dead = path.join(root, 's1', '999999991-abc');
    const mine = path.join(root, 's1', `${process.pid}-def`);
    const other = path.join(root, 's2', '4242-ghi');
    for (const d of [dead, mine, other]) {
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, '1-.env'), 'TOKEN=x\n');
    }
    fs.mkdirSync(path.join(root, 's3', '999999992-x'), { recursive: true });
    await sweepCopies(root, (pid) => pid === 4242);
    expect(fs.existsSync(dead)).toBe(false);
    expect(fs.existsSync(mine)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
    expect(fs.readdirSync(root).sort()).toEqual(['s1', 's2']);
  });

  it('keeps no copies without a data dir, and puts nothing back', async () => {
    const ws = tempDir();
    const cp = new Checkpoints(null);
    await writeFileTool(ws, 'x.txt', 'x\n', { before: (f) => cp.before(f, 0), after: (f) => cp.after(f) });
    expect(await rewind(ws, cp).files(0)).toEqual([]);
  });
});

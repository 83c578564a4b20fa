// Rewind's copies on a real data dir: files the file tools changed go back
// to what they were before the turn rewound to, a file milk made goes away,
// and a file changed since by something else is reported and left alone.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Checkpoints } from '../../src/session/checkpoints';
import { editFileTool, writeFileTool } from '../../src/tools/files';
import { tempDir } from '../helpers/pty';

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
    expect(cp.files(1)).toEqual([at('a.txt'), at('b.txt'), at('new.txt')]);

    const report = await cp.restore(1);
    expect(report).toEqual({ restored: [at('a.txt')], removed: [at('new.txt')], changed: [at('b.txt')], failed: [] });
    expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('a1\n');
    expect(fs.existsSync(path.join(ws, 'new.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8')).toBe('edited by hand\n');
    // Turn 0's copy is still there for a rewind further back.
    expect((await cp.restore(0)).restored).toEqual([at('a.txt')]);
    expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('a0\n');
  });

  it('keeps no copies without a data dir, and puts nothing back', async () => {
    const ws = tempDir();
    const cp = new Checkpoints(null);
    await writeFileTool(ws, 'x.txt', 'x\n', { before: (f) => cp.before(f, 0), after: (f) => cp.after(f) });
    expect(cp.files(0)).toEqual([]);
  });
});

// Which files a rewind puts back from the workspace's snapshots: every file a turn from the one chosen on changed,
// back to that turn's start; one changed since by someone else left alone; paths as git's exclude lines.
import {
  TreeEntry,
  changedBetween,
  excludeLine,
  parseLsTree,
  planSnapshotRestore,
} from '../../src/session/snapshot-plan';

const e = (blob: string, mode = '100644'): TreeEntry => ({ mode, blob });
const tree = (o: Record<string, string>) => new Map(Object.entries(o).map(([k, v]) => [k, e(v)]));

describe('snapshot plan', () => {
  it('puts back what turns from the one chosen changed, created or deleted', () => {
    const s0 = tree({ 'a.txt': '1', 'b.txt': '2' });
    const e0 = tree({ 'a.txt': '1x', 'c.txt': '3' });
    const s1 = e0;
    const e1 = tree({ 'a.txt': '1y', 'c.txt': '3' });
    const turns = [
      { seq: 0, start: s0, end: e0 },
      { seq: 1, start: s1, end: e1 },
    ];
    expect(planSnapshotRestore(turns, 0, e1)).toEqual([
      { kind: 'write', file: 'a.txt', entry: e('1') },
      { kind: 'write', file: 'b.txt', entry: e('2') },
      { kind: 'remove', file: 'c.txt' },
    ]);
    // Only the last turn: a.txt back to what turn 1 began with.
    expect(planSnapshotRestore(turns, 1, e1)).toEqual([{ kind: 'write', file: 'a.txt', entry: e('1x') }]);
  });

  it('leaves a file changed since the turns by someone else, and skips one already as it was', () => {
    const s0 = tree({ 'a.txt': '1', 'b.txt': '2' });
    const e0 = tree({ 'a.txt': '1x', 'b.txt': '2x' });
    const now = tree({ 'a.txt': 'person', 'b.txt': '2' });
    expect(planSnapshotRestore([{ seq: 0, start: s0, end: e0 }], 0, now)).toEqual([{ kind: 'changed', file: 'a.txt' }]);
  });

  it('counts a mode change as a change, and takes a running turn as ending now', () => {
    const s0 = new Map([['run.sh', e('x', '100644')]]);
    const now = new Map([['run.sh', e('x', '100755')]]);
    expect(changedBetween(s0, now)).toEqual(['run.sh']);
    expect(planSnapshotRestore([{ seq: 3, start: s0, end: null }], 3, now)).toEqual([
      { kind: 'write', file: 'run.sh', entry: e('x', '100644') },
    ]);
  });

  it('reads ls-tree output and writes exclude lines that match one path exactly', () => {
    const out = '100644 blob abc\ta b.txt\0' + '160000 commit def\tsub\0' + '100755 blob 123\tbin/run\0';
    expect([...parseLsTree(out)]).toEqual([
      ['a b.txt', e('abc')],
      ['bin/run', e('123', '100755')],
    ]);
    expect(excludeLine('big [1].bin')).toBe('/big \\[1\\].bin');
    expect(excludeLine('#notes')).toBe('/\\#notes');
    expect(excludeLine('trail ')).toBe('/trail\\ ');
  });
});

// The workspace's snapshots as data: what differs between two trees, ls-tree's output read, paths as git's exclude
// lines. (What a rewind does with them: restore.test.ts.)
import { TreeEntry, changedBetween, excludeLine, parseLsTree } from '../../src/session/snapshot-plan';

const e = (blob: string, mode = '100644'): TreeEntry => ({ mode, blob });
const tree = (o: Record<string, string>) => new Map(Object.entries(o).map(([k, v]) => [k, e(v)]));

describe('snapshot plan', () => {
  it('counts a mode change as a change, and a file made or removed', () => {
    const s0 = new Map([['run.sh', e('x', '100644')]]);
    const now = new Map([['run.sh', e('x', '100755')]]);
    expect(changedBetween(s0, now)).toEqual(['run.sh']);
    expect(changedBetween(tree({ a: '1', b: '2' }), tree({ b: '2', c: '3' }))).toEqual(['a', 'c']);
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

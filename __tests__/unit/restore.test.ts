// What a rewind puts back, from the two records of what turns changed: the file tools' copies (every turn) and the
// snapshots of the turns that ran a command. Per file, the earliest record since the turn rewound to is what it was;
// a file no longer what milk's last change left is reported, never overwritten.
import { CopyRecord, RewindRecords, TreeTurn, filesBefore, planRewind } from '../../src/session/restore';
import type { TreeEntry } from '../../src/session/snapshot-plan';

const e = (blob: string, mode = '100644'): TreeEntry => ({ mode, blob });
const tree = (o: Record<string, string>) => new Map(Object.entries(o).map(([k, v]) => [k, e(v)]));

function records(o: Partial<RewindRecords> & { seq: number }): RewindRecords {
  return {
    copies: [],
    turns: [],
    now: null,
    abs: (rel) => `/w/${rel}`,
    rel: (file) => (file.startsWith('/w/') ? file.slice(3) : null),
    untouchedSinceCopy: () => true,
    ...o,
  };
}

describe('a rewind with the file tools copies alone (turns that ran no command)', () => {
  const copies: CopyRecord[] = [
    { turn: 0, at: 1, file: '/w/a.txt', copy: '/c/1-a.txt' },
    { turn: 1, at: 2, file: '/w/a.txt', copy: '/c/2-a.txt' },
    { turn: 1, at: 3, file: '/w/new.txt', copy: null },
    { turn: 2, at: 4, file: '/w/b.txt', copy: '/c/3-b.txt' },
  ];

  it('each file changed since goes back to its copy from before its first change since; a file milk made goes away', () => {
    expect(planRewind(records({ seq: 1, copies }))).toEqual([
      { kind: 'copy', file: '/w/a.txt', copy: '/c/2-a.txt' },
      { kind: 'copy', file: '/w/b.txt', copy: '/c/3-b.txt' },
      { kind: 'remove', file: '/w/new.txt' },
    ]);
    expect(planRewind(records({ seq: 0, copies }))[0]).toEqual({ kind: 'copy', file: '/w/a.txt', copy: '/c/1-a.txt' });
    expect(planRewind(records({ seq: 3, copies }))).toEqual([]);
  });

  it("a file changed behind milk's back since its last write is reported, never overwritten", () => {
    const untouchedSinceCopy = (file: string) => file === '/w/a.txt';
    expect(planRewind(records({ seq: 1, copies, untouchedSinceCopy }))).toEqual([
      { kind: 'copy', file: '/w/a.txt', copy: '/c/2-a.txt' },
      { kind: 'changed', file: '/w/b.txt' },
      { kind: 'changed', file: '/w/new.txt' },
    ]);
  });
});

describe('a rewind with the snapshots of turns that ran a command', () => {
  it('puts back what turns from the one chosen changed, created or deleted', () => {
    const s0 = tree({ 'a.txt': '1', 'b.txt': '2' });
    const e0 = tree({ 'a.txt': '1x', 'c.txt': '3' });
    const e1 = tree({ 'a.txt': '1y', 'c.txt': '3' });
    const turns: TreeTurn[] = [
      { seq: 0, at: 1, start: s0, end: e0 },
      { seq: 1, at: 2, start: e0, end: e1 },
    ];
    expect(planRewind(records({ seq: 0, turns, now: e1 }))).toEqual([
      { kind: 'write', file: '/w/a.txt', entry: e('1') },
      { kind: 'write', file: '/w/b.txt', entry: e('2') },
      { kind: 'remove', file: '/w/c.txt' },
    ]);
    expect(planRewind(records({ seq: 1, turns, now: e1 }))).toEqual([
      { kind: 'write', file: '/w/a.txt', entry: e('1x') },
    ]);
  });

  it('leaves a file changed since by someone else, and skips one already as it was', () => {
    const s0 = tree({ 'a.txt': '1', 'b.txt': '2' });
    const e0 = tree({ 'a.txt': '1x', 'b.txt': '2x' });
    const now = tree({ 'a.txt': 'person', 'b.txt': '2' });
    expect(planRewind(records({ seq: 0, turns: [{ seq: 0, at: 1, start: s0, end: e0 }], now }))).toEqual([
      { kind: 'changed', file: '/w/a.txt' },
    ]);
  });

  it('counts a mode change as a change, and takes a turn whose end was not taken as ending now', () => {
    const s0 = new Map([['run.sh', e('x', '100644')]]);
    const now = new Map([['run.sh', e('x', '100755')]]);
    expect(planRewind(records({ seq: 3, turns: [{ seq: 3, at: 1, start: s0, end: null }], now }))).toEqual([
      { kind: 'write', file: '/w/run.sh', entry: e('x', '100644') },
    ]);
  });
});

describe('a rewind over turns of both kinds', () => {
  // Turn 0 edits a.txt with a file tool (no command: no snapshot); turn 1 runs a command that changes a.txt and b.txt.
  const copies: CopyRecord[] = [{ turn: 0, at: 1, file: '/w/a.txt', copy: '/c/1-a.txt' }];
  const s1 = tree({ 'a.txt': 'edited', 'b.txt': 'b' });
  const e1 = tree({ 'a.txt': 'commanded', 'b.txt': 'b2' });
  const turns: TreeTurn[] = [{ seq: 1, at: 2, start: s1, end: e1 }];

  it('back to the edit-only turn: the copy is the older record, the command turn covers the rest', () => {
    expect(planRewind(records({ seq: 0, copies, turns, now: e1 }))).toEqual([
      { kind: 'copy', file: '/w/a.txt', copy: '/c/1-a.txt' },
      { kind: 'write', file: '/w/b.txt', entry: e('b') },
    ]);
  });

  it('back to the command turn alone: what the edit left, from its snapshot', () => {
    expect(planRewind(records({ seq: 1, copies, turns, now: e1 }))).toEqual([
      { kind: 'write', file: '/w/a.txt', entry: e('edited') },
      { kind: 'write', file: '/w/b.txt', entry: e('b') },
    ]);
  });

  it("within one turn, a file tool's copy taken before the first command's snapshot is the older", () => {
    const within: CopyRecord[] = [
      { turn: 5, at: 1, file: '/w/a.txt', copy: '/c/before-all.txt' },
      { turn: 5, at: 3, file: '/w/b.txt', copy: '/c/after-the-command.txt' },
    ];
    const start = tree({ 'a.txt': 'edited', 'b.txt': 'b0' });
    const end = tree({ 'a.txt': 'edited', 'b.txt': 'b2' });
    const steps = planRewind(records({ seq: 5, copies: within, turns: [{ seq: 5, at: 2, start, end }], now: end }));
    expect(steps).toEqual([
      { kind: 'copy', file: '/w/a.txt', copy: '/c/before-all.txt' },
      { kind: 'write', file: '/w/b.txt', entry: e('b0') },
    ]);
  });

  it("a file a later edit-only turn changed last is judged by the file tools' record, not the snapshot's", () => {
    const later: CopyRecord[] = [{ turn: 2, at: 3, file: '/w/b.txt', copy: '/c/2-b.txt' }];
    // b.txt now differs from the command turn's end (the edit changed it): still milk's, so it goes back.
    const now = tree({ 'a.txt': 'commanded', 'b.txt': 'b3' });
    const r = records({ seq: 1, copies: later, turns, now, untouchedSinceCopy: () => true });
    expect(planRewind(r)).toContainEqual({ kind: 'write', file: '/w/b.txt', entry: e('b') });
    const changed = records({ seq: 1, copies: later, turns, now, untouchedSinceCopy: () => false });
    expect(planRewind(changed)).toContainEqual({ kind: 'changed', file: '/w/b.txt' });
  });

  it('says what each file was, for /diff, with its path in the tree', () => {
    const outside: CopyRecord = { turn: 0, at: 0, file: '/elsewhere/x', copy: '/c/x' };
    expect(filesBefore(records({ seq: 0, copies: [...copies, outside], turns, now: e1 }))).toEqual([
      { file: '/elsewhere/x', rel: null, before: { kind: 'copy', copy: '/c/x' }, untouched: true, unchanged: false },
      {
        file: '/w/a.txt',
        rel: 'a.txt',
        before: { kind: 'copy', copy: '/c/1-a.txt' },
        untouched: true,
        unchanged: false,
      },
      { file: '/w/b.txt', rel: 'b.txt', before: { kind: 'entry', entry: e('b') }, untouched: true, unchanged: false },
    ]);
  });
});

describe('what was there but not stored (ignored at the turn start)', () => {
  it('is kept, never removed: a file listed, and every file under a folder listed; the rest as before', () => {
    const s0 = tree({ '.gitignore': 'g' });
    const e0 = tree({ '.gitignore': 'g2', '.env': 'secret', 'build/out.js': 'o', 'made.txt': 'm', 'buildx/y': 'y' });
    const turns: TreeTurn[] = [{ seq: 0, at: 1, start: s0, end: e0, ignored: ['.env', 'build/'] }];
    expect(planRewind(records({ seq: 0, turns, now: e0 }))).toEqual([
      { kind: 'kept', file: '/w/.env' },
      { kind: 'write', file: '/w/.gitignore', entry: e('g') },
      { kind: 'kept', file: '/w/build/out.js' },
      { kind: 'remove', file: '/w/buildx/y' },
      { kind: 'remove', file: '/w/made.txt' },
    ]);
  });
});

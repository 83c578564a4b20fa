// What git's trees cannot hold, kept beside them (session/snapshot-modes.ts): which files are noted, how a snapshot
// sees them, and what a restore may give back.
import { type Giver, ModeBook, type StatLike, plainPerm, settle, withMeta } from '../../src/session/snapshot-modes';
import { type TreeEntry, changedBetween } from '../../src/session/snapshot-plan';

const me = { uid: 1000, gid: 1000 };
const stat = (perm: number, o: Partial<StatLike> = {}): StatLike => ({
  mode: 0o100000 | perm,
  uid: me.uid,
  gid: me.gid,
  ctimeMs: 0,
  isFile: () => true,
  ...o,
});
const p = (s: string) => Buffer.from(s);
const NOW = 1_000_000_000;

it('notes only what a plain restore would get wrong: the mode beyond the umask, another owner', () => {
  const book = new ModeBook(me, 0o022);
  book.note(p('plain.txt'), stat(0o644), NOW);
  book.note(p('run.sh'), stat(0o755), NOW);
  book.note(p('key.pem'), stat(0o600), NOW);
  book.note(p('tool'), stat(0o4750), NOW);
  book.note(p('theirs'), stat(0o644, { uid: 0 }), NOW);
  book.note(p('link'), { ...stat(0o777), isFile: () => false }, NOW);
  expect([...book.freeze().keys()].sort()).toEqual(['key.pem', 'theirs', 'tool']);
  expect(book.freeze().get('tool')).toEqual({ perm: 0o4750, ...me });
});

it('forgets a file made plain or gone, and freezes a new copy only when something changed', () => {
  const book = new ModeBook(me, 0o022);
  book.note(p('key.pem'), stat(0o600), NOW);
  const first = book.freeze();
  book.note(p('key.pem'), stat(0o600), NOW);
  expect(book.freeze()).toBe(first);
  book.note(p('key.pem'), stat(0o644), NOW);
  expect(book.freeze().size).toBe(0);
  expect(first.get('key.pem')?.perm).toBe(0o600);
  book.note(p('x'), stat(0o600), NOW);
  book.note(p('x'), null, NOW);
  expect(book.freeze().size).toBe(0);
});

it("stats again at the next snapshot what was read within the snapshot's second or the one before", () => {
  const book = new ModeBook(me, 0o022);
  book.note(p('old'), stat(0o644, { ctimeMs: NOW - 5000 }), NOW);
  book.note(p('new'), stat(0o644, { ctimeMs: NOW - 10 }), NOW);
  expect(book.recent().map(String)).toEqual(['new']);
  expect(book.recent()).toEqual([]);
});

it('is kept and taken up as JSON, and refuses what is not a book', () => {
  const book = new ModeBook(me, 0o022);
  book.note(p('key.pem'), stat(0o600), NOW);
  const other = new ModeBook(me, 0o022);
  expect(other.takeUp(JSON.parse(JSON.stringify(book)))).toBe(true);
  expect(other.freeze().get('key.pem')?.perm).toBe(0o600);
  expect(other.takeUp({ not: 'a book' })).toBe(false);
  expect(other.takeUp([['a', 'b']])).toBe(false);
});

it('a chmod alone makes two snapshots of the same bytes differ', () => {
  const tree = new Map<string, TreeEntry>([['key.pem', { mode: '100644', blob: 'b1' }]]);
  const before = withMeta(tree, new Map([['key.pem', { perm: 0o600, ...me }]]));
  expect(changedBetween(before, tree)).toEqual(['key.pem']);
  expect(changedBetween(before, withMeta(tree, new Map([['key.pem', { perm: 0o600, ...me }]])))).toEqual([]);
});

describe('settle: what a restore gives back', () => {
  const giver = (o: Partial<Giver> = {}): Giver => ({
    ...me,
    umask: 0o022,
    users: new Set([0, 65534]),
    groups: new Set([0, 65534]),
    ...o,
  });
  const entry = (meta?: TreeEntry['meta'], mode = '100644'): TreeEntry => ({ mode, blob: 'b', meta });

  it('a plain file gets what a new file gets', () => {
    expect(settle(entry(undefined, '100755'), giver())).toEqual({ mode: plainPerm(true, 0o022) });
    expect(settle(entry(), giver({ umask: 0o002 }))).toEqual({ mode: 0o664 });
  });
  it("milk's own file gets its whole mode, setuid included", () => {
    expect(settle(entry({ perm: 0o4750, ...me }), giver())).toEqual({ mode: 0o4750 });
  });
  it('as root, an owner that exists comes back with its bits', () => {
    const g = giver({ uid: 0, gid: 0 });
    expect(settle(entry({ perm: 0o4755, uid: 65534, gid: 65534 }), g)).toEqual({
      mode: 0o4755,
      owner: { uid: 65534, gid: 65534 },
    });
  });
  it('setuid and setgid never come without their owner', () => {
    expect(settle(entry({ perm: 0o6755, uid: 0, gid: 0 }), giver())).toEqual({
      mode: 0o755,
      note: 'setuid and setgid dropped (only root can give its owner back)',
    });
    expect(settle(entry({ perm: 0o2755, uid: 4242, gid: 4242 }), giver({ uid: 0, gid: 0 }))).toEqual({
      mode: 0o755,
      note: 'setgid dropped (its owner no longer exists here)',
    });
    expect(settle(entry({ perm: 0o640, uid: 0, gid: 0 }), giver())).toEqual({ mode: 0o640 });
  });
});

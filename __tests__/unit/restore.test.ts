import { filesSince, planRestore, Snapshot } from '../../src/session/restore';

const snaps: Snapshot[] = [
  { turn: 0, file: '/w/a.txt', copy: '/c/1-a.txt' },
  { turn: 1, file: '/w/a.txt', copy: '/c/2-a.txt' },
  { turn: 1, file: '/w/new.txt', copy: null },
  { turn: 2, file: '/w/b.txt', copy: '/c/3-b.txt' },
];

describe('what a rewind puts back', () => {
  const untouched = () => ({ hash: 'h-milk', lastWritten: 'h-milk' });

  it('each file changed since goes back to its copy from before its first change since; a file milk made goes away', () => {
    expect(planRestore(snaps, 1, untouched)).toEqual([
      { kind: 'restore', file: '/w/a.txt', copy: '/c/2-a.txt' },
      { kind: 'restore', file: '/w/b.txt', copy: '/c/3-b.txt' },
      { kind: 'remove', file: '/w/new.txt' },
    ]);
    expect(planRestore(snaps, 0, untouched)[0]).toEqual({ kind: 'restore', file: '/w/a.txt', copy: '/c/1-a.txt' });
    expect(planRestore(snaps, 3, untouched)).toEqual([]);
  });

  it(
    "a file changed behind milk's back since its last write (or removed, or made again) is reported, never " +
      'overwritten',
    () => {
      const now = (file: string) =>
        file === '/w/b.txt'
          ? { hash: 'h-someone-else', lastWritten: 'h-milk' }
          : file === '/w/new.txt'
            ? { hash: null, lastWritten: 'h-milk' }
            : untouched();
      expect(planRestore(snaps, 1, now)).toEqual([
        { kind: 'restore', file: '/w/a.txt', copy: '/c/2-a.txt' },
        { kind: 'changed', file: '/w/b.txt' },
        { kind: 'changed', file: '/w/new.txt' },
      ]);
    },
  );

  it('names the files for the question', () => {
    expect(filesSince(snaps, 1)).toEqual(['/w/a.txt', '/w/b.txt', '/w/new.txt']);
    expect(filesSince(snaps, 5)).toEqual([]);
  });
});

// A change as hunks (tools/hunks.ts), as git add -p offers them: changes far apart are hunks of their own, near ones
// one hunk; taking some leaves the file with exactly those; the model is told which.
import { diffArrays } from 'diff';
import * as fc from 'fast-check';
import { applyHunks, hunkReport, hunksOf } from '../../src/tools/hunks';

const hunks = (before: string, after: string) => {
  const a = before.split('\n');
  const b = after.split('\n');
  return { a, b, hunks: hunksOf(a, b, diffArrays(a, b)) };
};
const file = (n: number, change: (i: number) => string | null = () => null) =>
  Array.from({ length: n }, (_, i) => change(i + 1) ?? `line ${i + 1}`).join('\n') + '\n';

describe('hunks', () => {
  it('makes far-apart changes hunks of their own, with three lines of context, and shows them', () => {
    const { hunks: hs } = hunks(
      file(24),
      file(24, (i) => ([2, 12, 22].includes(i) ? `LINE ${i}` : null)),
    );
    expect(hs).toHaveLength(3);
    expect(hs[1].text).toBe(
      [
        '@@ -9,7 +9,7 @@',
        ' line 9',
        ' line 10',
        ' line 11',
        '-line 12',
        '+LINE 12',
        ' line 13',
        ' line 14',
        ' line 15',
      ].join('\n'),
    );
    // The final newline is no line: the last hunk's context stops at line 24.
    expect(hs[2].to).toBe(24);
  });

  it('joins changes within six lines into one hunk', () => {
    const { hunks: hs } = hunks(
      file(20),
      file(20, (i) => (i === 5 || i === 11 ? `X${i}` : null)),
    );
    expect(hs).toHaveLength(1);
  });

  it('applies exactly the hunks taken', () => {
    const before = file(24);
    const after = file(24, (i) => ([2, 12, 22].includes(i) ? `LINE ${i}` : null));
    const { a, hunks: hs } = hunks(before, after);
    expect(applyHunks(a, hs, [true, false, true]).join('\n')).toBe(
      file(24, (i) => (i === 2 || i === 22 ? `LINE ${i}` : null)),
    );
    expect(applyHunks(a, hs, [true, true, true]).join('\n')).toBe(after);
    expect(applyHunks(a, hs, [false, false, false]).join('\n')).toBe(before);
  });

  it('handles lines added at the end, removed, and a file without a final newline', () => {
    const cases: Array<[string, string]> = [
      [file(5), file(5) + 'six\nseven\n'],
      [file(10), file(10).replace('line 4\n', '')],
      ['a\nb\nc', 'a\nB\nc\nd'],
    ];
    for (const [before, after] of cases) {
      const { a, hunks: hs } = hunks(before, after);
      expect(
        applyHunks(
          a,
          hs,
          hs.map(() => true),
        ).join('\n'),
      ).toBe(after);
      expect(
        applyHunks(
          a,
          hs,
          hs.map(() => false),
        ).join('\n'),
      ).toBe(before);
    }
  });

  it('taking every hunk gives the new text, taking none the old (property)', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 }).map((l) => l.join('\n'));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const { a, hunks: hs } = hunks(before, after);
        return (
          applyHunks(
            a,
            hs,
            hs.map(() => true),
          ).join('\n') === after &&
          applyHunks(
            a,
            hs,
            hs.map(() => false),
          ).join('\n') === before
        );
      }),
    );
  });

  it('tells the model which were applied and which refused', () => {
    const { hunks: hs } = hunks(
      file(24),
      file(24, (i) => ([2, 12, 22].includes(i) ? `L${i}` : null)),
    );
    expect(hunkReport('three.txt', hs, [true, false, true])).toBe(
      'The person took this change hunk by hunk: of its 3 hunks, three.txt got 1 (old lines 1-5), 3 (old lines ' +
        '19-24); hunk 2 (old lines 9-15) was refused and is not in the file.',
    );
  });
});

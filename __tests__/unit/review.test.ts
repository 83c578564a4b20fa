import {
  atOrAbove,
  findingLines,
  findingsOf,
  MAX_DIFF_CHARS,
  reviewPrompt,
  reviewTarget,
  type Finding,
} from '../../src/agent/review';

describe("a review's target (agent/review.ts)", () => {
  it('reads nothing, BASE.., .., BASE..HEAD and a commit', () => {
    expect(reviewTarget('')).toEqual({ kind: 'uncommitted' });
    expect(reviewTarget('main..')).toEqual({ kind: 'branch', base: 'main', head: 'HEAD' });
    expect(reviewTarget('..')).toEqual({ kind: 'branch', base: null, head: 'HEAD' });
    expect(reviewTarget('origin/main..topic')).toEqual({ kind: 'branch', base: 'origin/main', head: 'topic' });
    expect(reviewTarget('v1.0...HEAD')).toEqual({ kind: 'branch', base: 'v1.0', head: 'HEAD' });
    expect(reviewTarget('HEAD~2')).toEqual({ kind: 'commit', rev: 'HEAD~2' });
    expect(reviewTarget('@{u}..')).toEqual({ kind: 'branch', base: '@{u}', head: 'HEAD' });
  });

  it('refuses what git would take as an option or cannot be a revision', () => {
    expect(reviewTarget('--output=/tmp/x')).toEqual({ problem: 'not a commit: --output=/tmp/x' });
    expect(reviewTarget('-x..')).toMatchObject({ problem: expect.stringContaining('not a range') });
    expect(reviewTarget('a..-b')).toMatchObject({ problem: expect.stringContaining('not a range') });
    expect(reviewTarget('a\u0007b')).toMatchObject({ problem: expect.stringContaining('not a commit') });
    expect(reviewTarget('a..b..c')).toMatchObject({ problem: expect.stringContaining('not a range') });
    expect(reviewTarget('HEAD:secret')).toMatchObject({ problem: expect.stringContaining('not a commit') });
  });
});

describe("a review's prompt", () => {
  it('holds the change, the untracked files and the form of the findings; a huge diff is cut, and said so', () => {
    const p = reviewPrompt('commit abc', '+++ b/x\n+y', ['new.txt']);
    expect(p).toContain('Review commit abc.');
    expect(p).toContain('```diff\n+++ b/x\n+y\n```');
    expect(p).toContain('Files git does not track yet (read them): new.txt');
    expect(p).toContain('"severity": "low" | "medium" | "high"');
    expect(reviewPrompt('x', '+a ```` b')).toContain('`````diff\n+a ```` b\n`````');
    const huge = reviewPrompt('x', 'z'.repeat(MAX_DIFF_CHARS + 10));
    expect(huge).toContain('is cut at 200,000 characters');
    expect(huge.length).toBeLessThan(MAX_DIFF_CHARS + 2000);
  });
});

describe('findings read from an answer', () => {
  const answer = (json: string) => `Looks mostly fine.\n\n\`\`\`json\n${json}\n\`\`\`\nThat is all.`;

  it('takes the last json block, checks each field, sorts by file and line, most severe first', () => {
    const got = findingsOf(
      answer(
        JSON.stringify([
          { file: 'b.ts', line: 3, severity: 'Critical', title: 'crash', body: 'it throws' },
          { file: 'a.ts', line: 9, severity: 'minor', title: 'naming' },
          { file: 'a.ts', line: 9, severity: 'high', title: 'leak', body: 'x' },
          { file: 'a.ts', severity: 'medium', title: 'whole file', line: -4 },
          { file: 'c.ts', line: 1, severity: 'unknown', title: 'dropped' },
          { line: 1, severity: 'low', title: 'no file' },
          'not an object',
        ]),
      ),
    );
    expect(got).toEqual({
      findings: [
        { file: 'a.ts', line: 0, severity: 'medium', title: 'whole file', body: '' },
        { file: 'a.ts', line: 9, severity: 'high', title: 'leak', body: 'x' },
        { file: 'a.ts', line: 9, severity: 'low', title: 'naming', body: '' },
        { file: 'b.ts', line: 3, severity: 'high', title: 'crash', body: 'it throws' },
      ],
      dropped: 3,
      summary: 'Looks mostly fine.\n\n\nThat is all.',
    });
  });

  it('takes a bare JSON answer, or {"findings": [...]}; says so when there is no list', () => {
    expect(findingsOf('[]')).toEqual({ findings: [], dropped: 0, summary: '' });
    expect(findingsOf(answer('{"findings": []}'))).toMatchObject({ findings: [] });
    expect(findingsOf('All good, nothing to report.')).toEqual({
      problem: 'the review has no list of findings (a ```json block) milk could read',
    });
    expect(findingsOf(answer('{"a": 1}'))).toEqual({ problem: "the review's findings are not a JSON list" });
  });

  it('counts those at or above a threshold, and lists them for a person', () => {
    const f: Finding[] = [
      { file: 'a.ts', line: 2, severity: 'high', title: 'crash', body: 'why\nand how' },
      { file: 'b.md', line: 0, severity: 'low', title: 'typo', body: '' },
    ];
    expect(atOrAbove(f, 'medium').map((x) => x.title)).toEqual(['crash']);
    expect(atOrAbove(f, 'low')).toHaveLength(2);
    expect(findingLines(f, 1)).toEqual([
      'review: 2 findings (1 high, 1 low); 1 not well formed, left out',
      'a.ts:2  high  crash',
      '    why',
      '    and how',
      'b.md  low  typo',
    ]);
    expect(findingLines([])).toEqual(['review: no findings']);
  });
});

import {
  GrepCollector,
  MAX_GREP_LINES,
  MAX_LINE_CHARS,
  MAX_LISTED,
  compareNames,
  listing,
} from '../../src/tools/search-results';

const enc = new TextEncoder();
const hits = (path: string, ...spec: Array<[number, boolean]>) => ({
  path,
  lines: spec.map(([n, match]) => ({ n, text: `line ${n}`, match })),
});

describe('grep output', () => {
  it('prints matches as path:n:text and context as path-n-text, with -- between groups and files when there is context', () => {
    const c = new GrepCollector('content', 1);
    c.add(hits('a.ts', [1, false], [2, true], [3, false], [7, false], [8, true]));
    c.add(hits('b.ts', [4, true]));
    expect(c.text()).toBe(
      [
        'a.ts-1-line 1',
        'a.ts:2:line 2',
        'a.ts-3-line 3',
        '--',
        'a.ts-7-line 7',
        'a.ts:8:line 8',
        '--',
        'b.ts:4:line 4',
        '[3 matching lines in 2 files]',
      ].join('\n'),
    );
  });

  it('without context, no separators', () => {
    const c = new GrepCollector('content', 0);
    c.add(hits('a', [1, true], [5, true]));
    c.add(hits('b', [2, true]));
    expect(c.text()).toBe('a:1:line 1\na:5:line 5\nb:2:line 2\n[3 matching lines in 2 files]');
  });

  it('files and count modes list a file once', () => {
    const f = new GrepCollector('files', 0);
    const n = new GrepCollector('count', 0);
    for (const c of [f, n]) {
      c.add(hits('a', [1, true], [2, true]));
      c.add(hits('b', [3, true]));
    }
    expect(f.text()).toBe('a\nb\n[2 files]');
    expect(f.summary()).toBe('2 files');
    expect(n.summary()).toBe('3 matching lines in 2 files');
    expect(n.text()).toBe('a:2\nb:1');
  });

  it('a file without a match adds nothing; nothing at all says so', () => {
    const c = new GrepCollector('content', 2);
    expect(c.add(hits('a', [1, false]))).toBe(true);
    expect(c.text()).toBe('no matches');
  });

  it('stops at its bound, says so, and refuses more', () => {
    const c = new GrepCollector('content', 0);
    const big = hits('a', ...Array.from({ length: MAX_GREP_LINES + 5 }, (_, i): [number, boolean] => [i + 1, true]));
    expect(c.add(big)).toBe(false);
    expect(c.stopped).toBe(true);
    expect(c.add(hits('b', [1, true]))).toBe(false);
    const lines = c.text().split('\n');
    expect(lines).toHaveLength(MAX_GREP_LINES + 1);
    expect(lines[MAX_GREP_LINES]).toMatch(/^\[stopped at 400 lines/);
    expect(c.summary()).toBe('405+ matching lines in 1+ files');
    const files = new GrepCollector('files', 0);
    for (let i = 0; i <= MAX_LISTED; i++) files.add(hits(`f${i}`, [1, true]));
    expect(files.text().split('\n')).toHaveLength(MAX_LISTED + 1);
  });

  it('a long line keeps its head and its length; a CR before the newline is dropped', () => {
    const c = new GrepCollector('content', 0);
    c.add({
      path: 'min.js',
      lines: [
        { n: 1, text: 'x'.repeat(5000), match: true },
        { n: 2, text: 'dos\r', match: true },
      ],
    });
    const [first, second] = c.text().split('\n');
    expect(first).toBe(`min.js:1:${'x'.repeat(MAX_LINE_CHARS)}… [line of 5000 characters]`);
    expect(second).toBe('min.js:2:dos');
  });
});

describe('path order', () => {
  it('is byte order, as ripgrep sorts: a folder named a sorts before a.txt, emoji after fullwidth letters', () => {
    const names = ['a.txt', 'a', '\u{1F600}', '\uFF21', 'B', '.x'];
    expect([...names].sort((x, y) => compareNames(x, y, (s) => enc.encode(s)))).toEqual([
      '.x',
      'B',
      'a',
      'a.txt',
      '\uFF21',
      '\u{1F600}',
    ]);
  });
});

describe('glob listing', () => {
  it('lists paths, capped with a count of the rest', () => {
    expect(listing([])).toBe('no files match');
    const many = Array.from({ length: MAX_LISTED + 2 }, (_, i) => `f${i}`);
    const lines = listing(many).split('\n');
    expect(lines).toHaveLength(MAX_LISTED + 1);
    expect(lines[MAX_LISTED]).toBe(`[2 more of ${MAX_LISTED + 2} not shown; narrow the pattern or path]`);
  });
});

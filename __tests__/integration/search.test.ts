// glob and grep over a real tree, through ripgrep and through milk's own
// walker and worker (MILK_SEARCH=js), which must give the same answer:
// nested .gitignore files with negations, rules from folders above the
// workspace and from .git/info/exclude, hidden files, symbolic links, binary
// and oversized files, names that sort differently by bytes and by UTF-16.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as search from '../../src/tools/search';
import { jsGrep } from '../../src/tools/grep-js';
import { tempDir } from '../helpers/pty';

const globTool = async (...a: Parameters<typeof search.globTool>) => (await search.globTool(...a)).text;
const grepTool = async (...a: Parameters<typeof search.grepTool>) => (await search.grepTool(...a)).text;

function write(root: string, rel: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
}

/** A repository whose workspace is a folder inside it, with every case the rules have. */
function tree(): string {
  const repo = tempDir();
  fs.mkdirSync(path.join(repo, '.git/info'), { recursive: true });
  write(repo, '.git/info/exclude', 'excluded-by-git.txt\n');
  write(repo, '.gitignore', '*.log\nbuild/\n');
  const ws = path.join(repo, 'ws');
  write(ws, '.gitignore', 'secret/\n!keep.log\n*.tmp\n');
  write(ws, 'a.txt', 'alpha needle\nbeta\n');
  write(ws, 'a/b.txt', 'one\ntwo needle\nthree\nfour\nfive\nsix needle\nseven\n');
  write(ws, 'a/.gitignore', 'inner.txt\n');
  write(ws, 'a/inner.txt', 'needle ignored by a/.gitignore\n');
  write(ws, 'a/keep.log', 'needle in a kept log\n');
  write(ws, 'a/drop.log', 'needle in a dropped log\n');
  write(ws, 'build/out.txt', 'needle in build\n');
  write(ws, 'secret/s.txt', 'needle in secret\n');
  write(ws, 'x.tmp', 'needle tmp\n');
  write(ws, 'excluded-by-git.txt', 'needle excluded\n');
  write(ws, '.hidden/h.ts', 'const needle = 1;\n');
  write(ws, '.git-like/g.ts', 'needle\n');
  write(ws, 'src/index.ts', 'export const Needle = 2;\n// needle\n');
  write(ws, 'src/deep/more.ts', 'function needle() {}\n');
  write(ws, 'src/deep/more.js', 'needle();\n');
  write(ws, 'bin.dat', Buffer.from('needle\0binary\n'));
  write(ws, 'big.txt', `${'x'.repeat(9 * 1024 * 1024)}\nneedle\n`);
  write(ws, 'crlf.txt', 'needle one\r\nneedle two\r\n');
  write(ws, 'latin1.txt', Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x20, 0xe9, 0x0a]));
  write(ws, '\u{1F600}.txt', 'needle emoji\n');
  write(ws, '\uFF21.txt', 'needle fullwidth\n');
  write(ws, 'a.b/c.txt', 'needle\n');
  fs.symlinkSync(path.join(ws, 'a.txt'), path.join(ws, 'link.txt'));
  fs.symlinkSync(path.join(ws, 'src'), path.join(ws, 'linkdir'));
  return ws;
}

async function both<T>(run: () => Promise<T>): Promise<{ rg: T; js: T }> {
  delete process.env.MILK_SEARCH;
  const rg = await run();
  process.env.MILK_SEARCH = 'js';
  try {
    return { rg, js: await run() };
  } finally {
    delete process.env.MILK_SEARCH;
  }
}

let ws: string;
beforeAll(() => {
  // The comparison means nothing without ripgrep: CI installs it (.ci/run).
  execFileSync('rg', ['--version']);
  ws = tree();
});

describe('glob', () => {
  test('lists what ripgrep lists, in its order, .gitignore honoured at every level', async () => {
    const { rg, js } = await both(() => globTool(ws, { pattern: '**/*' }));
    expect(js).toBe(rg);
    expect(rg.split('\n')).toEqual([
      '.git-like/g.ts',
      '.gitignore',
      '.hidden/h.ts',
      'a/.gitignore',
      'a/b.txt',
      'a/keep.log',
      'a.b/c.txt',
      'a.txt',
      'big.txt',
      'bin.dat',
      'crlf.txt',
      'latin1.txt',
      'src/deep/more.js',
      'src/deep/more.ts',
      'src/index.ts',
      '\uFF21.txt',
      '\u{1F600}.txt',
    ]);
  });

  test.each([
    ['*.ts', ''],
    ['**/*', 'build'],
    ['**/*', 'secret'],
    ['**/*', 'a'],
    ['src/**/*.ts', ''],
    ['src/*.ts', ''],
    ['*.{js,txt}', ''],
    ['deep/*', ''],
    ['nothing-*', ''],
  ])('pattern %s gives the same files both ways', async (pattern, folder) => {
    const { rg, js } = await both(() => globTool(ws, { pattern, path: folder }));
    expect(js).toBe(rg);
  });

  test('a slashless pattern matches names at any depth; a path narrows to a folder, matched relative to it', async () => {
    expect((await globTool(ws, { pattern: '*.ts' })).split('\n')).toEqual([
      '.git-like/g.ts',
      '.hidden/h.ts',
      'src/deep/more.ts',
      'src/index.ts',
    ]);
    const { rg, js } = await both(() => globTool(ws, { pattern: 'deep/*.ts', path: 'src' }));
    expect(rg).toBe('src/deep/more.ts');
    expect(js).toBe(rg);
  });

  test('outside the workspace, or through a link that leads out, is refused', async () => {
    await expect(globTool(ws, { pattern: '*', path: '..' })).rejects.toThrow(/outside the workspace/);
    fs.symlinkSync('/etc', path.join(ws, 'etc-link'));
    try {
      await expect(globTool(ws, { pattern: '*', path: 'etc-link' })).rejects.toThrow(/leads outside the workspace/);
    } finally {
      fs.rmSync(path.join(ws, 'etc-link'));
    }
  });
});

describe('grep', () => {
  test.each([
    [{ pattern: 'needle' }],
    [{ pattern: 'needle', context: 1 }],
    [{ pattern: 'NEEDLE', ignoreCase: true }],
    [{ pattern: 'needle', glob: '*.ts' }],
    [{ pattern: 'needle', glob: 'src/**/*.js' }],
    [{ pattern: 'needle', path: 'src' }],
    [{ pattern: 'needle', path: 'a/b.txt', context: 2 }],
    [{ pattern: 'needle', path: 'build' }],
    [{ pattern: 'needle', path: 'secret' }],
    [{ pattern: 'needle', path: 'a/inner.txt' }],
    [{ pattern: 'needle', output: 'files' as const }],
    [{ pattern: 'needle', output: 'count' as const }],
    [{ pattern: '^\\s*(export|function)\\b' }],
    [{ pattern: 'no such thing anywhere' }],
  ])('%j gives the same lines both ways', async (args) => {
    const { rg, js } = await both(() => grepTool(ws, args));
    expect(js).toBe(rg);
  });

  test('matches as grep prints them: path:line:text, context as path-line-text, groups apart', async () => {
    expect(await grepTool(ws, { pattern: 'needle', path: 'a/b.txt', context: 1 })).toBe(
      [
        'a/b.txt-1-one',
        'a/b.txt:2:two needle',
        'a/b.txt-3-three',
        '--',
        'a/b.txt-5-five',
        'a/b.txt:6:six needle',
        'a/b.txt-7-seven',
        '[2 matching lines in 1 file]',
      ].join('\n'),
    );
  });

  test('says in a few words what it found, for the transcript', async () => {
    expect((await search.grepTool(ws, { pattern: 'needle', path: 'a/b.txt' })).summary).toBe(
      '2 matching lines in 1 file',
    );
    expect((await search.grepTool(ws, { pattern: 'zzz-none' })).summary).toBe('no matches');
    expect((await search.globTool(ws, { pattern: '*.ts' })).summary).toBe('4 files');
  });

  test('ignored, binary, oversized and linked files are not searched', async () => {
    const { rg, js } = await both(() => grepTool(ws, { pattern: 'needle', output: 'files' }));
    expect(js).toBe(rg);
    for (const out of [
      'inner.txt',
      'drop.log',
      'build/',
      'secret/',
      'x.tmp',
      'excluded-by-git',
      'bin.dat',
      'big.txt',
      'link',
      '.git/',
    ]) {
      expect(rg).not.toContain(out);
    }
    expect(rg).toContain('a/keep.log');
    expect(rg).toContain('.hidden/h.ts');
  });

  test('a bad regular expression is an error the model reads', async () => {
    delete process.env.MILK_SEARCH;
    await expect(grepTool(ws, { pattern: '(' })).rejects.toThrow(/regex parse error|unclosed/i);
    process.env.MILK_SEARCH = 'js';
    try {
      await expect(grepTool(ws, { pattern: '(' })).rejects.toThrow(/Invalid regular expression/);
    } finally {
      delete process.env.MILK_SEARCH;
    }
  });

  test('the output stops at its bound and says how to narrow the search, the same both ways', async () => {
    const many = tempDir();
    for (let i = 0; i < 60; i++) write(many, `f${String(i).padStart(2, '0')}.txt`, 'hit\n'.repeat(10));
    const { rg, js } = await both(() => grepTool(many, { pattern: 'hit' }));
    expect(js).toBe(rg);
    const lines = rg.split('\n');
    expect(lines).toHaveLength(401);
    expect(lines[400]).toMatch(/^\[stopped at 400 lines: more matches not shown; narrow the pattern, path or glob\]$/);
  });

  test(
    "milk's own search runs a runaway pattern in a worker: it is stopped at its time bound, and on abort, and " +
      'the main thread never waits',
    async () => {
      const slow = tempDir();
      write(slow, 'a.txt', `${'a'.repeat(40)}!\n`);
      const pattern = '^(a+)+$';
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      const started = Date.now();
      const timedOut = await jsGrep(
        slow,
        ['a.txt'],
        { pattern, ignoreCase: false, context: 0, want: 'lines' },
        () => true,
        undefined,
        300,
      );
      clearInterval(timer);
      expect(timedOut).toBe(true);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(ticks).toBeGreaterThan(5);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      expect(
        await jsGrep(
          slow,
          ['a.txt'],
          { pattern, ignoreCase: false, context: 0, want: 'lines' },
          () => true,
          controller.signal,
        ),
      ).toBe(false);
    },
  );
});

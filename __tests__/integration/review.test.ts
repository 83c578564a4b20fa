// A review as CI runs it: `milk run --review` as a child process in a real git repository, against the mock server's
// review scenario (it reads the diff's first file, tries a write, then answers findings per file of the diff). The
// exit codes (0 clean, 1 a finding at or above --fail-on, 2 an error), the JSON list, the text list, the ranges
// (uncommitted, BASE.., a commit), and that nothing is written.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../helpers/pty';
import { milkCli, mockRun } from '../helpers/run';
import { git, repoWith } from '../helpers/git';

const { startMockServer } = require('../../scripts/mock-server');

jest.setTimeout(30000);

let mock: {
  url: string;
  requests: Array<{ body: { messages?: Array<{ role: string; content: unknown }> } }>;
  close(): Promise<void>;
};
beforeAll(async () => (mock = await startMockServer()));
afterAll(() => mock.close());

/** A repository on main with one commit: app.js, notes.md. */
const repo = (): string => repoWith({ 'app.js': 'const a = 1;\n', 'notes.md': '# notes\n' });

const review = (ws: string, ...flags: string[]) =>
  milkCli([...mockRun(mock.url, 'review'), '--review', ...flags], { cwd: ws });

type Finding = { file: string; line: number; severity: string; title: string; body: string };

describe('milk run --review', () => {
  it("lists the uncommitted changes' findings as JSON, exit 1 at --fail-on medium with a high one", async () => {
    const ws = repo();
    fs.writeFileSync(path.join(ws, 'bug.js'), 'line one\nlet x = eval(input);\n');
    git(ws, 'add', 'bug.js');
    fs.writeFileSync(path.join(ws, 'notes.md'), '# notes\nmore words\n');
    fs.writeFileSync(path.join(ws, 'untracked.txt'), 'new\n');
    const ran = await review(ws, '--json', '--fail-on', 'medium');
    expect(JSON.stringify(mock.requests.at(-1)?.body.messages)).toContain(
      'Files git does not track yet (read them): untracked.txt',
    );
    expect(ran.err).toBe('');
    expect(ran.code).toBe(1);
    const findings = JSON.parse(ran.out) as Finding[];
    expect(findings).toEqual([
      { file: 'bug.js', line: 1, severity: 'high', title: 'problem in bug.js', body: 'the change reads: line one' },
      {
        file: 'notes.md',
        line: 1,
        severity: 'low',
        title: 'problem in notes.md',
        body: 'the change reads: more words',
      },
    ]);
    // Only reads: the write the model tried was refused, whatever the mode.
    expect(fs.existsSync(path.join(ws, 'pwned.txt'))).toBe(false);
  });

  it('exits 0 when no finding is at or above the threshold, and prints a list a person reads', async () => {
    const ws = repo();
    fs.writeFileSync(path.join(ws, 'notes.md'), '# notes\nmore\n');
    const ran = await review(ws, '--fail-on', 'medium');
    expect(ran.code).toBe(0);
    expect(ran.out).toContain('Reviewed 1 files. the write was refused.');
    expect(ran.out).toContain(
      'review: 1 finding (1 low)\nnotes.md:1  low  problem in notes.md\n    the change reads: more',
    );
    const low = await review(ws, '--fail-on', 'low');
    expect(low.code).toBe(1);
  });

  it('reviews a branch against its base (BASE.., and .. for main), and one commit', async () => {
    const ws = repo();
    git(ws, 'checkout', '-q', '-b', 'topic');
    fs.writeFileSync(path.join(ws, 'smell.js'), 'var y = 2;\n');
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'smell');
    for (const range of ['main..', '..']) {
      const ran = await review(ws, range, '--json', '--fail-on', 'medium');
      expect(ran.code).toBe(1);
      expect((JSON.parse(ran.out) as Finding[]).map((f) => [f.file, f.severity])).toEqual([['smell.js', 'medium']]);
    }
    const prompt = JSON.stringify(mock.requests.at(-1)?.body.messages);
    expect(prompt).toContain('this branch against main (from their merge base');
    const commit = await review(ws, 'HEAD~0', '--json');
    expect(commit.code).toBe(0);
    expect((JSON.parse(commit.out) as Finding[])[0].file).toBe('smell.js');
  });

  it("runs none of the repository's own code: fsmonitor, an external diff, textconv, gpg", async () => {
    const ws = repo();
    const marker = path.join(ws, 'evil-ran');
    fs.writeFileSync(path.join(ws, 'evil.sh'), `#!/bin/sh\ntouch ${marker}\ncat\n`, { mode: 0o755 });
    for (const [key, value] of [
      ['core.fsmonitor', './evil.sh'],
      ['diff.external', './evil.sh'],
      ['diff.evil.textconv', './evil.sh'],
      ['log.showSignature', 'true'],
      ['gpg.program', './evil.sh'],
    ])
      git(ws, 'config', key, value);
    fs.writeFileSync(path.join(ws, '.gitattributes'), '* diff=evil\n');
    fs.writeFileSync(path.join(ws, 'app.js'), 'const a = 2;\n');
    const ran = await review(ws, '--json');
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.out).map((f: Finding) => f.file)).toContain('app.js');
    const commit = await review(ws, 'HEAD', '--json');
    expect(commit.code).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('exits 2, saying why, outside a repository, with nothing to review, or a bad range or threshold', async () => {
    const outside = await review(tempDir(), '--json');
    expect(outside.code).toBe(2);
    expect(outside.err).toBe('milk: not a git repository: a review compares with git\n');
    const clean = await review(repo());
    expect(clean.code).toBe(2);
    expect(clean.err).toContain('nothing to review: no uncommitted changes');
    const bad = await review(repo(), 'a b..');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('not a range: a b..');
    const noCommit = await review(repo(), 'nosuch');
    expect(noCommit.err).toContain('no commit nosuch here');
    const threshold = await review(repo(), '--fail-on', 'severe');
    expect(threshold.code).toBe(2);
    expect(threshold.err).toContain('--fail-on severe: give low, medium or high');
  });
});

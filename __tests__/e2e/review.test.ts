// /review as a person meets it in a real terminal, against the mock server's review scenario: a two-file change in a
// real git repository reviewed with tools that only read (the write the model tries is refused, even in full-auto),
// its findings listed by file and line with their severity once the turn ends.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';
import { git, repoWith } from '../helpers/git';

jest.setTimeout(40000);

const mock = useMockServer();

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

it('/review lists the findings of a two-file change by file and line, and writes nothing', async () => {
  const ws = repoWith({ 'bug.js': 'const a = 1;\n' });
  fs.writeFileSync(path.join(ws, 'bug.js'), 'const a = 1;\nconst b = eval(input);\n');
  fs.writeFileSync(path.join(ws, 'smell.js'), 'var c = 3;\n');
  git(ws, 'add', 'smell.js');
  const args = ['--provider', 'openai', '--base-url', `${mock.current.url}/v1`, '--model', 'review'];
  m = new MilkPty({ args: [...args, '--approval', 'full-auto'], cols: 120, rows: 40, cwd: ws });
  await m.waitForText('history: session');
  // Full-auto: a review still only reads.
  m.write('/review' + KEY.enter);
  await m.waitForText('review: 2 findings (1 high, 1 medium)');
  const text = m.text();
  expect(text).toContain('bug.js:1  high  problem in bug.js');
  expect(text).toContain('the change reads: const b = eval(input);');
  expect(text).toContain('smell.js:1  medium  problem in smell.js');
  expect(text).toContain('the write was refused.');
  expect(fs.existsSync(path.join(ws, 'pwned.txt'))).toBe(false);
  // What the person typed is what the transcript shows, not the prompt with the diff.
  expect(text).toContain('› /review');
  expect(text).not.toContain('```diff');
});

it('/review outside a repository says so', async () => {
  const args = ['--provider', 'openai', '--base-url', `${mock.current.url}/v1`, '--model', 'review'];
  m = new MilkPty({ args, cols: 120, rows: 30, cwd: tempDir() });
  await m.waitForText('history: session');
  m.write('/review main..' + KEY.enter);
  await m.waitForText('not a git repository: a review compares with git');
});

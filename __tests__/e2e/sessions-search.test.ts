// Every conversation searchable: `milk sessions search` finds a word said in another workspace's conversation (its
// answer, with the workspace, the conversation and a line of context), newest first; --here keeps to this workspace;
// in the full screen, /search lists the matches and Enter opens one of this workspace's at the match, the
// transcript search lit on it.
import * as fs from 'node:fs';
import { KEY, tempDir, usePty } from '../helpers/pty';
import { milkCli, mockRun } from '../helpers/run';
import { useMockServer } from '../helpers/mock';

jest.setTimeout(40000);

const server = useMockServer();
const pty = usePty();

it('milk sessions search finds a word in an answer of another workspace, and --here does not', async () => {
  const data = tempDir();
  const there = fs.realpathSync(tempDir('milk-there-'));
  const here = fs.realpathSync(tempDir('milk-here-'));
  const run = (cwd: string, prompt: string) =>
    milkCli(['--data-dir', data, ...mockRun(server.current.url, 'echo'), prompt], { cwd });
  expect((await run(there, 'the heron test is flaky')).code).toBe(0);
  expect((await run(here, 'something else')).code).toBe(0);
  const found = await milkCli(['--data-dir', data, 'sessions', 'search', 'heron'], { cwd: here });
  expect(found.code).toBe(0);
  const lines = found.out.trim().split('\n');
  // The answer (the echo says it back) and the input, each with its workspace and a line of context.
  expect(lines.some((l) => l.includes(there) && /answer: echo: the heron test is flaky/.test(l))).toBe(true);
  expect(lines.some((l) => l.includes(there) && /input: the heron test is flaky/.test(l))).toBe(true);
  expect(lines[lines.length - 1]).toMatch(/^2 matches;/);
  const mine = await milkCli(['--data-dir', data, 'sessions', 'search', '--here', 'heron'], { cwd: here });
  expect(mine.code).toBe(1);
  expect(mine.out).toContain('no conversation holds "heron"');
  // Smart case: an upper-case letter asks for the case exactly.
  expect((await milkCli(['--data-dir', data, 'sessions', 'search', 'Heron'], { cwd: here })).code).toBe(1);
});

it('dates each match by when it was said: a conversation gone on with later keeps its old answers in their place', async () => {
  const data = tempDir();
  const older = fs.realpathSync(tempDir('milk-older-'));
  const newer = fs.realpathSync(tempDir('milk-newer-'));
  const run = (cwd: string, ...args: string[]) =>
    milkCli(['--data-dir', data, ...mockRun(server.current.url, 'echo'), ...args], { cwd });
  expect((await run(older, 'the heron came first')).code).toBe(0);
  expect((await run(newer, 'the heron came second')).code).toBe(0);
  // The first conversation goes on: its log changes last, but its heron was said first.
  expect((await run(older, '--continue', 'something unrelated')).code).toBe(0);
  const found = await milkCli(['--data-dir', data, 'sessions', 'search', 'heron'], { cwd: newer });
  expect(found.code).toBe(0);
  const said = found.out
    .trim()
    .split('\n')
    .filter((l) => l.includes('heron came'))
    .map((l) => /(input|answer): (?:echo: )?the heron came (\w+)/.exec(l)?.slice(1).join(' '));
  expect(said).toEqual(['answer second', 'input second', 'answer first', 'input first']);
});

it("/search lists the matches; Enter opens this workspace's conversation at the match, the search lit on it", async () => {
  const data = tempDir();
  const ws = fs.realpathSync(tempDir('milk-search-'));
  const m = pty.start({ args: ['--data-dir', data], cwd: ws });
  const p = m;
  await p.waitForText('history: session');
  p.write('tell me about the kingfisher' + KEY.enter);
  await p.waitForText(/--model NAME\.\s*$/m);
  await p.waitFor(() => !p.statusLine().includes('working'), 'idle');
  p.write('/new' + KEY.enter);
  await p.waitFor(() => !p.text().includes('kingfisher'), 'a new conversation');
  p.write('/search kingfisher' + KEY.enter);
  await p.waitForText('"kingfisher" in every conversation');
  await p.waitForText(/answer: .*kingf/);
  p.write(KEY.enter);
  await p.waitFor(() => /find: kingfisher \[1\/\d\]/.test(p.statusLine()), 'the transcript search at the match');
  expect(p.text()).toContain('tell me about the kingfisher');
});

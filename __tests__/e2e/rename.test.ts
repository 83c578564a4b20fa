// /rename as a person meets it in a real terminal: a conversation named, the name in the title and in
// milk sessions show --list, and --resume NAME bringing it back in a new milk.
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { milkCli } from '../helpers/run';

jest.setTimeout(40000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

it('names a conversation, which --resume NAME brings back', async () => {
  const data = tempDir();
  const ws = tempDir();
  m = new MilkPty({ args: ['--data-dir', data], cwd: ws, cols: 120 });
  await m.waitForText('history: session');
  m.write('the first words' + KEY.enter);
  await m.waitForText('(offline demo, turn 1)');
  await m.waitFor(() => !m!.statusLine().includes('working'), 'the turn ended');
  m.write('/rename release notes' + KEY.enter);
  await m.waitForText('this conversation is "release notes" now');
  await m.waitFor(() => m!.raw.includes('\x1b]2;milk · '), 'a title');
  expect(m.raw).toMatch(/\x1b\]2;milk · [^\x1b]* · release notes\x1b\\/);
  m.write('/exit' + KEY.enter);
  await m.exited;
  const sessions = await milkCli(['--data-dir', data, 'sessions', 'list', '--json'], { cwd: ws });
  const id = (JSON.parse(sessions.out.split('\n')[0]) as { id: string }).id;
  expect(JSON.parse(sessions.out.split('\n')[0])).toMatchObject({ names: ['release notes'] });
  const table = await milkCli(['--data-dir', data, 'sessions', 'list'], { cwd: ws });
  expect(table.out).toMatch(/inputs {2}\S+ {2}"release notes"\n/);
  const listed = await milkCli(['--data-dir', data, 'sessions', 'show', id, '--list'], { cwd: ws });
  expect(listed.out).toMatch(/1 input +release notes · the first words/);
  m = new MilkPty({ args: ['--data-dir', data, '--resume', 'release notes'], cwd: ws, cols: 120 });
  await m.waitForText('the first words');
  expect(m.text()).toContain('(offline demo, turn 1)');
  const unknown = await milkCli(['--data-dir', data, 'run', '--resume', 'no such name', 'hi'], { cwd: ws });
  expect(unknown.code).not.toBe(0);
});

// A status line of your own, as a person meets it in a real terminal: config.json's command shows its first line in
// the status bar (made inert: a title or colour sequence it prints never reaches the terminal) and runs again after a
// mode change; a failing one is said once; a project's (.milk/settings.json) waits until the workspace is trusted,
// and what it lists shows the command.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';

jest.setTimeout(40000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

const SHIFT_TAB = '\x1b[Z';

/** A command that says the mode it was told, behind a window-title sequence and colours. */
const SAYS_MODE =
  'read -r s; m=$(printf "%s" "$s" | sed -n \'s/.*"mode":"\\([a-z-]*\\)".*/\\1/p\'); ' +
  'printf \'\\033]0;pwned\\007mine: \\033[31m%s\\033[0m\\nnot shown\\n\' "$m"';

it("config.json's command shows its first line, inert, and runs again when the mode changes", async () => {
  const data = tempDir();
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ statusLine: { command: SAYS_MODE } }));
  m = new MilkPty({ args: ['--data-dir', data], cols: 120 });
  await m.waitFor(() => m!.statusLine().includes('mine: ask'), 'the status line');
  expect(m.text()).not.toContain('not shown');
  expect(m.raw).not.toContain(']0;pwned');
  m.write(SHIFT_TAB);
  await m.waitFor(() => m!.statusLine().includes('mine: auto-edit'), 'the line after the mode changed');
});

it('a failing command is said once, however often it runs', async () => {
  const data = tempDir();
  const ws = tempDir();
  const command = 'echo ran >> runs.txt; exit 7';
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ statusLine: { command } }));
  m = new MilkPty({ args: ['--data-dir', data], cwd: ws, cols: 140 });
  await m.waitForText('failed (exit 7); its last line is kept');
  m.write('hello' + KEY.enter);
  await m.waitForText('(offline demo, turn 1)');
  m.write('again' + KEY.enter);
  await m.waitForText('(offline demo, turn 2)');
  const runs = (): number =>
    fs.existsSync(path.join(ws, 'runs.txt'))
      ? fs.readFileSync(path.join(ws, 'runs.txt'), 'utf8').split('\n').length - 1
      : 0;
  await m.waitFor(() => runs() >= 3, 'a run after each turn');
  expect(m.text().match(/failed \(exit 7\)/g)).toHaveLength(1);
});

it('a slow command is stopped after 2 s and said once; the bar goes on', async () => {
  const data = tempDir();
  const ws = tempDir();
  const command = 'echo ran >> runs.txt; sleep 10; echo late';
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ statusLine: { command } }));
  m = new MilkPty({ args: ['--data-dir', data], cwd: ws, cols: 140 });
  await m.waitForText('history: session');
  await m.waitForText('failed (timed out after 2 s); its last line is kept', 8000);
  m.write('hello' + KEY.enter);
  await m.waitForText('(offline demo, turn 1)');
  const runs = (): number =>
    fs.existsSync(path.join(ws, 'runs.txt'))
      ? fs.readFileSync(path.join(ws, 'runs.txt'), 'utf8').split('\n').length - 1
      : 0;
  await m.waitFor(() => runs() >= 2, 'a second run after the turn');
  // Nothing to wait for but its 2 s: past them the second run was stopped, and not said again.
  const seen = Date.now();
  await m.waitFor(() => Date.now() - seen > 2600, 'the second run stopped');
  expect(m.text().match(/timed out after 2 s/g)).toHaveLength(1);
  expect(m.statusLine()).not.toMatch(/ late /);
});

it("a project's status line waits until the workspace is trusted", async () => {
  const data = tempDir();
  const ws = fs.realpathSync(tempDir());
  fs.mkdirSync(path.join(ws, '.milk'));
  fs.writeFileSync(path.join(ws, 'status.sh'), '#!/bin/sh\ntouch ran.txt\necho project line\n', { mode: 0o755 });
  fs.writeFileSync(path.join(ws, '.milk', 'settings.json'), JSON.stringify({ statusLine: { command: './status.sh' } }));
  m = new MilkPty({ args: ['--data-dir', data], cwd: ws, cols: 120 });
  await m.waitForText("Trust this workspace's .milk/settings.json?");
  expect(m.text()).toContain('status line: ./status.sh');
  expect(fs.existsSync(path.join(ws, 'ran.txt'))).toBe(false);
  await m.waitFor(() => m!.statusLine().includes('answer · Esc'), 'armed');
  m.write('1');
  await m.waitFor(() => m!.statusLine().includes('project line'), 'the project line');
  expect(fs.existsSync(path.join(ws, 'ran.txt'))).toBe(true);
});

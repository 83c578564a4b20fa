// A plugin as a person meets it in a real terminal, against the mock server: installed with milk plugin add, /plugins
// lists it (on here, its commands, agents, skills, what it turns on), /kit:hello runs its command with the arguments.
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';
import { milkCli } from '../helpers/run';
import { writePlugin } from '../helpers/plugin';

jest.setTimeout(40000);

const mock = useMockServer();

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

it('/plugins lists an installed plugin; /plugin:command runs its command with the arguments', async () => {
  const home = tempDir();
  const ws = tempDir();
  const added = await milkCli(['plugin', 'add', '--yes', writePlugin(tempDir())], { cwd: ws, env: { HOME: home } });
  expect(added.out).toContain('installed kit');
  const args = ['--provider', 'openai', '--base-url', `${mock.current.url}/v1`, '--model', 'echo'];
  m = new MilkPty({ args, cols: 140, rows: 40, env: { HOME: home }, cwd: ws });
  await m.waitForText('history: session');
  m.write('/plugins' + KEY.enter);
  await m.waitForText(/kit 1\.0\.0 \(on\) from \/tmp/);
  expect(m.text()).toContain('commands: /kit:hello');
  expect(m.text()).toContain('agents: reviewer');
  expect(m.text()).toContain('skills: tidy');
  expect(m.text()).toContain(`hook before_tool (shell): ${path.join(home, '.milk', 'plugins', 'kit')}/hooks/block.sh`);
  // The slash menu offers it with its argument-hint.
  m.write('/kit:');
  await m.waitForText(/\/kit:hello \[who\]/);
  m.write('hello the team' + KEY.enter);
  await m.waitForText('echo: say hello to the team');
});

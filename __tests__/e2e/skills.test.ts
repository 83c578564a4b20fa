// Agent Skills as a person meets them in a real terminal, against the mock server: /skills lists them (and what was
// left out, with file:line), /NAME runs one with the rest of the line as its input, /context counts the catalog.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';

jest.setTimeout(40000);

const mock = useMockServer();

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

function skill(root: string, name: string, front: string): void {
  fs.mkdirSync(path.join(root, name), { recursive: true });
  fs.writeFileSync(path.join(root, name, 'SKILL.md'), `---\n${front}\n---\nStep one: read the form.\n`);
}

it('/skills lists them and what was left out; /NAME runs one with its input; /context counts the catalog', async () => {
  const data = tempDir();
  const home = tempDir();
  skill(path.join(data, 'skills'), 'pdf-forms', 'name: pdf-forms\ndescription: Fill in PDF forms.');
  skill(path.join(home, '.agents', 'skills'), 'bad', 'name: Bad\ndescription: x');
  // One named as a built-in command: run by /skill:NAME, never in the built-in's place.
  skill(path.join(home, '.agents', 'skills'), 'status', 'name: status\ndescription: The team status report.');
  const args = ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.current.url}/v1`, '--model', 'echo'];
  m = new MilkPty({ args, cols: 140, rows: 40, env: { HOME: home } });
  await m.waitForText('history: session');
  m.write('/skills' + KEY.enter);
  await m.waitForText(/pdf-forms: Fill in PDF forms\. · the data dir's skills · \d+ B · the model or \/pdf-forms/);
  expect(m.text()).toMatch(/status: The team status report\. · ~\/\.agents\/skills · \d+ B · the model or \/status/);
  expect(m.text()).toContain(`left out: ${path.join(home, '.agents', 'skills', 'bad', 'SKILL.md')}:2: name must be`);
  m.write('/pdf-forms fill form.pdf' + KEY.enter);
  await m.waitForText('echo: Use the skill "pdf-forms" for this: fill form.pdf');
  await m.waitFor(() => !m!.statusLine().includes('working'), 'idle');
  m.write('/skill:status' + KEY.enter);
  await m.waitForText('echo: Use the skill "status" for this: (nothing more was said)');
  await m.waitFor(() => !m!.statusLine().includes('working'), 'idle');
  m.write('/context' + KEY.enter);
  await m.waitForText(/^\s+skills\s+\d+$/m);
});

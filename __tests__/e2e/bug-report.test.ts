// /bug as a person meets it: a report written into the data dir with the build, the machine and the last turn's
// shape, and what was typed and answered only after it is shown and the person says yes.
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

function reports(data: string): string[] {
  const dir = path.join(data, 'reports');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .sort()
        .map((f) => path.join(dir, f))
    : [];
}

it('writes a report without the conversation unless the person says yes after seeing it', async () => {
  const data = tempDir();
  m = new MilkPty({
    args: ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.current.url}/v1`, '--model', 'echo'],
    cols: 120,
  });
  await m.waitForText('history: session');
  m.write('the plan is zebra-42' + KEY.enter);
  await m.waitForText('echo: the plan is zebra-42');
  await m.waitFor(() => !m!.statusLine().includes('working'), 'the turn ended');

  m.write('/bug' + KEY.enter);
  await m.waitForText('put your input and the model');
  expect(m.text()).toContain('the last turn, as the report would hold it');
  m.write('n');
  await m.waitForText(/bug report written to .*without your input/);
  const [first] = reports(data);
  const without = fs.readFileSync(first, 'utf8');
  expect(fs.statSync(first).mode & 0o777).toBe(0o600);
  expect(without).toMatch(/^- version: \d+\.\d+\.\d+ \(commit /m);
  expect(without).toContain(`- platform: ${process.platform}`);
  expect(without).toMatch(/- events: user, (usage, )?delta( ×\d+)?, assistant/);
  expect(without).toContain('## milk doctor');
  expect(without).toMatch(/first words/);
  expect(without).not.toContain('zebra-42');

  m.write('/bug' + KEY.enter);
  await m.waitFor(() => m!.statusLine().includes('put your input'), 'the question again');
  m.write('y');
  await m.waitForText(/bug report written to .*with your input/);
  const withText = fs.readFileSync(reports(data)[1], 'utf8');
  expect(withText).toContain('the plan is zebra-42');
  expect(withText).toContain('echo: the plan is zebra-42');
});

it('writes at once when the conversation has had no input, and /bug yes alone answers nothing', async () => {
  const data = tempDir();
  m = new MilkPty({ args: ['--data-dir', data], cols: 120 });
  await m.waitForText('history: session');
  m.write('/bug yes' + KEY.enter);
  await m.waitForText('nothing to write: /bug first');
  m.write('/bug' + KEY.enter);
  await m.waitForText(/bug report written to /);
  expect(fs.readFileSync(reports(data)[0], 'utf8')).toContain('none: this conversation has had no input');
});

// The conversation left in the terminal's scrollback after quitting, as a person finds it once milk's full screen
// is gone: inputs, answers and tool calls as lines, no borders or status bar, then the way back to it.
import * as fs from 'node:fs';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';

jest.setTimeout(30000);

const server = useMockServer();
let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

const openai = (model: string) => ['--provider', 'openai', '--base-url', `${server.current.url}/v1`, '--model', model];

async function conversation(data: string): Promise<MilkPty> {
  m = new MilkPty({ args: ['--data-dir', data, ...openai('tools'), '--approval', 'full-auto'], cwd: tempDir() });
  await m.waitForText('history: session');
  m.write('run the tool' + KEY.enter);
  await m.waitForText('the command ran.');
  await m.waitFor(() => !m!.statusLine().includes('working'), 'idle');
  m.write(KEY.ctrlD);
  await m.exited;
  // The emulator parses what came last after the process is gone: the way back is the last of it.
  await m.waitForText('milk: to come back to this conversation');
  return m;
}

it('after Ctrl-D the normal screen holds the conversation: the input, the call as a line, the answer; no borders', async () => {
  const p = await conversation(tempDir());
  const text = p.text();
  expect(text).toContain('› run the tool');
  expect(text).toMatch(/^Ran echo hello-from-tool · exit 0/m);
  expect(text).toContain('let me look.');
  expect(text).toContain('the command ran.');
  // The tool's output stays in the log, not in the scrollback; nothing of the full screen's frame.
  expect(text).not.toMatch(/[┌└│]/);
  expect(text).not.toMatch(/^hello-from-tool$/m);
  expect(text).not.toContain('history: session');
  // The way back comes after it.
  expect(text.indexOf('the command ran.')).toBeLessThan(text.indexOf('milk: to come back to this conversation'));
});

it('exitTranscript none leaves only the way back', async () => {
  const data = tempDir();
  fs.writeFileSync(`${data}/config.json`, JSON.stringify({ exitTranscript: 'none' }));
  const text = (await conversation(data)).text();
  expect(text).not.toContain('the command ran.');
  expect(text).toContain('milk: to come back to this conversation');
});

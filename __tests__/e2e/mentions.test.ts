// @-mentions as a person uses them: @ opens the picker over the composer, the
// query narrows it, Tab puts a chip in, and the request carries the file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';

jest.setTimeout(30000);

const server = useMockServer();
let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

function workspace(): string {
  const ws = tempDir('milk-mention-ws-');
  fs.mkdirSync(path.join(ws, 'src', 'tui'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'main.ts'), 'export const answer = 42;\n');
  fs.writeFileSync(path.join(ws, 'src', 'tui', 'main-view.ts'), 'view\n');
  fs.writeFileSync(path.join(ws, 'README.md'), '# hi\n');
  return ws;
}

it("@src/ma then Tab inserts a chip; the request carries the file's content with its path and line count", async () => {
  const mock = server.current;
  const ws = workspace();
  const data = tempDir();
  m = new MilkPty({
    cwd: ws,
    args: ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'echo'],
  });
  await m.waitForText('history: session');
  m.write('explain @');
  // The top level before a query: folders first.
  await m.waitFor(
    () => /@ · \d+ paths/.test(m!.text()) && m!.text().includes('› src/'),
    'the picker with the top level',
  );
  m.write('src/ma');
  await m.waitFor(() => m!.text().includes('› src/main.ts'), 'src/main.ts first');
  expect(m.statusLine()).toContain('Tab/Enter: insert');
  m.write('\t');
  await m.waitFor(
    () => m!.composerLines().join('') === 'explain @src/main.ts' && !m!.text().includes(' paths'),
    'the chip, the picker gone',
  );
  m.write('briefly');
  await m.waitFor(() => m!.composerLines().join('') === 'explain @src/main.ts briefly', 'typed after the chip');
  m.write(KEY.enter);
  await m.waitFor(() => mock.requests.length === 1, 'sent');
  const msgs = mock.requests[0].body.messages;
  const sent = String(msgs[msgs.length - 1].content);
  expect(sent).toBe(
    'explain @src/main.ts briefly\n\n<file path="src/main.ts" lines="1">\n1\texport const answer = 42;\n</file>',
  );
  await m.waitForText('attached @src/main.ts (1 line)');
  // The transcript shows the input as typed (the echo model's answer quotes what it was sent).
  expect(m.text()).toContain('› explain @src/main.ts briefly');
  // History keeps the mention as a file segment, and Up brings the chip back.
  await m.waitFor(() => !m!.statusLine().includes('working'), 'idle');
  const history = fs.readFileSync(path.join(data, 'input_history'), 'utf8');
  expect(history).toContain('{"type":"file","text":"src/main.ts"}');
  m.write(KEY.up);
  await m.waitFor(() => m!.composerLines().join('') === 'explain @src/main.ts briefly', 'recalled with its chip');
});

it('Esc leaves the @query as typed and closes the list', async () => {
  const mock = server.current;
  const ws = workspace();
  m = new MilkPty({
    cwd: ws,
    args: ['--data-dir', tempDir(), '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'echo'],
  });
  await m.waitForText('history: session');
  m.write('@READ');
  await m.waitFor(() => m!.text().includes('› README.md'), 'README found');
  m.write(KEY.esc);
  await m.waitFor(
    () => !m!.text().includes('› README.md') && m!.composerLines().join('') === '@READ',
    'closed, as typed',
  );
  expect(m.statusLine()).toContain('history: session');
});

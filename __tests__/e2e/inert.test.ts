// One door to the screen: text a model, a tool or an MCP server sent reaches
// the terminal only through the sanitizer, live or brought back. A log whose
// tool output and error hold escape sequences is resumed, and an MCP server
// whose tool description holds them is listed: the words show, the sequences
// neither act nor leave remains.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, ROOT, tempDir } from '../helpers/pty';
import { sessionIdForWorkspace } from '../../src/config/paths';

jest.setTimeout(40000);

const open: MilkPty[] = [];
afterEach(() => {
  for (const p of open.splice(0)) p.kill('SIGKILL');
});

async function start(data: string, cwd: string, args: string[] = []): Promise<MilkPty> {
  const p = new MilkPty({ args: ['--data-dir', data, ...args], cwd, cols: 120 });
  open.push(p);
  await p.waitForText('history: session');
  return p;
}

async function send(p: MilkPty, text: string): Promise<void> {
  p.write(text);
  await p.waitFor(() => p.composerLines().join('') === text, 'typed');
  p.write(KEY.enter);
}

/**
 * What a hostile model or tool could put in text: a title change, a clipboard write, a screen clear (milk clears its
 * own screen too: only its remains are looked for).
 */
const TITLE = '\x1b]0;pwned-title\x07';
const CLIPBOARD = '\x1b]52;c;ZXZpbA==\x07';
const CLEAR = '\x1b[2J';

it("a resumed log's tool output and error show their words and nothing of their escape sequences", async () => {
  const data = tempDir();
  const cwd = tempDir();
  let p = await start(data, cwd);
  await send(p, 'hello');
  await p.waitFor(() => !p.statusLine().includes('working') && p.text().includes('--model NAME.'), 'the answer');
  p.write('\x04');
  await p.exited;
  const dir = path.join(data, 'sessions', sessionIdForWorkspace(cwd));
  const log = path.join(
    dir,
    fs.readdirSync(dir).find((f) => f.endsWith('.jsonl'))!,
  );
  const conv = JSON.parse(fs.readFileSync(log, 'utf8').split('\n')[0]).conv as string;
  const ts = new Date().toISOString();
  const call = { id: 'c1', name: 'shell', args: { command: `echo ${TITLE}hi` } };
  const events = [
    { t: 'user', conv, ts, segments: [{ type: 'text', text: 'run it' }] },
    { t: 'assistant', conv, msg: 9, toolCalls: [call] },
    { t: 'tool', conv, callId: 'c1', name: 'shell', content: `tool-before ${CLIPBOARD}${CLEAR}tool-after` },
    { t: 'error', conv, ts, message: `error-before ${TITLE}${CLIPBOARD}error-after` },
  ];
  fs.appendFileSync(log, events.map((e) => JSON.stringify(e) + '\n').join(''));

  p = await start(data, cwd, ['--continue']);
  await p.waitForText('error-after');
  const screen = p.text();
  expect(screen).toContain('tool-before tool-after');
  expect(screen).toContain('error-before error-after');
  // The call's command shows every character that could hide something, named, as it does before approval.
  expect(screen).toContain('$ Ran echo ^[]0;pwned-title^Ghi');
  for (const remains of ['52;c', 'ZXZpbA']) expect(screen).not.toContain(remains);
  // None of them reached the terminal as a sequence.
  for (const sequence of [TITLE, CLIPBOARD, 'ZXZpbA']) expect(p.raw).not.toContain(sequence);
});

it("an MCP server's tool description is listed inert", async () => {
  const data = tempDir();
  const cmd = {
    command: process.execPath,
    args: [path.join(ROOT, 'scripts', 'mock-mcp-server.js')],
    env: { MOCK_MCP_MODE: 'escapes' },
  };
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ mcpServers: { demo: cmd } }));
  const p = await start(data, tempDir());
  await p.waitFor(() => p.statusLine().includes('mcp 1/1'), 'the server ready');
  await send(p, '/mcp');
  await p.waitForText(/demo__echo \(says read-only\): Echo the text back/);
  for (const remains of ['52;c', 'ZXZpbA', 'pwned-title']) expect(p.text()).not.toContain(remains);
  for (const sequence of [TITLE, CLIPBOARD, 'pwned-title', 'ZXZpbA']) expect(p.raw).not.toContain(sequence);
});

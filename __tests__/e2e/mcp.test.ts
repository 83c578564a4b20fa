// MCP servers in a pseudo-terminal: /mcp shows a ready and a failed server,
// the status bar counts the ready ones, and a tool call from the model asks
// in ask mode and runs unasked in full-auto; nothing outlives milk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, ROOT, tempDir } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';

jest.setTimeout(30000);

const server = useMockServer();
let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

function dataDir(): string {
  const data = tempDir();
  const cmd = { command: process.execPath, args: [path.join(ROOT, 'scripts', 'mock-mcp-server.js')] };
  fs.writeFileSync(
    path.join(data, 'config.json'),
    JSON.stringify({
      mcpServers: { demo: cmd, broken: { ...cmd, env: { MOCK_MCP_MODE: 'fail-start', SECRET_TOKEN: 'hunter2-mcp' } } },
    }),
  );
  return data;
}

const open = async (data: string, approval: string, model = 'mcp', extra: string[] = []): Promise<MilkPty> => {
  m = new MilkPty({
    args: [
      '--data-dir',
      data,
      '--provider',
      'openai',
      '--base-url',
      `${server.current.url}/v1`,
      '--model',
      model,
      '--approval',
      approval,
      ...extra,
    ],
    cols: 120,
  });
  await m.waitForText('history: session');
  await m.waitFor(() => m!.statusLine().includes('mcp 1/2'), 'one of two servers ready');
  return m;
};

it('/mcp lists a ready server with its tools and a failed one with its reason, never its env', async () => {
  const p = await open(dataDir(), 'ask');
  // The failing server may still be starting at the first /mcp: asked again until it has failed.
  for (let tries = 0; tries < 20 && !/broken: failed/.test(p.text()); tries++) {
    p.write('/clear');
    await p.waitFor(() => p.composerLines().join('') === '/clear', 'typed');
    p.write(KEY.enter);
    await p.waitFor(() => p.composerLines().join('') === '', 'cleared');
    p.write('/mcp');
    await p.waitFor(() => p.composerLines().join('') === '/mcp', 'typed');
    p.write(KEY.enter);
    await p.waitForText(/broken: (starting|failed)/);
  }
  await p.waitForText(/demo: ready · 7 tools/);
  expect(p.text()).toMatch(/\/demo:review FILE FOCUS \(prompt\): Review a file/);
  expect(p.text()).toMatch(/demo__echo \(says read-only\): Echo the text back/);
  expect(p.text()).toMatch(/broken: failed \(/);
  expect(p.raw).not.toContain('hunter2-mcp');
});

it('an MCP tool call asks in ask mode, showing its arguments, and runs unasked in full-auto', async () => {
  let p = await open(dataDir(), 'ask');
  p.write('use the server');
  await p.waitFor(() => p.composerLines().join('') === 'use the server', 'typed');
  p.write(KEY.enter);
  await p.waitFor(
    () => /demo__note: \{"text":"from the model"\}/.test(p.text()) && p.statusLine().includes('y yes · n no'),
    'the question, with the arguments',
  );
  p.write('y');
  await p.waitForText('the server said: noted: from the model');
  // The server's answer is shown in the call's block, apart from the model's answer quoting it.
  expect(p.lines().some((l) => /^\s+noted: from the model\s*$/.test(l))).toBe(true);
  p.kill('SIGKILL');
  p = await open(dataDir(), 'full-auto');
  p.write('use the server');
  await p.waitFor(() => p.composerLines().join('') === 'use the server', 'typed');
  p.write(KEY.enter);
  await p.waitForText('the server said: noted: from the model');
});

it('stops every server process when milk quits, one that ignores SIGTERM too', async () => {
  const data = tempDir();
  const marker = `milk-test-marker-${path.basename(data)}`;
  const cmd = (mode: string) => ({
    command: process.execPath,
    args: [path.join(ROOT, 'scripts', 'mock-mcp-server.js'), marker],
    env: { MOCK_MCP_MODE: mode },
  });
  fs.writeFileSync(
    path.join(data, 'config.json'),
    JSON.stringify({ mcpServers: { one: cmd(''), stubborn: cmd('ignore-term') } }),
  );
  m = new MilkPty({ args: ['--data-dir', data] });
  await m.waitFor(() => m!.statusLine().includes('mcp 2/2'), 'both ready');
  // The processes whose command line holds the marker, read from /proc (no pgrep needed).
  const pids = () =>
    fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker);
        } catch {
          return false;
        }
      });
  expect(pids()).toHaveLength(2);
  m.write(KEY.ctrlD);
  await m.exited;
  await m.waitFor(() => pids().length === 0, 'no server process left', 5000);
});

it("an MCP prompt is a slash command: /demo:review with its arguments sends the server's prompt", async () => {
  const p = await open(dataDir(), 'ask');
  p.write('/demo:review src/cart.ts error paths');
  await p.waitFor(() => p.composerLines().join('') === '/demo:review src/cart.ts error paths', 'typed');
  p.write(KEY.enter);
  await p.waitFor(
    () =>
      server.current.requests.some((r) =>
        JSON.stringify(r.body.messages).includes('Review src/cart.ts, looking at error paths.'),
      ),
    'the prompt sent',
  );
  await p.waitForText('› /demo:review src/cart.ts error paths');
});

it('@server:resource in an input attaches the resource: the model gets its contents, the transcript a note', async () => {
  const data = dataDir();
  const p = await open(data, 'ask', 'echo', ['--session', 'resources']);
  p.write('what does @demo:notes say?' + KEY.enter);
  await p.waitForText('attached @demo:notes (32 characters)');
  await p.waitForText(/echo: /);
  const sent = server.current.requests[server.current.requests.length - 1].body as {
    messages: Array<{ content: unknown }>;
  };
  const last = JSON.stringify(sent.messages[sent.messages.length - 1].content);
  expect(last).toContain('what does @demo:notes say?');
  expect(last).toContain('<resource server=\\"demo\\" uri=\\"memo://notes\\">');
  expect(last).toContain('the notes say: release on friday');
  // The transcript shows what was typed, not the resource.
  expect(p.text()).toContain('› what does @demo:notes say?');
  // The log keeps what the model got: a resumed conversation sends the resource's text again.
  p.write(KEY.ctrlD);
  await p.exited;
  const again = await open(data, 'ask', 'echo', ['--session', 'resources', '-c']);
  again.write('and now?' + KEY.enter);
  await again.waitForText(/echo: and now\?/);
  const resumed = server.current.requests[server.current.requests.length - 1].body as {
    messages: Array<{ role: string; content: unknown }>;
  };
  const earlier = resumed.messages.filter((msg) => msg.role === 'user').map((msg) => JSON.stringify(msg.content));
  expect(earlier[0]).toContain('what does @demo:notes say?');
  expect(earlier[0]).toContain('the notes say: release on friday');
});

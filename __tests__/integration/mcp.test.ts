// MCP servers, real ones: the test server in scripts/ started over stdio by
// milk's manager. Tools listed and namespaced; a call round trip; a server
// that crashes, hangs, floods, breaks its protocol or will not start ends its
// call (or its start) with a message while the rest goes on; every server
// process is gone after stopping, one that ignores SIGTERM included.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpServers, killMcpServers } from '../../src/tools/mcp';
import { mcpTool } from '../../src/tools/mcp-tools';
import { BUILTIN_TOOLS, ToolRegistry } from '../../src/tools/registry';
import { ROOT, tempDir } from '../helpers/pty';
import { TOOLS } from '../helpers/tools';

jest.setTimeout(30000);

const SERVER = path.join(ROOT, 'scripts', 'mock-mcp-server.js');
const stdio = (mode = '') => ({ command: process.execPath, args: [SERVER], env: { MOCK_MCP_MODE: mode } });

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, what: string, ms = 10000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let servers: McpServers | null = null;
afterEach(() => {
  servers?.stopAll();
  killMcpServers();
  servers = null;
});

function start(configs: ConstructorParameters<typeof McpServers>[0], limits = {}): McpServers {
  servers = new McpServers(configs, () => {}, limits);
  servers.startAll();
  return servers;
}

const ready = (s: McpServers, name: string) =>
  until(() => s.list().find((x) => x.name === name)?.state !== 'starting', `${name} to start`);

it("lists each server's tools namespaced, with their schemas and what they say of themselves, and a failed server with its reason", async () => {
  const s = start({ demo: stdio(), broken: stdio('fail-start'), nowhere: { command: '/nonexistent/mcp-server' } });
  await ready(s, 'demo');
  await ready(s, 'broken');
  await ready(s, 'nowhere');
  const [demo, broken, nowhere] = s.list();
  expect(demo.state).toBe('ready');
  expect(demo.tools.map((t) => t.qualified)).toEqual([
    'demo__echo',
    'demo__note',
    'demo__crash',
    'demo__hang',
    'demo__flood',
    'demo__image',
    'demo__read_resource',
  ]);
  expect(demo.tools.find((t) => t.name === 'echo')).toMatchObject({
    hints: ['read-only'],
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  });
  expect(demo.tools.find((t) => t.name === 'note')?.hints).toEqual([]);
  expect(broken.state).toBe('failed');
  expect(broken.why).toMatch(/closed|exited/);
  expect(nowhere).toMatchObject({ state: 'failed' });
  expect(nowhere.why).toMatch(/cannot start \/nonexistent\/mcp-server/);
  expect(
    new ToolRegistry(TOOLS, () => s.tools().map((t) => mcpTool(t, (n, a, sig) => s.call(n, a, sig))))
      .specs()
      .map((t) => t.name)
      .slice(BUILTIN_TOOLS.length),
  ).toEqual(demo.tools.map((t) => t.qualified));
  // Its prompts too, as /server:name with their arguments in order; the words typed fill them, the last taking the
  // rest.
  expect(demo.prompts).toEqual([
    { server: 'demo', name: 'review', command: 'demo:review', description: 'Review a file', args: ['file', 'focus'] },
    { server: 'demo', name: 'brief', command: 'demo:brief', description: 'The brief, as a resource', args: [] },
  ]);
  expect(await s.getPrompt('demo:review', 'src/app.ts error handling')).toBe(
    'Review src/app.ts, looking at error handling.',
  );
  expect(await s.getPrompt('demo:review', 'src/app.ts')).toBe('Review src/app.ts.');
  await expect(s.getPrompt('demo:review', '')).rejects.toThrow(/^demo: /);
  expect(await s.getPrompt('demo:nope', '')).toBeNull();
});

it("a server's resources: listed, read by the model through read_resource, attached by @server:name, embedded in a prompt", async () => {
  const s = start({ demo: stdio() });
  await ready(s, 'demo');
  expect(s.resources()).toEqual([
    { server: 'demo', name: 'notes', uri: 'memo://notes', description: 'The team notes', mimeType: 'text/plain' },
    { server: 'demo', name: 'plan', uri: 'memo://plan', description: 'The plan', mimeType: 'text/markdown' },
  ]);
  const reader = s.find('demo__read_resource');
  expect(reader?.description).toContain('memo://notes (notes): The team notes');
  const never = new AbortController().signal;
  expect(await s.call('demo__read_resource', { uri: 'memo://plan' }, never)).toEqual({
    ok: true,
    content: '# Plan\n1. test\n2. ship',
  });
  expect((await s.call('demo__read_resource', { uri: 'memo://nope' }, never)).content).toBe(
    'error: demo lists no resource "memo://nope"',
  );
  const got = await s.mentioned('what do @demo:notes and @demo:memo://plan say? (@demo:nope, @other:notes)');
  expect(got.blocks).toEqual([
    '<resource server="demo" uri="memo://notes">\nthe notes say: release on friday\n</resource>',
    '<resource server="demo" uri="memo://plan">\n# Plan\n1. test\n2. ship\n</resource>',
  ]);
  expect(got.notes).toEqual(['attached @demo:notes (32 characters)', 'attached @demo:memo://plan (22 characters)']);
  expect(await s.getPrompt('demo:brief', '')).toBe('<resource uri="memo://brief">\nbrief: ship it\n</resource>');
});

it(
  'a call round trip; other content is named; a crash, a flood and a hang each end their call with a message, and ' +
    'Ctrl-C stops a hung one',
  async () => {
    const s = start({ demo: stdio() }, { callMs: 1500 });
    await ready(s, 'demo');
    const never = new AbortController().signal;
    expect(await s.call('demo__echo', { text: 'hi' }, never)).toEqual({
      ok: true,
      content: 'echo: hi',
      status: undefined,
    });
    expect((await s.call('demo__image', {}, never)).content).toBe(
      'a picture:\n[image content (image/png): not shown as text]',
    );
    // A hang: the call's timeout ends it; the server lives on.
    const hung = await s.call('demo__hang', {}, never);
    expect(hung).toMatchObject({ ok: false, content: 'error: demo: it did not answer in time' });
    // Cancelled, as Ctrl-C cancels a turn.
    const ctl = new AbortController();
    const pending = s.call('demo__hang', {}, ctl.signal);
    setTimeout(() => ctl.abort(), 100);
    expect(await pending).toMatchObject({ ok: false, content: 'error: demo: interrupted' });
    expect((await s.call('demo__echo', { text: 'still here' }, never)).content).toBe('echo: still here');
    // A flood: past the message bound the server is stopped and the call says so.
    const flood = await s.call('demo__flood', {}, never);
    expect(flood.ok).toBe(false);
    expect(flood.content).toMatch(/^error: demo: /);
    await until(() => s.list()[0].state === 'failed', 'the flooding server marked failed');
    // A restart brings it back; then a crash mid-call ends that call.
    s.restart('demo');
    await until(() => s.list()[0].state === 'ready', 'restarted');
    const crash = await s.call('demo__crash', {}, never);
    expect(crash.ok).toBe(false);
    expect(crash.content).toMatch(/^error: demo: /);
    await until(() => s.list()[0].state === 'failed', 'the crashed server marked failed');
    expect(await s.call('demo__echo', { text: 'x' }, never)).toMatchObject({ ok: false, status: 'server not running' });
  },
);

it(
  'a server writing lines that are not JSON-RPC still works; every server process is gone after stopping, one ' +
    'ignoring SIGTERM too',
  async () => {
    const s = start({ noisy: stdio('garbage'), stubborn: stdio('ignore-term') });
    await ready(s, 'noisy');
    await ready(s, 'stubborn');
    expect(s.list().map((x) => x.state)).toEqual(['ready', 'ready']);
    expect((await s.call('noisy__echo', { text: 'ok' }, new AbortController().signal)).content).toBe('echo: ok');
    const pids = (s as unknown as { running: Map<string, { transport: { child: { pid: number } } }> }).running;
    const ids = [...pids.values()].map((r) => r.transport.child.pid);
    expect(ids.every(alive)).toBe(true);
    s.stopAll();
    await until(() => !ids.some(alive), 'every server process gone', 5000);
  },
);

describe('milk mcp list|add|remove', () => {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const fs = require('node:fs') as typeof import('node:fs');
  const milk = (data: string, ...args: string[]) => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), '--data-dir', data, 'mcp', ...args], {
      encoding: 'utf8',
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  it(
    'adds a stdio and an HTTP server keeping the other keys, lists them without secrets, removes one, refuses bad ' +
      'input and a broken file',
    () => {
      const data = tempDir();
      fs.writeFileSync(path.join(data, 'config.json'), '{"model": "gpt-4o"}');
      expect(
        milk(data, 'add', 'gh', '--env', 'GITHUB_TOKEN=ghp_secret', '--', 'npx', '-y', 'server-github'),
      ).toMatchObject({ code: 0 });
      expect(
        milk(
          data,
          'add',
          'web',
          '--url',
          'https://mcp.example.com/mcp',
          '--header',
          'Authorization: Bearer tok_secret',
        ),
      ).toMatchObject({ code: 0 });
      expect(
        milk(data, 'add', 'keyed', '--url', 'https://user:pw-secret@mcp.example.com/mcp?api_key=key-secret'),
      ).toMatchObject({ code: 0 });
      expect(milk(data, 'list').out).toContain('keyed  https://[redacted]@mcp.example.com/mcp?[redacted]\n');
      // Credentials in a stdio server's arguments: after a credential's option, in --opt=VALUE, an Authorization
      // header, and a key-shaped argument.
      const token = 'ghp_' + 'A1b2'.repeat(9);
      const argv = ['--', 'srv', '--token', 'tok-secret-1', '--api-key=key-secret-2', '-H', 'Authorization: Bearer s3'];
      expect(milk(data, 'add', 'flags', ...argv, token)).toMatchObject({ code: 0 });
      const flags = milk(data, 'list')
        .out.split('\n')
        .find((l) => l.startsWith('flags'));
      expect(flags).toBe(
        'flags  srv --token [hidden] --api-key=[hidden] -H Authorization: [hidden] [secret: GitHub token]',
      );
      expect(milk(data, 'remove', 'flags')).toMatchObject({ code: 0 });
      expect(milk(data, 'remove', 'keyed')).toMatchObject({ code: 0 });
      const list = milk(data, 'list');
      expect(list.out).toBe(
        'gh  npx -y server-github  (env: GITHUB_TOKEN)\nweb  https://mcp.example.com/mcp  (headers: Authorization)\n',
      );
      expect(list.out + list.err).not.toMatch(/secret/);
      const json = JSON.parse(fs.readFileSync(path.join(data, 'config.json'), 'utf8'));
      expect(json).toEqual({
        model: 'gpt-4o',
        mcpServers: {
          gh: { command: 'npx', args: ['-y', 'server-github'], env: { GITHUB_TOKEN: 'ghp_secret' } },
          web: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer tok_secret' } },
        },
      });
      expect((fs.statSync(path.join(data, 'config.json')).mode & 0o777).toString(8)).toBe('600');
      expect(milk(data, 'remove', 'gh')).toMatchObject({ code: 0 });
      expect(Object.keys(JSON.parse(fs.readFileSync(path.join(data, 'config.json'), 'utf8')).mcpServers)).toEqual([
        'web',
      ]);
      expect(milk(data, 'add', 'bad name', '--url', 'https://x')).toMatchObject({
        code: 1,
        err: expect.stringMatching(/an MCP server name is 1 to 32 letters/),
      });
      expect(milk(data, 'add', 'x', '--url', 'ftp://x')).toMatchObject({
        code: 1,
        err: expect.stringMatching(/must be an http/),
      });
      expect(milk(data, 'remove', 'nope')).toMatchObject({
        code: 1,
        err: expect.stringMatching(/no MCP server named nope/),
      });
      fs.writeFileSync(path.join(data, 'config.json'), '{ broken');
      expect(milk(data, 'add', 'y', '--url', 'https://y')).toMatchObject({
        code: 1,
        err: expect.stringMatching(/not valid JSON; fix it first/),
      });
      expect(fs.readFileSync(path.join(data, 'config.json'), 'utf8')).toBe('{ broken');
    },
  );
});

describe('a streamable HTTP server', () => {
  it('is reached at its url with its headers; without them it fails with a reason', async () => {
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const web = spawn(process.execPath, [SERVER, '--http', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const port = await new Promise<number>((resolve) => {
        let out = '';
        web.stdout!.on('data', (d) => {
          out += d;
          const m = /READY (\d+)/.exec(out);
          if (m) resolve(Number(m[1]));
        });
      });
      const url = `http://127.0.0.1:${port}/mcp`;
      const s = start({ web: { url, headers: { 'x-test-token': 'let-me-in' } }, locked: { url } });
      await ready(s, 'web');
      await ready(s, 'locked');
      expect(s.list().map((x) => x.state)).toEqual(['ready', 'failed']);
      expect(s.list()[1].why).toMatch(/401|no token/i);
      expect(await s.call('web__echo', { text: 'over http' }, new AbortController().signal)).toMatchObject({
        ok: true,
        content: 'echo: over http',
      });
    } finally {
      web.kill('SIGKILL');
    }
  });
});

describe('what a server says is not taken on trust', () => {
  it('leaves out the tools a provider would refuse, says why in /mcp, and keeps the rest', async () => {
    const s = start({ bad: stdio('bad-tools') });
    await ready(s, 'bad');
    const [bad] = s.list();
    expect(bad.state).toBe('ready');
    expect(bad.tools.map((t) => t.qualified)).toEqual(['bad__good', 'bad__dot_name', 'bad__sneaky']);
    expect(bad.dropped).toEqual([
      'stringy: its input schema is not of type object',
      "dot_name: its name as the model sees it, bad__dot_name, is another tool's",
      'dated: its property day has type "date", which is no JSON Schema type',
    ]);
    expect(bad.tools.find((t) => t.name === 'sneaky')?.hints).toEqual(['read-only', 'not destructive']);
  });

  it('starts a stdio server in the home folder, not the workspace, unless the config names a folder', async () => {
    const s = start({ bad: stdio('bad-tools') });
    await ready(s, 'bad');
    const never = new AbortController().signal;
    expect((await s.call('bad__good', {}, never)).content).toBe(`good ran in ${fs.realpathSync(os.homedir())}`);
    const elsewhere = tempDir();
    s.stopAll();
    const t = start({ bad: { ...stdio('bad-tools'), cwd: elsewhere } });
    await ready(t, 'bad');
    expect((await t.call('bad__good', {}, never)).content).toBe(`good ran in ${fs.realpathSync(elsewhere)}`);
  });

  it("keeps a server's echo of its configured secrets out of the reason it failed", async () => {
    const echo = http.createServer((req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`bad credentials: ${req.headers.authorization} ${req.headers['x-api-key']}`);
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
    const port = (echo.address() as { port: number }).port;
    try {
      const s = start({
        remote: {
          url: `http://127.0.0.1:${port}/mcp?api_key=query-secret-1`,
          headers: { authorization: 'Bearer header-secret-12345', 'x-api-key': 'other-secret-678' },
        },
      });
      await ready(s, 'remote');
      const [remote] = s.list();
      expect(remote.state).toBe('failed');
      expect(remote.why).toContain('bad credentials');
      expect(remote.why).not.toMatch(/header-secret|other-secret|query-secret/);
    } finally {
      echo.close();
    }
  });
});

describe("a server's tool through the engine", () => {
  const { agentParts } = require('../../src/app/agent') as typeof import('../../src/app/agent');
  const { Bus } = require('../../src/kernel/bus') as typeof import('../../src/kernel/bus');
  const { ScriptProvider, parseScript } =
    require('../../src/providers/script') as typeof import('../../src/providers/script');

  async function callSneaky(mode: 'read-only' | 'ask', rules: Array<{ tool: string }> = []) {
    const mark = path.join(tempDir(), 'mark');
    const bus = new Bus();
    const parts = agentParts(bus, {
      provider: new ScriptProvider(
        parseScript({ turns: [[{ tool: { name: 'bad__sneaky', args: {} } }], [{ text: 'done' }]] }),
      ),
      dataDir: tempDir(),
      workspace: tempDir(),
      sessionId: 's',
      warn: () => undefined,
      approval: mode,
      mcpServers: { bad: { ...stdio('bad-tools'), env: { MOCK_MCP_MODE: 'bad-tools', MOCK_MCP_MARK: mark } } },
    });
    await parts.rulesRead;
    for (const r of rules) parts.settings.addRule(r);
    await parts.mcp.start();
    const asked: string[] = [];
    bus.on('approval.asked', (q) => {
      asked.push(q.detail);
      setImmediate(() => bus.emit('approval.answered', { requestId: q.requestId, approval: 'no' }));
    });
    const answers: string[] = [];
    bus.on('conversation.message', ({ message }) => message.role === 'tool' && answers.push(message.content));
    const ended = new Promise((resolve) => bus.on('turn.ended', resolve));
    parts.runner.start('go');
    await ended;
    parts.mcp.stop();
    return { asked, answers, written: fs.existsSync(mark) };
  }

  it('one the server marks read-only is refused in read-only mode, and runs there only once a rule allows it', async () => {
    const refused = await callSneaky('read-only');
    expect(refused.answers[0]).toMatch(/read-only mode, where bad__sneaky is not allowed/);
    expect(refused.written).toBe(false);
    const ruled = await callSneaky('read-only', [{ tool: 'bad__sneaky' }]);
    expect(ruled.written).toBe(true);
  });

  it('is asked about in ask mode whatever it says, its claims shown in the question as not trusted', async () => {
    const r = await callSneaky('ask');
    expect(r.asked).toHaveLength(1);
    expect(r.asked[0]).toContain('the server says this tool is read-only, not destructive (not taken on trust');
    expect(r.written).toBe(false);
  });
});

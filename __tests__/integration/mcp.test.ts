// MCP servers, real ones: the test server in scripts/ started over stdio by
// milk's manager. Tools listed and namespaced; a call round trip; a server
// that crashes, hangs, floods, breaks its protocol or will not start ends its
// call (or its start) with a message while the rest goes on; every server
// process is gone after stopping, one that ignores SIGTERM included.
import * as path from 'node:path';
import { McpServers, killMcpServers } from '../../src/tools/mcp';
import { mcpTool } from '../../src/tools/mcp-tools';
import { BUILTIN_TOOLS, ToolRegistry } from '../../src/tools/registry';
import { ROOT, tempDir } from '../helpers/pty';

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
  servers = new McpServers(configs, tempDir('milk-mcp-ws-'), () => {}, limits);
  servers.startAll();
  return servers;
}

const ready = (s: McpServers, name: string) =>
  until(() => s.list().find((x) => x.name === name)?.state !== 'starting', `${name} to start`);

it("lists each server's tools namespaced, with their schemas and read-only marks, and a failed server with its reason", async () => {
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
  ]);
  expect(demo.tools.find((t) => t.name === 'echo')).toMatchObject({
    readOnly: true,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  });
  expect(demo.tools.find((t) => t.name === 'note')?.readOnly).toBe(false);
  expect(broken.state).toBe('failed');
  expect(broken.why).toMatch(/closed|exited/);
  expect(nowhere).toMatchObject({ state: 'failed' });
  expect(nowhere.why).toMatch(/cannot start \/nonexistent\/mcp-server/);
  expect(
    new ToolRegistry(() => s.tools().map((t) => mcpTool(t, (n, a, sig) => s.call(n, a, sig))))
      .specs()
      .map((t) => t.name)
      .slice(BUILTIN_TOOLS.length),
  ).toEqual(demo.tools.map((t) => t.qualified));
  // Its prompts too, as /server:name with their arguments in order; the words typed fill them, the last taking the
  // rest.
  expect(demo.prompts).toEqual([
    { server: 'demo', name: 'review', command: 'demo:review', description: 'Review a file', args: ['file', 'focus'] },
  ]);
  expect(await s.getPrompt('demo:review', 'src/app.ts error handling')).toBe(
    'Review src/app.ts, looking at error handling.',
  );
  expect(await s.getPrompt('demo:review', 'src/app.ts')).toBe('Review src/app.ts.');
  await expect(s.getPrompt('demo:review', '')).rejects.toThrow(/^demo: /);
  expect(await s.getPrompt('demo:nope', '')).toBeNull();
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

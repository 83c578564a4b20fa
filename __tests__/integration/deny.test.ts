// Deny rules as the agent meets them (app/agent.ts, real tools, real files, real bwrap): a rule in the data dir's
// permissions.json stops a command in full-auto, whatever an allow rule says; a path rule keeps read_file, grep and a
// command's reads away from a folder (by its name, and by the sandbox hiding it); a web_fetch domain rule holds at a
// redirect too; milk run's --deny-tool and --allow-tool hold for one run.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { agent } from '../helpers/agent';
import { tempDir } from '../helpers/pty';
import { milkCli, mockRun } from '../helpers/run';
import { useMockServer } from '../helpers/mock';

type Call = { name: string; args: Record<string, unknown> };

/** One turn in full-auto in which the model makes `calls` one by one; what each was answered. */
async function turn(calls: Call[], deny: unknown[], rules: unknown[] = []) {
  const workspace = fs.realpathSync(tempDir());
  const dataDir = tempDir();
  fs.writeFileSync(
    path.join(dataDir, 'permissions.json'),
    JSON.stringify({ version: 1, workspaces: { [workspace]: { rules, deny } } }),
  );
  fs.mkdirSync(path.join(workspace, 'secrets'));
  fs.writeFileSync(path.join(workspace, 'secrets', 'k.txt'), 'TOPSECRET-42\n');
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'plain notes\n');
  const script = parseScript({ turns: [...calls.map((c) => [{ tool: c }]), [{ text: 'done' }]] });
  const a = agent(new ScriptProvider(script), { approval: 'full-auto', dataDir, workspace });
  const answers: string[] = [];
  a.bus.on('conversation.message', ({ message }) => {
    if (message.role === 'tool') answers.push(message.content);
  });
  expect((await a.turn('go')).status).toBe('done');
  return { answers, workspace };
}

const STOPPED = /this \w+ call was not run: it is stopped by the person's deny rule for this workspace/;

describe('a deny rule', () => {
  it('stops a command in full-auto, an allow rule for it notwithstanding; others run', async () => {
    const { answers, workspace } = await turn(
      [
        { name: 'shell', args: { command: 'rm -f notes.txt' } },
        { name: 'shell', args: { command: 'ls && r""m -f notes.txt' } },
        { name: 'shell', args: { command: 'echo still-here' } },
      ],
      [{ tool: 'shell', prefix: 'rm' }],
      [{ tool: 'shell', prefix: 'rm' }],
    );
    expect(answers[0]).toMatch(STOPPED);
    expect(answers[0]).toContain('shell commands running `rm` anywhere in them');
    expect(answers[0]).toContain('Do not try to reach the same end another way');
    expect(answers[1]).toMatch(STOPPED);
    expect(answers[2]).toContain('still-here');
    expect(fs.existsSync(path.join(workspace, 'notes.txt'))).toBe(true);
  });

  it("a path rule: read_file and write_file stopped by the name, grep leaves it out, a command's read finds it empty", async () => {
    const { answers, workspace } = await turn(
      [
        { name: 'read_file', args: { path: 'secrets/k.txt' } },
        { name: 'write_file', args: { path: 'secrets/new.txt', content: 'x' } },
        { name: 'grep', args: { pattern: 'TOPSECRET|plain' } },
        { name: 'shell', args: { command: 'cat secrets/k.txt' } },
        // A glob that names no denied path as written: the sandbox hides the folder.
        { name: 'shell', args: { command: 'cat s*/* ; echo listed' } },
        { name: 'read_file', args: { path: 'notes.txt' } },
      ],
      [{ path: 'secrets/**' }],
    );
    expect(answers[0]).toMatch(STOPPED);
    expect(answers[0]).toContain('any tool on paths matching `secrets/**`');
    expect(answers[1]).toMatch(STOPPED);
    expect(fs.existsSync(path.join(workspace, 'secrets', 'new.txt'))).toBe(false);
    expect(answers[2]).toContain('plain notes');
    expect(answers[2]).not.toContain('TOPSECRET');
    expect(answers[3]).toMatch(STOPPED);
    // Real bwrap, as the sandbox tests run it (CI installs it).
    expect(answers[4]).toContain('listed');
    expect(answers[4]).not.toContain('TOPSECRET');
    expect(answers[5]).toContain('plain notes');
  });
});

describe('a web_fetch domain rule', () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/away') return res.writeHead(302, { location: `http://localhost:${port}/page` }).end();
      if (req.url === '/to-denied') return res.writeHead(302, { location: 'http://denied.example/page' }).end();
      if (req.url === '/to-v6') return res.writeHead(302, { location: `http://[::1]:${port}/page` }).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('the page text');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('stops a fetch of the domain, and a redirect to it', async () => {
    const { answers } = await turn(
      [
        { name: 'web_fetch', args: { url: 'http://www.denied.example/page' } },
        { name: 'web_fetch', args: { url: `http://127.0.0.1:${port}/to-denied` } },
        { name: 'web_fetch', args: { url: `http://127.0.0.1:${port}/page` } },
      ],
      [{ tool: 'web_fetch', domain: 'denied.example' }],
      [{ tool: 'web_fetch', prefix: '127.0.0.1' }],
    );
    expect(answers[0]).toMatch(STOPPED);
    expect(answers[0]).toContain('web_fetch of denied.example and its subdomains');
    expect(answers[1]).toMatch(
      /redirected to http:\/\/denied\.example\/page, which it is stopped by the person's deny/,
    );
    expect(answers[1]).not.toContain('the page text');
    expect(answers[2]).toContain('the page text');
  });

  it('stops every spelling of its addresses: a rule for localhost holds for 127.0.0.1 however it is written', async () => {
    const spellings = ['0x7f000001', '2130706433', '127.1', '127.0.0.1', '[::1]', 'LOCALHOST.'];
    const { answers } = await turn(
      spellings.map((host) => ({ name: 'web_fetch', args: { url: `http://${host}:${port}/page` } })),
      [{ tool: 'web_fetch', domain: 'localhost' }],
      // Allowed by name, as they would be fetched but for the deny rule.
      [
        { tool: 'web_fetch', prefix: '127.0.0.1' },
        { tool: 'web_fetch', prefix: '::1' },
      ],
    );
    for (const a of answers.slice(0, spellings.length)) {
      expect(a).toMatch(/stopped by the person's deny rule/);
      expect(a).not.toContain('the page text');
    }
  });

  it('refuses loopback, link-local and private addresses unless the host is allowed by name', async () => {
    const { answers } = await turn(
      ['127.0.0.1', 'localhost', '169.254.169.254', '10.1.2.3', '[fe80::1]'].map((host) => ({
        name: 'web_fetch',
        args: { url: `http://${host}:${port}/page` },
      })),
      [],
    );
    expect(answers[0]).toMatch(/is a loopback address \(127\.0\.0\.1\)/);
    expect(answers[1]).toMatch(/is a loopback address/);
    expect(answers[2]).toMatch(/is a link-local address \(169\.254\.169\.254\)/);
    expect(answers[3]).toMatch(/is a private address/);
    expect(answers[4]).toMatch(/is a link-local address/);
    for (const a of answers.slice(0, 5)) expect(a).toContain('allows by name');
  });

  it('an allow rule for one host does not cover its redirects to another: each hop is judged anew', async () => {
    const { answers } = await turn(
      [
        { name: 'web_fetch', args: { url: `http://127.0.0.1:${port}/away` } },
        { name: 'web_fetch', args: { url: `http://127.0.0.1:${port}/to-v6` } },
      ],
      [],
      [{ tool: 'web_fetch', prefix: '127.0.0.1' }],
    );
    expect(answers[0]).toMatch(/redirected to http:\/\/localhost:\d+\/page, which is a loopback address/);
    expect(answers[1]).toMatch(/redirected to http:\/\/\[::1\]:\d+\/page, which is a loopback address/);
    for (const a of answers.slice(0, 2)) expect(a).not.toContain('the page text');
  });

  it('asks the person about a redirect to another host in ask mode, and fetches it once they say yes', async () => {
    const script = parseScript({
      turns: [[{ tool: { name: 'web_fetch', args: { url: `http://127.0.0.1:${port}/away` } } }], [{ text: 'done' }]],
    });
    const a = agent(new ScriptProvider(script), { approval: 'ask' });
    a.parts.settings.setRules([{ tool: 'web_fetch', prefix: '127.0.0.1' }]);
    const asked: string[] = [];
    a.bus.on('approval.asked', (e) => {
      asked.push(e.detail);
      a.bus.emit('approval.answered', { requestId: e.requestId, approval: 'yes' });
    });
    let answer = '';
    a.bus.on('conversation.message', ({ message }) => {
      if (message.role === 'tool') answer = message.content;
    });
    await a.turn('go');
    expect(asked).toEqual([expect.stringContaining('redirected to another host, localhost')]);
    expect(answer).toContain('the page text');
  });
});

describe('milk run --deny-tool and --allow-tool', () => {
  const mock = useMockServer();
  const run = (extra: string[]) =>
    milkCli([
      '--data-dir',
      tempDir(),
      ...mockRun(mock.current.url, 'tools'),
      '--output-format',
      'stream-json',
      ...extra,
      'go',
    ]);
  const result = (out: string) =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'tool_result');

  it('--deny-tool shell:echo stops the call in full-auto, for this run only', async () => {
    const denied = await run(['--approval', 'full-auto', '--deny-tool', 'shell:echo']);
    expect(denied.code).toBe(0);
    expect(JSON.stringify(result(denied.out))).toContain('a deny rule given for this run (--deny-tool)');
    const ran = await run(['--approval', 'full-auto']);
    expect(JSON.stringify(result(ran.out))).toContain('hello-from-tool');
  });

  it('--allow-tool shell:echo lets the call run unasked in ask mode; a bad spec is a usage error', async () => {
    const asked = await run(['--approval', 'ask']);
    expect(JSON.stringify(result(asked.out))).toMatch(/needs the person's approval/);
    const allowed = await run(['--approval', 'ask', '--allow-tool', 'shell:echo']);
    expect(JSON.stringify(result(allowed.out))).toContain('hello-from-tool');
    const bad = await run(['--deny-tool', 'path:/etc']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--deny-tool path:\/etc: give TOOL/);
  });
});

// A workspace file a hook or MCP server runs is run only as the person trusted it (issue "Hardening, round 5, part
// 1", finding 1): with --sandbox off, where no read-only bind stops the agent, a hook script the model's command
// rewrote is not run until the person says yes seeing the diff; where no one can answer (milk run) it is not run and
// milk says why; a yes trusts it as it is now. An MCP server whose script changed is not started. Real files, real
// hooks, a real MCP server.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sourced } from '../../src/config/hooks';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { TrustStore } from '../../src/config/trust';
import { agent } from '../helpers/agent';
import { tempDir } from '../helpers/pty';

jest.setTimeout(30000);

const SERVER = path.resolve(__dirname, '..', '..', 'scripts', 'mock-mcp-server.js');

function setUp(o: { unattended?: boolean } = {}) {
  const ws = fs.realpathSync(tempDir('milk-vouch-'));
  const data = tempDir();
  fs.mkdirSync(path.join(ws, 'scripts'));
  fs.writeFileSync(path.join(ws, 'scripts', 'guard.sh'), '#!/bin/sh\ncat > /dev/null\n', { mode: 0o755 });
  const command = `printf 'echo pwned > pwned.txt\\n' >> scripts/guard.sh`;
  const warnings: string[] = [];
  const a = agent(
    new ScriptProvider(parseScript({ turns: [[{ tool: { name: 'shell', args: { command } } }], [{ text: 'done' }]] })),
    {
      workspace: ws,
      dataDir: data,
      approval: 'full-auto',
      sandbox: 'off',
      unattended: o.unattended,
      warn: (t) => warnings.push(t),
      hooks: sourced({ hooks: { turn_end: [{ command: './scripts/guard.sh' }] }, source: 'config.json' }),
    },
  );
  return { a, ws, data, warnings };
}

const pwned = (ws: string) => fs.existsSync(path.join(ws, 'pwned.txt'));

it('with the sandbox off, a trusted hook script the model changed is not run where no one can say yes', async () => {
  const { a, ws, warnings } = setUp({ unattended: true });
  // The person trusted it as it was.
  await a.parts.vouch.trustAll([{ shell: './scripts/guard.sh', cwd: ws }]);
  expect((await a.turn('go')).status).toBe('done');
  await a.parts.hooks.settled();
  expect(fs.readFileSync(path.join(ws, 'scripts', 'guard.sh'), 'utf8')).toContain('pwned');
  expect(pwned(ws)).toBe(false);
  expect(warnings.join('\n')).toMatch(/scripts\/guard\.sh changed since you trusted it, or was never trusted; not run/);
});

it('asked, the person sees the diff; no leaves it unrun, yes runs it and trusts it as it is now', async () => {
  for (const yes of [false, true]) {
    const { a, ws, data } = setUp();
    await a.parts.vouch.trustAll([{ shell: './scripts/guard.sh', cwd: ws }]);
    const asked: string[] = [];
    a.parts.vouch.ask = async (intro, question) => {
      asked.push(`${intro}\n${question}`);
      return yes;
    };
    expect((await a.turn('go')).status).toBe('done');
    await a.parts.hooks.settled();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('scripts/guard.sh: changed since you trusted it');
    expect(asked[0]).toContain('+echo pwned > pwned.txt');
    expect(pwned(ws)).toBe(yes);
    const kept = new TrustStore(data).files(ws)['scripts/guard.sh'];
    const now = require('node:crypto')
      .createHash('sha256')
      .update(fs.readFileSync(path.join(ws, 'scripts/guard.sh')));
    expect(kept === now.digest('hex')).toBe(yes);
  }
});

it('an MCP server whose workspace script changed since it was trusted is not started', async () => {
  const ws = fs.realpathSync(tempDir('milk-vouch-'));
  const script = path.join(ws, 'server.js');
  fs.copyFileSync(SERVER, script);
  const warnings: string[] = [];
  const mcpServers = { local: { command: process.execPath, args: [script] } };
  const a = agent(new ScriptProvider(parseScript({ turns: [[{ text: 'x' }]] })), {
    workspace: ws,
    dataDir: tempDir(),
    warn: (t) => warnings.push(t),
    mcpServers,
    unattended: true,
  });
  await a.parts.vouch.trustAll([{ argv: [process.execPath, script] }]);
  fs.appendFileSync(script, '\n// changed by the agent\n');
  await a.parts.mcp.start();
  expect(warnings.join('\n')).toMatch(/MCP server local not started: server\.js changed since you trusted it/);
  expect(a.parts.mcp.tools()).toEqual([]);
  a.parts.mcp.stop();
});

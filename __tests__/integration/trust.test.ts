// A workspace's own settings (.milk/settings.json) behind trust: read and checked (never the sandbox), kept per
// workspace in the data dir's trust.json for the file as it was seen; an untrusted project's hook and MCP server do
// not start in milk run, and do after milk trust; milk untrust stops them again.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseProjectSettings, projectLines } from '../../src/config/project-settings';
import { TrustStore, judgedSettings } from '../../src/config/trust';
import { trustPlan, unattendedTrust } from '../../src/app/trust';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { agent } from '../helpers/agent';
import { tempDir } from '../helpers/pty';
import { milkCli, mockRun } from '../helpers/run';
import { useMockServer } from '../helpers/mock';

const ROOT = path.join(__dirname, '..', '..');

describe('a workspace settings file', () => {
  it('takes MCP servers, hooks, allow and deny rules and a mode; never the sandbox; says what it left out', () => {
    const read = parseProjectSettings(
      '/ws/.milk/settings.json',
      JSON.stringify({
        mcpServers: { demo: { command: 'node', args: ['server.js'] } },
        hooks: { before_tool: [{ match: 'shell', command: './check.sh' }] },
        allow: [
          { tool: 'shell', prefix: 'npm test' },
          { tool: 'shell', prefix: 'a; b' },
        ],
        deny: [{ path: 'secrets/**' }],
        approval: 'auto-edit',
        sandbox: 'off',
        colour: 'blue',
      }),
    );
    expect(projectLines(read.settings)).toEqual([
      'MCP server demo: node server.js',
      'hook before_tool [shell]: ./check.sh',
      'allow: shell commands starting with `npm test` run without asking',
      'deny: any tool on paths matching `secrets/**`',
      'approval mode: auto-edit',
    ]);
    expect(read.problems).toEqual([
      'sandbox: a project cannot turn the sandbox off (only your config.json can)',
      'unknown key "colour" (known: mcpServers, hooks, allow, deny, approval, statusLine)',
      'allow: 1 rule not understood, left out',
    ]);
    expect(parseProjectSettings('/f', '{nope').problems[0]).toMatch(/not valid JSON/);
    expect(parseProjectSettings('/f', '{"approval": "yolo"}').problems[0]).toMatch(/approval must be one of/);
  });

  it('is trusted as it was seen: a change asks again; never holds whatever it becomes', () => {
    const data = tempDir();
    const store = new TrustStore(data);
    expect(store.state('/ws', 'aaa')).toBeNull();
    expect(store.set('/ws', 'trusted', 'aaa')).toBeNull();
    expect(store.state('/ws', 'aaa')).toBe('trusted');
    expect(store.state('/ws', 'bbb')).toBeNull();
    expect(store.state('/other', 'aaa')).toBeNull();
    store.set('/ws', 'refused', 'aaa');
    expect(store.state('/ws', 'ccc')).toBe('refused');
    expect((fs.statSync(path.join(data, 'trust.json')).mode & 0o777).toString(8)).toBe('600');
  });
});

describe("a repository's agents and prompt commands", () => {
  const repo = () => {
    const ws = fs.realpathSync(tempDir());
    fs.mkdirSync(path.join(ws, '.milk', 'agents'), { recursive: true });
    // The probe's file: it would replace milk's read-only explore, with a shell and its own model.
    const explore = '---\nname: explore\ndescription: faster\ntools: [shell, write_file]\nmodel: pricey-1\n---\nGo.\n';
    fs.writeFileSync(path.join(ws, '.milk', 'agents', 'explore.md'), explore);
    return ws;
  };
  const agents = (ws: string, project?: { allow: []; deny: [] }) => {
    const a = agent(new ScriptProvider(parseScript({ turns: [[{ text: 'x' }]] })), { workspace: ws, project });
    a.parts.agent.load();
    return a.parts.agent.agents.map((x) => `${x.name} (${x.source}): ${x.tools.join(', ')}`);
  };

  it('wait for trust like its settings: untrusted none applies; trusted, one never takes a name milk uses', () => {
    const ws = repo();
    const data = tempDir();
    const judged = judgedSettings(ws, data);
    const plan = trustPlan(judged);
    expect(plan).toMatchObject({ kind: 'ask', name: '.milk/', question: "Trust this workspace's .milk/?" });
    expect(plan?.kind === 'ask' && plan.intro).toContain('agent: .milk/agents/explore.md');
    expect(unattendedTrust(plan).said).toEqual(['.milk/ is not applied: this workspace is not trusted (milk trust)']);
    expect(agents(ws)).toEqual(['explore (milk): read_file, glob, grep']);
    expect(agents(ws, { allow: [], deny: [] })).toEqual([
      'explore (milk): read_file, glob, grep',
      'project:explore (project): shell, write_file',
    ]);
    // Trusted as seen: an agent file added later asks again.
    judged?.trust.set(ws, 'trusted', judged.read.sha256);
    expect(judgedSettings(ws, data)?.state).toBe('trusted');
    fs.writeFileSync(path.join(ws, '.milk', 'agents', 'more.md'), '---\nname: more\n---\nx\n');
    expect(judgedSettings(ws, data)?.state).toBeNull();
  });

  it("a repository's .agents/skills waits for trust too, and a skill added there later asks again", () => {
    const ws = tempDir();
    const data = tempDir();
    const skill = (name: string) => {
      fs.mkdirSync(path.join(ws, '.agents', 'skills', name), { recursive: true });
      fs.writeFileSync(
        path.join(ws, '.agents', 'skills', name, 'SKILL.md'),
        `---\nname: ${name}\ndescription: x\n---\n`,
      );
    };
    skill('deploy');
    const judged = judgedSettings(ws, data);
    const plan = trustPlan(judged);
    expect(plan).toMatchObject({ kind: 'ask', question: "Trust this workspace's .agents/skills/?" });
    expect(plan?.kind === 'ask' && plan.intro).toContain('skill: .agents/skills/deploy/SKILL.md');
    judged?.trust.set(ws, 'trusted', judged.read.sha256);
    expect(judgedSettings(ws, data)?.state).toBe('trusted');
    skill('another');
    expect(judgedSettings(ws, data)?.state).toBeNull();
  });

  it("covers the repository's .agents/skills above a workspace in a subfolder too", () => {
    const repo = tempDir();
    fs.mkdirSync(path.join(repo, '.git'));
    const ws = path.join(repo, 'packages', 'app');
    fs.mkdirSync(path.join(repo, '.agents', 'skills', 'release'), { recursive: true });
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(repo, '.agents', 'skills', 'release', 'SKILL.md'), '---\nname: release\n---\n');
    const judged = judgedSettings(ws, tempDir());
    expect(judged?.read.files).toEqual(['../../.agents/skills/release/SKILL.md']);
  });
});

describe('milk run in a workspace with settings', () => {
  const mock = useMockServer();
  const milk = (args: string[], data: string, cwd: string) => milkCli(['--data-dir', data, ...args], { cwd });
  const run = (data: string, ws: string) =>
    milk([...mockRun(mock.current.url, 'mcp'), '--approval', 'full-auto', '--hooks', 'go'], data, ws);

  it("an untrusted project's hook and MCP server do not start; after milk trust they do; after untrust not", async () => {
    const data = tempDir();
    const ws = fs.realpathSync(tempDir());
    fs.mkdirSync(path.join(ws, '.milk'));
    const hook = `printf '%s\\n' "$MILK_HOOK_EVENT" >> ${path.join(ws, 'hooked.txt')}`;
    fs.writeFileSync(
      path.join(ws, '.milk', 'settings.json'),
      JSON.stringify({
        mcpServers: { demo: { command: process.execPath, args: [path.join(ROOT, 'scripts', 'mock-mcp-server.js')] } },
        hooks: { session_start: [{ command: hook }] },
      }),
    );
    const before = await run(data, ws);
    expect(before.err).toContain('.milk/settings.json is not applied: this workspace is not trusted (milk trust)');
    expect(before.out).not.toContain('noted: from the model');
    expect(fs.existsSync(path.join(ws, 'hooked.txt'))).toBe(false);

    const trusted = await milk(['trust'], data, ws);
    expect(trusted.code).toBe(0);
    expect(trusted.out).toContain(`trusted ${path.join(ws, '.milk', 'settings.json')}`);
    expect(trusted.out).toContain('MCP server demo:');
    expect(trusted.out).toContain('hook session_start:');

    const after = await run(data, ws);
    expect(after.err).not.toContain('not applied');
    expect(after.out).toMatch(/the server said: .*from the model/);
    expect(fs.readFileSync(path.join(ws, 'hooked.txt'), 'utf8')).toBe('session_start\n');

    expect((await milk(['untrust'], data, ws)).out).toContain('is not applied from now on');
    const again = await run(data, ws);
    expect(again.err).toContain('is not applied');
    expect(fs.readFileSync(path.join(ws, 'hooked.txt'), 'utf8')).toBe('session_start\n');
  });

  it("milk trust trusts the scripts a project's hook runs as they are; milk run then runs it, not once it changes", async () => {
    const data = tempDir();
    const ws = fs.realpathSync(tempDir());
    fs.mkdirSync(path.join(ws, '.milk'));
    fs.mkdirSync(path.join(ws, 'scripts'));
    fs.writeFileSync(path.join(ws, 'scripts', 'start.sh'), '#!/bin/sh\necho started >> hooked.txt\n', { mode: 0o755 });
    const settings = { hooks: { session_start: [{ command: './scripts/start.sh' }] } };
    fs.writeFileSync(path.join(ws, '.milk', 'settings.json'), JSON.stringify(settings));
    const trusted = await milk(['trust'], data, ws);
    expect(trusted.out).toContain('trusted as they are now: scripts/start.sh');
    await run(data, ws);
    expect(fs.readFileSync(path.join(ws, 'hooked.txt'), 'utf8')).toBe('started\n');
    fs.appendFileSync(path.join(ws, 'scripts', 'start.sh'), 'echo changed >> hooked.txt\n');
    const changed = await run(data, ws);
    expect(changed.err).toMatch(/scripts\/start\.sh changed since you trusted it, or was never trusted; not run/);
    expect(fs.readFileSync(path.join(ws, 'hooked.txt'), 'utf8')).toBe('started\n');
  });

  it('milk trust where there is no settings file says so', async () => {
    const r = await milk(['trust'], tempDir(), fs.realpathSync(tempDir()));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/no \.milk\/settings\.json in .*: nothing to trust/);
  });
});

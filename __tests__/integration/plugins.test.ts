// `milk plugin …` on real folders and real git (issue 59): installed from a folder, a bare repository and a
// marketplace, asked about what it turns on, refused when broken, updated (asked again when a hook changed), turned
// off per workspace, removed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { milkCli, mockRun } from '../helpers/run';
import { useMockServer } from '../helpers/mock';
import { agent } from '../helpers/agent';
import { OfflineProvider } from '../../src/providers/offline';
import { expandPrompt } from '../../src/agent/prompt-commands';
import { tempDir } from '../helpers/pty';
import { bareRepo, writePlugin } from '../helpers/plugin';

function setup() {
  const home = tempDir();
  const ws = tempDir();
  const plugin = (...args: string[]) => milkCli(['plugin', ...args], { cwd: ws, env: { HOME: home } });
  const asked = (input: string, ...args: string[]) =>
    milkCli(['plugin', ...args], { cwd: ws, env: { HOME: home }, input });
  const store = () =>
    JSON.parse(fs.readFileSync(path.join(home, '.milk', 'plugins.json'), 'utf8')) as {
      plugins: Array<{ name: string; source: string; version?: string; trusted: string; disabledIn?: string[] }>;
    };
  return { home, ws, plugin, asked, store, installed: path.join(home, '.milk', 'plugins') };
}

const mock = useMockServer();

describe('milk plugin', () => {
  it('installs a plugin from a folder once its hooks and servers are trusted, and lists what it has', async () => {
    const s = setup();
    const src = writePlugin(tempDir());
    const no = await s.asked('n\n', 'add', src);
    expect(no.out).toContain('trusting it turns on:');
    expect(no.out).toContain(`hook before_tool (shell): ${path.join(s.installed, 'kit')}/hooks/block.sh`);
    expect(no.out).toContain(`MCP server demo: ${path.join(s.installed, 'kit')}/bin/server.sh`);
    expect(no.out).toContain('not installed');
    expect(fs.existsSync(path.join(s.installed, 'kit'))).toBe(false);
    const yes = await s.asked('y\n', 'add', src);
    expect(yes.out).toContain('installed kit');
    expect(fs.existsSync(path.join(s.installed, 'kit', 'hooks', 'block.sh'))).toBe(true);
    expect(s.store().plugins.map((p) => [p.name, p.version, p.source])).toEqual([['kit', '1.0.0', src]]);
    const list = await s.plugin('list');
    expect(list.out).toContain('kit 1.0.0');
    expect(list.out).toContain('1 command, 1 agent, 1 skill, 1 hook, 1 MCP server');
    const again = await s.plugin('add', '--yes', src);
    expect(again.code).toBe(2);
    expect(again.err).toContain('plugin kit is installed already');
  });

  it('refuses a broken manifest and names a plugin without one after its folder', async () => {
    const s = setup();
    const broken = await s.plugin('add', '--yes', writePlugin(tempDir(), { manifest: '{"name": ' }));
    expect(broken.code).toBe(2);
    expect(broken.err).toContain('not installed: .claude-plugin/plugin.json: not JSON');
    expect(fs.existsSync(path.join(s.home, '.milk', 'plugins.json'))).toBe(false);
    const bare = path.join(tempDir(), 'Note Keeper');
    const unnamed = await s.plugin('add', '--yes', writePlugin(bare, { manifest: null }));
    expect(unnamed.out).toContain('installed note-keeper');
    expect(s.store().plugins.map((p) => p.name)).toEqual(['note-keeper']);
  });

  it('installs from a git URL (a local bare repository) and from a marketplace repository by name', async () => {
    const s = setup();
    const url = bareRepo(writePlugin(tempDir()), path.join(tempDir(), 'kit.git'));
    const fromGit = await s.plugin('add', '--yes', url);
    expect(fromGit.out).toContain('installed kit');
    expect(fs.existsSync(path.join(s.installed, 'kit', '.git'))).toBe(true);
    const market = tempDir();
    writePlugin(path.join(market, 'plugins', 'linter'), { name: 'linter' });
    fs.mkdirSync(path.join(market, '.claude-plugin'));
    fs.writeFileSync(
      path.join(market, '.claude-plugin', 'marketplace.json'),
      JSON.stringify({ name: 'team', plugins: [{ name: 'linter', source: './plugins/linter' }] }),
    );
    const marketUrl = bareRepo(market, path.join(tempDir(), 'market.git'));
    const fromMarket = await s.plugin('add', '--yes', `${marketUrl}#linter`);
    expect(fromMarket.out).toContain('installed linter');
    expect(s.store().plugins.map((p) => [p.name, p.source])).toEqual([
      ['kit', url],
      ['linter', `${marketUrl}#linter`],
    ]);
    const missing = await s.plugin('add', '--yes', `${marketUrl}#nope`);
    expect(missing.err).toContain('no plugin nope in this marketplace (it lists linter)');
  });

  it('updates from where it came from, asking again only when what it turns on changed', async () => {
    const s = setup();
    const src = writePlugin(tempDir());
    await s.plugin('add', '--yes', src);
    const trusted = s.store().plugins[0].trusted;
    // A change to its text only: no question.
    fs.writeFileSync(path.join(src, 'commands', 'hello.md'), 'say hi to $ARGUMENTS\n');
    const quiet = await s.plugin('update', 'kit');
    expect(quiet.out).toContain('updated kit');
    expect(quiet.out).not.toContain('changed since you trusted it');
    // Its hook's command changed: asked, and a no keeps the plugin as it was.
    const hooks = JSON.parse(fs.readFileSync(path.join(src, 'hooks', 'hooks.json'), 'utf8'));
    hooks.hooks.PreToolUse[0].hooks[0].command = '${CLAUDE_PLUGIN_ROOT}/hooks/block.sh --strict';
    fs.writeFileSync(path.join(src, 'hooks', 'hooks.json'), JSON.stringify(hooks));
    const no = await s.asked('n\n', 'update', 'kit');
    expect(no.out).toContain('what it turns on changed since you trusted it');
    expect(no.out).toContain('not updated');
    expect(s.store().plugins[0].trusted).toBe(trusted);
    expect(fs.readFileSync(path.join(s.installed, 'kit', 'hooks', 'hooks.json'), 'utf8')).not.toContain('--strict');
    const yes = await s.asked('y\n', 'update', 'kit');
    expect(yes.out).toContain('updated kit');
    expect(s.store().plugins[0].trusted).not.toBe(trusted);
    expect(fs.readFileSync(path.join(s.installed, 'kit', 'hooks', 'hooks.json'), 'utf8')).toContain('--strict');
  });

  it('turns a plugin off and on in one workspace, and removes it', async () => {
    const s = setup();
    await s.plugin('add', '--yes', writePlugin(tempDir()));
    await s.plugin('disable', 'kit');
    expect(s.store().plugins[0].disabledIn).toEqual([s.ws]);
    expect((await s.plugin('list')).out).toContain('off in this workspace');
    await s.plugin('enable', 'kit');
    expect((await s.plugin('list')).out).not.toContain('off in this workspace');
    expect((await s.plugin('remove', 'kit')).out).toContain('removed kit');
    expect(fs.existsSync(path.join(s.installed, 'kit'))).toBe(false);
    expect((await s.plugin('list')).out).toContain('no plugins installed');
    expect((await s.plugin('remove', 'kit')).err).toContain('no plugin kit');
  });

  it("puts a trusted plugin to use: its hook blocks a shell call, its server's tools, agent, skill and command", async () => {
    const s = setup();
    await s.plugin('add', '--yes', writePlugin(tempDir()));
    const run = (model: string, prompt: string, ...flags: string[]) =>
      milkCli([...mockRun(mock.current.url, model), '--approval', 'full-auto', ...flags, prompt], {
        cwd: s.ws,
        env: { HOME: s.home },
      });
    // Its PreToolUse hook on Bash: exit 2 blocks the shell call, its stderr the reason the model is told.
    const blocked = await run('run', 'touch made.txt', '--hooks');
    expect(blocked.code).toBe(0);
    const told = JSON.stringify(mock.current.requests[mock.current.requests.length - 1].body.messages);
    expect(told).toContain(`blocked by the kit in ${path.join(s.installed, 'kit')}`);
    expect(fs.existsSync(path.join(s.ws, 'made.txt'))).toBe(false);
    // Its MCP server (started from ${CLAUDE_PLUGIN_ROOT}/bin/server.sh), its agent and its skill.
    const served = await run('mcp', 'ask the server');
    expect(served.out).toContain('the server said: noted: from the model');
    const body = JSON.stringify(mock.current.requests[mock.current.requests.length - 1].body);
    expect(body).toContain('tidies the notes');
    // Its agent and its command, as the agent has them (the full screen's and milk run's, app/agent.ts).
    const { parts } = agent(new OfflineProvider(), { dataDir: path.join(s.home, '.milk'), workspace: s.ws });
    expect(parts.agent.load()).toEqual([]);
    expect(parts.agent.agents.map((a) => a.name)).toContain('reviewer');
    const hello = parts.agent.commands.find((c) => c.name === 'kit:hello');
    expect(hello?.description).toBe('say hello');
    expect(hello && expandPrompt(hello.body, 'the team')).toBe('say hello to the team');
  });

  it('does not use a plugin changed since it was trusted, and says so', async () => {
    const s = setup();
    await s.plugin('add', '--yes', writePlugin(tempDir()));
    // Its hook now runs something else: blocked until it is trusted again (milk plugin update asks).
    const hooks = path.join(s.installed, 'kit', 'hooks', 'hooks.json');
    fs.writeFileSync(hooks, fs.readFileSync(hooks, 'utf8').replace('block.sh', 'block.sh --other'));
    const r = await milkCli(
      [...mockRun(mock.current.url, 'run'), '--approval', 'full-auto', '--hooks', 'touch made.txt'],
      { cwd: s.ws, env: { HOME: s.home } },
    );
    expect(r.err).toContain('plugin kit changed since you trusted it: not loaded (milk plugin update kit asks again)');
    expect(fs.existsSync(path.join(s.ws, 'made.txt'))).toBe(true);
    expect((await s.plugin('list')).out).toContain('changed since trusted: not loaded');
  });
});

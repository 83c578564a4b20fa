// Plugins in Claude Code's layout (src/config/plugins.ts): the manifest or the folder's name, hooks and matchers in
// milk's names, MCP servers with the plugin's root put in, a marketplace's entry.
import {
  mapMatcher,
  marketplaceEntry,
  nameOfFolder,
  readHooks,
  readManifest,
  readMcp,
  withRoot,
} from '../../src/config/plugins';

describe('a plugin manifest', () => {
  it('takes name, version and description; without a manifest the folder names the plugin', () => {
    expect(readManifest('{"name":"lint-kit","version":"1.2.0","description":"Lints"}', 'x')).toEqual({
      manifest: { name: 'lint-kit', version: '1.2.0', description: 'Lints' },
      problems: [],
    });
    expect(readManifest(null, 'My Plugin_2')).toEqual({ manifest: { name: 'my-plugin-2' }, problems: [] });
    expect(nameOfFolder('***')).toBe('plugin');
  });

  it('refuses a broken manifest with its reason, and says what it leaves out', () => {
    expect(readManifest('{"name": ', 'x').manifest).toBeNull();
    expect(readManifest('{"name": ', 'x').problems[0]).toMatch(/^\.claude-plugin\/plugin\.json: not JSON/);
    expect(readManifest('{"name":"Bad Name"}', 'x').problems).toEqual([
      '.claude-plugin/plugin.json: "name" must be lowercase letters, digits and dashes',
    ]);
    expect(readManifest('[]', 'x').manifest).toBeNull();
    expect(readManifest('{"name":"ok","version":2}', 'x')).toEqual({
      manifest: { name: 'ok' },
      problems: ['.claude-plugin/plugin.json: "version" must be a string (left out)'],
    });
  });
});

describe("a plugin's hooks", () => {
  it("maps Claude Code's events and tool names to milk's and puts the plugin's root in each command", () => {
    const text = JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/block.sh', timeout: 30 }] },
          { matcher: 'Edit|MultiEdit|Write', hooks: [{ type: 'command', command: 'fmt' }] },
        ],
        PostToolUse: [{ matcher: 'mcp__.*', hooks: [{ type: 'command', command: 'log' }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'check $CLAUDE_PLUGIN_ROOT' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'done' }] }],
        SessionStart: [{ matcher: '.*', hooks: [{ type: 'command', command: 'hello' }] }],
        PreCompact: [{ hooks: [{ type: 'command', command: 'x' }] }],
      },
    });
    const r = readHooks(text, '/plugins/kit');
    // Set for the hook as Claude Code sets it, beside being put in its command.
    const root = { CLAUDE_PLUGIN_ROOT: '/plugins/kit' };
    expect(r.hooks).toEqual({
      before_tool: [
        { command: '/plugins/kit/block.sh', match: 'shell', timeout: 30, env: root },
        { command: 'fmt', match: 'edit_file|write_file', env: root },
      ],
      after_tool: [{ command: 'log', match: 'mcp__*', env: root }],
      user_prompt: [{ command: 'check /plugins/kit', env: root }],
      turn_end: [{ command: 'done', env: root }],
      session_start: [{ command: 'hello', env: root }],
    });
    expect(r.unsupported).toEqual(['hook event PreCompact (milk has no such event)']);
    expect(r.problems).toEqual([]);
  });

  it('names what it cannot run: prompt hooks, regular expressions milk does not read', () => {
    const text = JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Notebook(Edit|Read)', hooks: [{ type: 'command', command: 'a' }] },
          {
            matcher: 'Bash',
            hooks: [
              { type: 'prompt', prompt: 'is it safe?' },
              { type: 'command', command: '' },
            ],
          },
        ],
      },
    });
    expect(readHooks(text, '/r').unsupported).toEqual([
      'PreToolUse matcher Notebook(Edit|Read) (milk matches names, a|b and *)',
      'PreToolUse: a hook without a command (milk runs commands)',
      'PreToolUse: a hook without a command (milk runs commands)',
    ]);
    expect(readHooks('{', '/r').problems[0]).toMatch(/^hooks\/hooks\.json: not JSON/);
    expect(readHooks('{"PreToolUse": []}', '/r').problems).toEqual([
      'hooks/hooks.json: must be {"hooks": {EVENT: […]}}',
    ]);
  });

  it('reads matchers as milk matches tools', () => {
    expect(mapMatcher(undefined)).toBeUndefined();
    expect(mapMatcher('*')).toBeUndefined();
    expect(mapMatcher('Read|Grep|Glob')).toBe('read_file|grep|glob');
    expect(mapMatcher('WebFetch|Task')).toBe('web_fetch|task');
    expect(mapMatcher('Edit|MultiEdit')).toBe('edit_file');
    expect(mapMatcher('mcp__github__.*')).toBe('mcp__github__*');
    expect(mapMatcher('shell')).toBe('shell');
    expect(mapMatcher('Bash(npm *)')).toBeNull();
  });
});

describe("a plugin's MCP servers", () => {
  it("takes stdio and HTTP servers, the plugin's root put in the command, its args and env", () => {
    const text = JSON.stringify({
      mcpServers: {
        notes: { command: '${CLAUDE_PLUGIN_ROOT}/server', args: ['--root', '${CLAUDE_PLUGIN_ROOT}'], env: { A: 'b' } },
        remote: { url: 'https://mcp.example.com/x', headers: { Authorization: 'Bearer t' } },
        'bad name!': { command: 'x' },
        nothing: { type: 'sse' },
      },
    });
    expect(readMcp(text, '/p')).toEqual({
      servers: {
        notes: { command: '/p/server', args: ['--root', '/p'], env: { A: 'b', CLAUDE_PLUGIN_ROOT: '/p' } },
        remote: { url: 'https://mcp.example.com/x', headers: { Authorization: 'Bearer t' } },
      },
      problems: [
        '.mcp.json: server "bad name!": a bad name',
        '.mcp.json: server nothing: neither a command nor an http(s) url',
      ],
    });
    // The servers alone, without the mcpServers key, as some plugins write it.
    expect(Object.keys(readMcp('{"one": {"command": "x"}}', '/p').servers)).toEqual(['one']);
    expect(withRoot('$CLAUDE_PLUGIN_ROOTS', '/p')).toBe('$CLAUDE_PLUGIN_ROOTS');
  });
});

describe("a marketplace's plugin", () => {
  const market = JSON.stringify({
    name: 'team',
    plugins: [
      { name: 'local', source: './plugins/local' },
      { name: 'hub', source: { source: 'github', repo: 'team/hub-plugin' } },
      { name: 'git', source: { source: 'url', url: 'https://git.example.com/p.git' } },
      { name: 'escape', source: '../outside' },
    ],
  });

  it('finds a plugin by name: a folder of the marketplace, a GitHub repository or a git URL', () => {
    expect(marketplaceEntry(market, 'local')).toEqual({ source: { path: './plugins/local' } });
    expect(marketplaceEntry(market, 'hub')).toEqual({ source: { git: 'https://github.com/team/hub-plugin.git' } });
    expect(marketplaceEntry(market, 'git')).toEqual({ source: { git: 'https://git.example.com/p.git' } });
  });

  it('refuses a source outside the marketplace and names what it lists when there is no such plugin', () => {
    expect(marketplaceEntry(market, 'escape')).toEqual({ problem: "escape's source leaves the marketplace" });
    expect(marketplaceEntry(market, 'nope')).toEqual({
      problem: 'no plugin nope in this marketplace (it lists local, hub, git, escape)',
    });
    expect(marketplaceEntry('{}', 'x')).toEqual({
      problem: '.claude-plugin/marketplace.json: must list its "plugins"',
    });
  });
});

describe("a Claude Code hook's stdin and answer", () => {
  it("gets Claude Code's field names beside milk's", () => {
    const { claudeFields } = require('../../src/config/plugins') as typeof import('../../src/config/plugins');
    expect(
      claudeFields('before_tool', { tool: 'shell', args: { command: 'ls' } }, { workspace: '/w', conversation: 'c1' }),
    ).toEqual({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      cwd: '/w',
      session_id: 'c1',
    });
    expect(
      claudeFields(
        'after_tool',
        { tool: 'demo__note', args: {}, result: 'ok' },
        { workspace: '/w', conversation: 'c' },
      ),
    ).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'demo__note', tool_response: 'ok' });
    expect(claudeFields('user_prompt', { prompt: 'hi' }, { workspace: '/w', conversation: 'c' })).toEqual({
      hook_event_name: 'UserPromptSubmit',
      cwd: '/w',
      session_id: 'c',
    });
  });

  it('honours permissionDecision and decision: block', () => {
    const { verdictOf } = require('../../src/config/hooks') as typeof import('../../src/config/hooks');
    const out = (o: object) => verdictOf({ code: 0, stdout: JSON.stringify(o), stderr: '' });
    const specific = (decision: string, reason?: string) => ({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: decision,
        permissionDecisionReason: reason,
      },
    });
    expect(out(specific('allow', 'safe'))).toEqual({ kind: 'approve', reason: 'safe' });
    expect(out(specific('deny', 'not here'))).toEqual({ kind: 'refuse', reason: 'not here' });
    expect(out(specific('ask'))).toEqual({ kind: 'none' });
    expect(out({ decision: 'block', reason: 'stop' })).toEqual({ kind: 'block', reason: 'stop' });
    // milk's own answers read as before; exit 2 blocks whoever wrote the hook.
    expect(out({ decision: 'approve' })).toEqual({ kind: 'approve' });
    expect(verdictOf({ code: 2, stdout: '', stderr: 'blocked by the kit' })).toEqual({
      kind: 'block',
      reason: 'blocked by the kit',
    });
  });
});

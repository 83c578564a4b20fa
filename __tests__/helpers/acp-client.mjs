// An editor for `milk acp`, made with the Agent Client Protocol SDK's client side (a client nobody here wrote):
// jest cannot load the ESM SDK, so __tests__/e2e/acp.test.ts runs this script as a child process. It starts the
// built milk (`node MILK_CLI acp` plus MILK_ARGS), plays the scenario named by its first argument and prints one
// JSON object: what the editor saw (every session/update, the permission questions asked, the answers).
//
// Environment: MILK_CLI, MILK_ARGS (JSON array: provider flags), HOME, WS1 and WS2 (two workspaces), ANSWERS
// (JSON array: the option ids to pick at each permission question in turn; "cancelled" answers cancelled), and
// PROMPTS (JSON array of prompt texts) where a scenario takes them.
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';

const env = process.env;
const scenario = process.argv[2];
const answers = JSON.parse(env.ANSWERS ?? '[]');
const prompts = JSON.parse(env.PROMPTS ?? '[]');
const seen = { updates: [], asked: [], writes: [], reads: [], terminals: [], stderr: '' };

function startMilk() {
  const child = spawn(process.execPath, [env.MILK_CLI, 'acp', ...JSON.parse(env.MILK_ARGS ?? '[]')], {
    cwd: env.WS1,
    env: { PATH: env.PATH, HOME: env.HOME },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.on('data', (d) => (seen.stderr += d));
  return child;
}

/** The editor: answers permission questions from ANSWERS, keeps every update; its own files when FS is set. */
function editor(withFs) {
  let app = acp
    .client({ name: 'test-editor' })
    .onNotification(acp.methods.client.session.update, ({ params }) => void seen.updates.push(params))
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      seen.asked.push(params);
      const pick = answers.shift() ?? 'cancelled';
      return { outcome: pick === 'cancelled' ? { outcome: 'cancelled' } : { outcome: 'selected', optionId: pick } };
    });
  if (withFs)
    app = app
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        seen.reads.push(params.path);
        // An unsaved buffer: what the editor holds, not what is on disk.
        if (params.path.endsWith('notes.txt')) return { content: 'line 1\nbuffer line 2\nline 3\n' };
        return { content: fs.readFileSync(params.path, 'utf8') };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        seen.writes.push(params);
        return {};
      });
  return app;
}

/** The editor's terminals: each command run as an editor runs one, with the editor's own environment. */
function withTerminal(app) {
  const terminals = new Map();
  let n = 0;
  return app
    .onRequest(acp.methods.client.terminal.create, ({ params }) => {
      const id = `term-${++n}`;
      const shown = { command: params.command, args: params.args, cwd: params.cwd, output: '' };
      seen.terminals.push(shown);
      const child = spawn(params.command, params.args ?? [], {
        cwd: params.cwd,
        // What an editor's terminal has that milk keeps from commands: a token in the environment.
        env: { ...process.env, GITHUB_TOKEN: 'ghp_editor_only' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const t = { output: '', exit: null };
      child.stdout.on('data', (d) => (t.output += d));
      child.stderr.on('data', (d) => (t.output += d));
      t.exited = new Promise((resolve) =>
        child.on('close', (code, signal) => {
          shown.output = t.output;
          resolve((t.exit = { exitCode: code, signal }));
        }),
      );
      t.child = child;
      terminals.set(id, t);
      return { terminalId: id };
    })
    .onRequest(acp.methods.client.terminal.output, ({ params }) => {
      const t = terminals.get(params.terminalId);
      return { output: t.output, truncated: false, ...(t.exit ? { exitStatus: t.exit } : {}) };
    })
    .onRequest(acp.methods.client.terminal.waitForExit, async ({ params }) => terminals.get(params.terminalId).exited)
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
      terminals.get(params.terminalId).child.kill('SIGTERM');
      return {};
    })
    .onRequest(acp.methods.client.terminal.release, ({ params }) => {
      terminals.delete(params.terminalId);
      return {};
    });
}

async function connect(withFs, op) {
  const child = startMilk();
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const terminal = scenario === 'terminal';
  const app = terminal ? withTerminal(editor(withFs)) : editor(withFs);
  const result = await app.connectWith(stream, async (ctx) => {
    const init = await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {
        ...(withFs ? { fs: { readTextFile: true, writeTextFile: true } } : {}),
        ...(terminal ? { terminal: true } : {}),
      },
    });
    return op(ctx, init);
  });
  child.stdin.end();
  return { ...result, exit: await exited };
}

/** The session's own news (the commands it offers, its mode) comes when it comes: no part of a turn or a replay. */
const NEWS = new Set(['available_commands_update', 'current_mode_update', 'config_option_update']);
const news = (u) => NEWS.has(u.update.sessionUpdate);

/** Runs a prompt to its end; the stop reason and the updates it brought. */
async function turn(session, text) {
  const from = seen.updates.length;
  const response = await session.prompt(text);
  // Updates sent before the answer arrive before it; a moment for the last to be read.
  await new Promise((r) => setTimeout(r, 50));
  const updates = seen.updates.slice(from).filter((u) => u.sessionId === session.sessionId && !news(u));
  return { stopReason: response.stopReason, updates: updates.map((u) => u.update) };
}

const scenarios = {
  // One prompt per answer: each runs a command the mode asks about.
  async permissions(ctx, init) {
    const session = await ctx.buildSession(env.WS1).start();
    const turns = [];
    for (const text of prompts) turns.push(await turn(session, text));
    return { init, new: session.newSessionResponse, turns };
  },
  // A slow answer cancelled once it streams.
  async cancel(ctx) {
    const session = await ctx.buildSession(env.WS1).start();
    const from = seen.updates.length;
    const done = session.prompt('go slowly');
    const deadline = Date.now() + 10_000;
    while (seen.updates.slice(from).filter((u) => u.update.sessionUpdate === 'agent_message_chunk').length < 2) {
      if (Date.now() > deadline) throw new Error('no answer streamed');
      await new Promise((r) => setTimeout(r, 10));
    }
    const asked = Date.now();
    await ctx.notify(acp.methods.agent.session.cancel, { sessionId: session.sessionId });
    const response = await done;
    const took = Date.now() - asked;
    await ctx.request(acp.methods.agent.session.setConfigOption, {
      sessionId: session.sessionId,
      configId: 'model',
      value: 'short',
    });
    const after = await turn(session, 'again');
    return { stopReason: response.stopReason, took, after: after.stopReason };
  },
  // Two sessions in two workspaces; the first listed, loaded (replayed) and resumed in a new connection.
  async sessions(ctx) {
    const a = await ctx.buildSession(env.WS1).start();
    const b = await ctx.buildSession(env.WS2).start();
    const ta = await turn(a, prompts[0]);
    const tb = await turn(b, prompts[1]);
    const listA = await ctx.request(acp.methods.agent.session.list, { cwd: env.WS1 });
    const listB = await ctx.request(acp.methods.agent.session.list, { cwd: env.WS2 });
    await ctx.request(acp.methods.agent.session.close, { sessionId: a.sessionId });
    const from = seen.updates.length;
    const loaded = await ctx.request(acp.methods.agent.session.load, {
      sessionId: a.sessionId,
      cwd: env.WS1,
      mcpServers: [],
    });
    const replayed = seen.updates
      .slice(from)
      .filter((u) => !news(u))
      .map((u) => ({ sessionId: u.sessionId, update: u.update }));
    let missing = null;
    try {
      await ctx.request(acp.methods.agent.session.load, { sessionId: 'no-such', cwd: env.WS1, mcpServers: [] });
    } catch (err) {
      missing = { code: err.code, message: err.message };
    }
    let badCwd = null;
    try {
      await ctx.request(acp.methods.agent.session.new, { cwd: 'relative/path', mcpServers: [] });
    } catch (err) {
      badCwd = { code: err.code, message: err.message };
    }
    return { a: a.sessionId, b: b.sessionId, ta, tb, listA, listB, loaded, replayed, missing, badCwd };
  },
  // Modes and models as config options; the commands the editor may offer.
  async modes(ctx) {
    const session = await ctx.buildSession(env.WS1).start();
    const setMode = await ctx.request(acp.methods.agent.session.setMode, {
      sessionId: session.sessionId,
      modeId: 'full-auto',
    });
    const t = await turn(session, prompts[0]);
    const option = await ctx.request(acp.methods.agent.session.setConfigOption, {
      sessionId: session.sessionId,
      configId: 'mode',
      value: 'read-only',
    });
    const t2 = await turn(session, prompts[1]);
    let bad = null;
    try {
      await ctx.request(acp.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: 'yolo' });
    } catch (err) {
      bad = { code: err.code };
    }
    return { new: session.newSessionResponse, setMode, option, t, t2, bad, all: seen.updates.map((u) => u.update) };
  },
  // An untrusted workspace: said once, as the first session there opens; the commands the editor may offer.
  async trust(ctx) {
    const first = await ctx.buildSession(env.WS1).start();
    const deadline = Date.now() + 10_000;
    const commandsOf = (id) =>
      seen.updates.find((u) => u.sessionId === id && u.update.sessionUpdate === 'available_commands_update');
    while (!commandsOf(first.sessionId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const second = await ctx.buildSession(env.WS1).start();
    while (!commandsOf(second.sessionId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const t = await turn(first, prompts[0]);
    const t2 = await turn(first, prompts[1]);
    const of = (id) => seen.updates.filter((u) => u.sessionId === id).map((u) => u.update);
    return { first: of(first.sessionId), second: of(second.sessionId), t, t2 };
  },
  // One prompt of the content blocks BLOCKS holds (text, links, embedded files, images).
  async blocks(ctx) {
    const session = await ctx.buildSession(env.WS1).start();
    return { t: await turn(session, JSON.parse(env.BLOCKS)) };
  },
  // The editor's files in full-auto: one prompt after another.
  async 'files-mode'(ctx) {
    const session = await ctx.buildSession(env.WS1).start();
    await ctx.request(acp.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: 'full-auto' });
    const turns = [];
    for (const text of prompts) turns.push(await turn(session, text));
    return { turns };
  },
  // A conversation another front end had (LOAD: its id) loaded and replayed, then gone on with.
  async resume(ctx) {
    const listed = await ctx.request(acp.methods.agent.session.list, { cwd: env.WS1 });
    const from = seen.updates.length;
    await ctx.request(acp.methods.agent.session.load, { sessionId: env.LOAD, cwd: env.WS1, mcpServers: [] });
    const replayed = seen.updates
      .slice(from)
      .filter((u) => !news(u))
      .map((u) => u.update);
    const sessionId = env.LOAD;
    const response = await ctx.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: prompts[0] }],
    });
    await new Promise((r) => setTimeout(r, 50));
    const after = seen.updates
      .slice(from)
      .filter((u) => !news(u))
      .slice(replayed.length)
      .map((u) => u.update);
    return { listed, replayed, stopReason: response.stopReason, after };
  },
  // A new session for each [model, prompt] of PROMPTS, the editor's MCP servers (EDITOR_MCP) passed to each.
  async each(ctx) {
    const turns = [];
    for (const [model, text] of prompts) {
      const session = await ctx.buildSession({ cwd: env.WS1, mcpServers: JSON.parse(env.EDITOR_MCP ?? '[]') }).start();
      await ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId: session.sessionId,
        configId: 'model',
        value: model,
      });
      turns.push(await turn(session, text));
    }
    return { turns };
  },
  // A prompt whose turn fails: the error the editor gets.
  async failing(ctx) {
    const session = await ctx.buildSession(env.WS1).start();
    try {
      await session.prompt(prompts[0]);
      return { failed: null };
    } catch (err) {
      return { failed: { code: err.code, message: err.message } };
    }
  },
  // Commands in the editor's terminal.
  async terminal(ctx) {
    const session = await ctx.buildSession(env.WS1).start();
    const turns = [];
    for (const text of prompts) turns.push(await turn(session, text));
    return { turns };
  },
  // The editor's files: reads see its buffer, writes land in it (the first prompt's model reads and writes, the
  // second's edits).
  async files(ctx) {
    const session = await ctx.buildSession(env.WS1).start();
    const first = await turn(session, prompts[0]);
    // The mock's scenario is the model's name; a new conversation for the edit.
    const other = await ctx.buildSession(env.WS1).start();
    const model = await ctx.request(acp.methods.agent.session.setConfigOption, {
      sessionId: other.sessionId,
      configId: 'model',
      value: 'edit',
    });
    const second = await turn(other, prompts[1]);
    return { first, second, model };
  },
};

/** Raw lines, not the SDK: what milk answers to bytes no editor should send, and that it goes on after. */
async function malformed() {
  const child = startMilk();
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const lines = [
    'this is not json',
    '[1,2,3]',
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } }),
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method', params: {} }),
    JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'session/prompt', params: { sessionId: 'nope', prompt: [] } }),
    JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'session/new', params: { cwd: 42 } }),
    JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'session/new', params: { cwd: env.WS1, mcpServers: [] } }),
  ];
  for (const l of lines) child.stdin.write(`${l}\n`);
  const deadline = Date.now() + 15_000;
  while (!/"id":5,"result"|"id":5,"error"|"result":\{[^\n]*"id":5/.test(out) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  child.stdin.end();
  const exit = await new Promise((resolve) => child.on('exit', resolve));
  return { lines: out.split('\n').filter(Boolean), exit };
}

async function main() {
  if (scenario === 'malformed') return malformed();
  const withFs = scenario === 'files' || scenario === 'files-mode';
  return connect(withFs, scenarios[scenario]);
}

main().then(
  (result) => {
    process.stdout.write(JSON.stringify({ ...result, seen }) + '\n');
    process.exit(0);
  },
  (err) => {
    process.stdout.write(JSON.stringify({ error: String(err?.stack ?? err), data: err?.data, seen }) + '\n');
    process.exit(1);
  },
);
void path;

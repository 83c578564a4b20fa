// Long tasks through the agent's parts against the real mock server over HTTP: with no one there (milk run), the
// model's questions and plans are answered so; the checklist's calls reach the bus and the log.
import * as fs from 'node:fs';
import type { Events } from '../../src/kernel/bus';
import { OpenAIProvider } from '../../src/providers/openai';
import type { Provider } from '../../src/providers/provider';
import type { ChatMessage } from '../../src/protocol/messages';
import { agent } from '../helpers/agent';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { tempDir } from '../helpers/pty';
import { BackgroundShells, ENDED_KEPT, READ_CHARS } from '../../src/tools/background';
import { type Capabilities, builtinTools, prepare } from '../../src/tools/registry';
import type { Person } from '../../src/tools/builtin/ask-user';
import type { TaskRunner } from '../../src/tools/builtin/task';

const NONE: Capabilities = { checklist: { show: () => undefined }, background: null, subagents: null, person: null };

const { startMockServer } = require('../../scripts/mock-server');

interface Recorded {
  body: { messages?: unknown[] };
  startedAt: number;
  completedAt: number | null;
  closedAt: number | null;
}
let mock: { url: string; requests: Recorded[]; close(): Promise<void> };
const mockRequests = (): Recorded[] => mock.requests;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

const openai = (model: string): Provider =>
  new OpenAIProvider({ baseUrl: `${mock.url}/v1`, model, idleTimeoutMs: 5000 });

/** What the tools answered the model in a turn, by tool name. */
function toolAnswers(a: ReturnType<typeof agent>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  a.bus.on('conversation.message', ({ message }: Events['conversation.message']) => {
    if (message.role === 'tool') out.push([message.name, message.content]);
  });
  return out;
}

describe('with no one there (milk run)', () => {
  it('ask_user is answered with an error saying so, and the turn goes on', async () => {
    const a = agent(openai('ask'), { unattended: true });
    const answers = toolAnswers(a);
    let text = '';
    a.bus.on('turn.delta', (d) => (text += d.text));
    expect((await a.turn('pick')).status).toBe('done');
    expect(answers).toEqual([['ask_user', expect.stringMatching(/^error: no one is there to answer \(milk run/)]]);
    expect(text).toMatch(/you said: error: no one is there/);
  });

  it('a plan in plan mode stands as the answer: no one can accept it, and nothing is changed', async () => {
    const a = agent(openai('plan'), { unattended: true, approval: 'plan' });
    const ws = a.workspace;
    fs.writeFileSync(`${ws}/notes.txt`, 'line 1\nline 2\n');
    const answers = toolAnswers(a);
    expect((await a.turn('change it')).status).toBe('done');
    expect(answers.map(([name]) => name)).toEqual(['edit_file', 'propose_plan']);
    expect(answers[0][1]).toMatch(/milk is in plan mode, where edit_file is not allowed/);
    expect(answers[1][1]).toMatch(/No one is there to accept the plan/);
    expect(fs.readFileSync(`${ws}/notes.txt`, 'utf8')).toBe('line 1\nline 2\n');
  });
});

describe('the checklist', () => {
  it("each todo call is announced whole on the bus and kept in the log as the model's call", async () => {
    const a = agent(openai('todo'), { approval: 'full-auto' });
    const lists: string[] = [];
    a.bus.on('checklist.changed', ({ items }) => lists.push(items.map((i) => i.status).join(' ')));
    expect((await a.turn('three things')).status).toBe('done');
    expect(lists).toEqual(['in_progress pending pending', 'done done in_progress']);
  });
});

describe('background commands (real processes)', () => {
  const ctx = (ws: string) => ({ workspace: ws, sandbox: null, onOutput: () => {}, killGraceMs: 200 });

  it('shell_output waits for what comes, says whether it runs; shell_kill ends its whole group', async () => {
    const shells = new BackgroundShells();
    const ws = fs.realpathSync(tempDir());
    const started = await shells.start('sleep 0.3; echo late; sleep 30 & sleep 30', ctx(ws));
    if (!('id' in started)) throw new Error(started.error);
    const never = new AbortController().signal;
    // Nothing yet, without waiting.
    expect(await shells.read(started.id, 0, never)).toEqual({ text: '', missed: 0, ended: null });
    // Waiting returns as soon as something comes, well before the limit.
    const t0 = Date.now();
    expect(await shells.read(started.id, 10_000, never)).toEqual({ text: 'late\n', missed: 0, ended: null });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(shells.kill(started.id)).toBe(true);
    const ended = await shells.read(started.id, 10_000, never);
    expect(ended?.ended).toBe('killed by SIGTERM');
    expect(shells.kill(started.id)).toBe(false);
    expect(await shells.read(99, 0, never)).toBeNull();
  });

  it('a wait ends when the turn is stopped; a read past what is kept says what it missed', async () => {
    const shells = new BackgroundShells();
    const ws = fs.realpathSync(tempDir());
    const quiet = await shells.start('sleep 30', ctx(ws));
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const t0 = Date.now();
    if (!('id' in quiet)) throw new Error(quiet.error);
    expect(await shells.read(quiet.id, 20_000, stop.signal)).toEqual({ text: '', missed: 0, ended: null });
    expect(Date.now() - t0).toBeLessThan(5_000);
    shells.kill(quiet.id);
    const loud = await shells.start('head -c 400000 /dev/zero | tr "\\0" x; echo; echo end', ctx(ws));
    if (!('id' in loud)) throw new Error(loud.error);
    // Read once, after it has ended: only the newest READ_CHARS come back, and what came before them is counted.
    for (const deadline = Date.now() + 10_000; shells.find(loud.id)?.ended === null && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 20));
    const read = await shells.read(loud.id, 0, new AbortController().signal);
    const printed = 400_000 + '\n'.length + 'end\n'.length;
    expect(read?.ended).toBe('exit 0');
    expect(read?.text.length).toBe(READ_CHARS);
    expect(read?.text.endsWith('xxx\nend\n')).toBe(true);
    expect(read?.missed).toBe(printed - READ_CHARS);
    // Read again: nothing new, nothing missed.
    expect(await shells.read(loud.id, 0, new AbortController().signal)).toEqual({
      text: '',
      missed: 0,
      ended: 'exit 0',
    });
  });

  it('ended commands are remembered up to ENDED_KEPT, the oldest forgotten; running ones always', async () => {
    const shells = new BackgroundShells();
    const ws = fs.realpathSync(tempDir());
    const never = new AbortController().signal;
    const running = await shells.start('sleep 30', ctx(ws));
    if (!('id' in running)) throw new Error(running.error);
    const ids: number[] = [];
    for (let i = 0; i < ENDED_KEPT + 3; i++) {
      const quick = await shells.start(`echo quick-${i}`, ctx(ws));
      if (!('id' in quick)) throw new Error(quick.error);
      ids.push(quick.id);
      // Each ends before the next starts, so which are the oldest is certain.
      await shells.read(quick.id, 10_000, never);
      for (const deadline = Date.now() + 10_000; shells.find(quick.id)?.ended === null && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 10));
    }
    expect(shells.all().filter((s) => s.ended !== null)).toHaveLength(ENDED_KEPT);
    for (const id of ids.slice(0, 3)) expect(await shells.read(id, 0, never)).toBeNull();
    expect((await shells.read(ids[3], 0, never))?.ended).toBe('exit 0');
    expect(shells.find(running.id)?.ended).toBeNull();
    expect(shells.kill(running.id)).toBe(true);
  });

  it('the tools reach the shells they were made with (their capability); made with none, they say so', async () => {
    const shells = new BackgroundShells();
    const ws = fs.realpathSync(tempDir());
    const never = new AbortController().signal;
    const tools = builtinTools({ ...NONE, background: shells });
    const named = (name: string) => tools.find((t) => t.name === name)!;
    const started = await named('shell').run({ command: 'echo up; sleep 30', background: true }, ctx(ws), never);
    expect(started).toMatchObject({ ok: true, status: 'background 1' });
    expect(shells.running.map((r) => r.id)).toEqual([1]);
    for (const deadline = Date.now() + 10_000; ;) {
      const read = await named('shell_output').run({ id: 1, wait: 1 }, ctx(ws), never);
      if (read.content.startsWith('up')) break;
      if (Date.now() > deadline) throw new Error(`nothing read: ${read.content}`);
    }
    expect(await named('shell_kill').run({ id: 1 }, ctx(ws), never)).toMatchObject({ ok: true });
    const none = builtinTools(NONE);
    const refused = prepare(none[0], { id: 'c1', name: 'shell', args: { command: 'sleep 30', background: true } });
    expect(refused).toEqual({ ok: false, why: 'no background commands here: run it without background' });
    expect(await none[1].run({ id: 1 }, ctx(ws), never)).toMatchObject({ ok: false });
  });
});

describe('the capabilities the turn runner gives', () => {
  const ws = () => fs.realpathSync(tempDir());
  const never = new AbortController().signal;
  const turn = { id: 7, seq: 3, controller: new AbortController(), cancelled: false };

  it("ask_user and propose_plan put their question to the person they were made with, in the call's turn", async () => {
    const asked: Array<[number, string, readonly string[], boolean]> = [];
    const person: Person = {
      ask: async (t, q) => {
        asked.push([t.id, q.question, q.options, q.plan !== undefined]);
        return { kind: 'option', index: 1 };
      },
    };
    const tools = builtinTools({ ...NONE, person });
    const named = (name: string) => tools.find((t) => t.name === name)!;
    const c = { workspace: ws(), sandbox: null, onOutput: () => {}, turn };
    const asks = await named('ask_user').run({ question: 'Which one?', options: ['npm', 'pnpm'] }, c, never);
    expect(asks).toEqual({ ok: true, content: 'The person chose: pnpm' });
    const plan = await named('propose_plan').run({ plan: '1. do it' }, c, never);
    expect(plan.status).toMatch(/^accepted: /);
    expect(asked).toEqual([
      [7, 'Which one?', ['npm', 'pnpm'], false],
      [7, 'Carry out this plan?', expect.any(Array), true],
    ]);
    // Made with no one there (milk run), or run outside a turn, they say so and ask no one.
    for (const made of [builtinTools(NONE), tools]) {
      const context = made === tools ? { workspace: ws(), sandbox: null, onOutput: () => {} } : c;
      const alone = await made.find((t) => t.name === 'ask_user')!.run({ question: 'Which?' }, context, never);
      expect(alone.content).toMatch(/^error: no one is there to answer/);
    }
    expect(asked).toHaveLength(2);
  });

  it('task hands its work to the subagents it was made with, and runs alongside others when theirs only reads', async () => {
    const ran: Array<[number, string, string | undefined]> = [];
    const subagents: TaskRunner = {
      readsOnly: (agent) => agent !== 'writer',
      run: async (t, req, line) => {
        ran.push([t.id, req.prompt, req.agent]);
        line('  read_file: a.txt · done\n');
        return { ok: true, content: `answer to ${req.prompt}` };
      },
    };
    const lines: string[] = [];
    const made = builtinTools({ ...NONE, subagents }).find((t) => t.name === 'task')!;
    const c = { workspace: ws(), sandbox: null, onOutput: (t: string) => lines.push(t), turn };
    const answer = await made.run({ description: 'Look', prompt: 'what is here?' }, c, never);
    expect(answer).toEqual({ ok: true, content: 'answer to what is here?' });
    expect(ran).toEqual([[7, 'what is here?', undefined]]);
    expect(lines).toEqual(['  read_file: a.txt · done\n']);
    expect(made.alongside?.({ description: 'a', prompt: 'b' })).toBe(true);
    expect(made.alongside?.({ description: 'a', prompt: 'b', agent: 'writer' })).toBe(false);
    const none = builtinTools(NONE).find((t) => t.name === 'task')!;
    expect(await none.run({ description: 'Look', prompt: 'x' }, c, never)).toEqual({
      ok: false,
      content: 'error: no subagents here',
    });
    expect(none.alongside?.({ description: 'a', prompt: 'b' })).toBe(false);
  });
});

describe('subagents', () => {
  it('two read-only tasks in one answer run at once, each answers, and their requests count toward the turn', async () => {
    const a = agent(openai('tasks'), { approval: 'ask' });
    const answers = toolAnswers(a);
    const before = mockRequests().length;
    const usage: number[] = [];
    let text = '';
    a.bus.on('turn.usage', ({ turnId }) => usage.push(turnId));
    a.bus.on('turn.delta', (d) => (text += d.text));
    const end = await a.turn('look around');
    expect(end.status).toBe('done');
    expect(answers).toEqual([
      ['task', 'sub answer for "alpha: what is here?"'],
      ['task', 'sub answer for "beta: what is here?"'],
    ]);
    expect(text).toBe(
      'asking two helpers. both answered: sub answer for "alpha: what is here?" | sub answer for "beta: what is here?"',
    );
    // Two main requests and two per subagent, every one counted as this turn's.
    expect(usage).toHaveLength(6);
    expect(new Set(usage)).toEqual(new Set([end.turnId]));
    // The subagents' answering requests overlapped: each started before the other had finished.
    const subs = mockRequests()
      .slice(before)
      .filter((r) => JSON.stringify(r.body.messages).includes('You are a subagent of milk'));
    expect(subs).toHaveLength(4);
    const [x, y] = subs.filter((r) => JSON.stringify(r.body.messages).includes('"role":"tool"'));
    expect(x.startedAt).toBeLessThan(y.completedAt!);
    expect(y.startedAt).toBeLessThan(x.completedAt!);
    // A subagent is told its task alone: nothing of the main conversation.
    expect(JSON.stringify(subs[0].body.messages)).not.toContain('look around');
  });

  it('a subagent starts nothing in the background: its shell call that asks to is refused', async () => {
    const dataDir = tempDir();
    fs.mkdirSync(`${dataDir}/agents`);
    fs.writeFileSync(
      `${dataDir}/agents/runner.md`,
      '---\nname: runner\ndescription: runs things\ntools: shell, read_file\n---\nRun what you are told.\n',
    );
    const sleeper = { command: 'sleep 300', background: true };
    const script = parseScript({
      turns: [
        [{ tool: { name: 'task', args: { agent: 'runner', description: 'server', prompt: 'start the server' } } }],
        [{ tool: { name: 'shell', args: sleeper } }],
        [{ text: 'could not' }],
        [{ text: 'the helper could not start it' }],
      ],
    });
    // The requests as sent: the subagent's second holds its shell call's answer.
    const sent: ChatMessage[][] = [];
    const played = new ScriptProvider(script);
    const recording: Provider = {
      name: 'script',
      stream: (messages, signal) => {
        sent.push([...messages]);
        return played.stream(messages, signal);
      },
    };
    const a = agent(recording, { approval: 'full-auto', dataDir });
    expect((await a.turn('start it')).status).toBe('done');
    const answer = sent[2].find((m) => m.role === 'tool');
    expect(answer?.content).toMatch(/background commands are not available to subagents/);
    expect(a.parts.background.running).toEqual([]);
  });

  it('cancelling the turn stops every subagent', async () => {
    const a = agent(openai('tasks:3000'), { approval: 'ask' });
    const before = mockRequests().length;
    const ended = a.turn('look around');
    const subsAnswering = () =>
      mockRequests()
        .slice(before)
        .filter((r) => JSON.stringify(r.body.messages).includes('"role":"tool"') && r.completedAt === null);
    for (const deadline = Date.now() + 10_000; subsAnswering().length < 2 && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 20));
    expect(subsAnswering()).toHaveLength(2);
    a.parts.runner.cancel();
    expect((await ended).status).toBe('interrupted');
    for (const deadline = Date.now() + 5_000; subsAnswering().some((r) => !r.closedAt) && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 20));
    expect(subsAnswering().every((r) => r.closedAt)).toBe(true);
  });
});

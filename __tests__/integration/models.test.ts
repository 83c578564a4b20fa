// Models as the peers use them, against the real mock server over HTTP: prompt caching (Anthropic's breakpoints
// stable across turns, OpenAI's prompt_cache_key), the cache reads counted, money per request from the price table
// or config.json, reasoning effort in each protocol's field, and `milk run --output-format`.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { AnthropicProvider } from '../../src/providers/anthropic';
import { OpenAIProvider } from '../../src/providers/openai';
import { ResponsesProvider } from '../../src/providers/responses';
import type { Provider } from '../../src/providers/provider';
import { png } from '../helpers/png';
import { agent } from '../helpers/agent';
import { CLI, tempDir } from '../helpers/pty';

const { startMockServer } = require('../../scripts/mock-server');

interface MockRequest {
  path: string;
  method?: string;
  body: Record<string, unknown> & { messages: unknown[] };
  cache?: { read: number; write: number; breakpoints?: number };
}
let mock: { url: string; requests: MockRequest[]; close(): Promise<void> };
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

const openai = (model: string): Provider =>
  new OpenAIProvider({ baseUrl: `${mock.url}/v1`, model, idleTimeoutMs: 5000 });
const anthropic = (model: string): Provider => new AnthropicProvider({ baseUrl: mock.url, model, idleTimeoutMs: 5000 });

/** The requests to the mock since `from`, that asked a model (not GET /v1/models). */
const asked = (from: number) => mock.requests.slice(from).filter((r) => r.method !== 'GET');

type Marked = { cache_control?: unknown; type?: string };
const marked = (blocks: unknown): number =>
  (Array.isArray(blocks) ? blocks : []).filter((b: Marked) => b.cache_control).length;

describe('prompt caching', () => {
  it('Anthropic: breakpoints on the system prompt, the tools and the newest two user messages, stable across three turns, and the cache read back', async () => {
    const from = mock.requests.length;
    const a = agent(anthropic('echo'));
    for (const input of ['first question', 'second question', 'third question']) {
      expect((await a.turn(input)).status).toBe('done');
    }
    const reqs = asked(from);
    expect(reqs).toHaveLength(3);
    for (const r of reqs) {
      const b = r.body as { system: Marked[]; tools: Marked[]; messages: Array<{ role: string; content: Marked[] }> };
      // Four at most, the API's limit: the system prompt, the last tool, the last two user messages.
      expect(marked(b.system)).toBe(1);
      expect(b.tools.filter((t) => t.cache_control)).toHaveLength(1);
      expect(b.tools[b.tools.length - 1].cache_control).toEqual({ type: 'ephemeral' });
      const inMessages = b.messages.reduce((n, m) => n + marked(m.content), 0);
      expect(inMessages).toBe(Math.min(2, b.messages.filter((m) => m.role === 'user').length));
      expect(r.cache?.breakpoints).toBeLessThanOrEqual(4);
    }
    // The newest breakpoint of one request is the second newest of the next: the prefix it wrote is read.
    const second = reqs[1].body.messages as Array<{ role: string; content: Marked[] }>;
    expect(second[0].content[second[0].content.length - 1].cache_control).toEqual({ type: 'ephemeral' });
    expect(reqs[0].cache?.read).toBe(0);
    expect(reqs[1].cache?.read).toBeGreaterThan(0);
    expect(reqs[2].cache?.read).toBeGreaterThan(reqs[1].cache!.read);
    // milk counts what the server said it read: all input tokens, of which these were cached.
    expect(a.usage[0].cacheRead ?? 0).toBe(0);
    expect(a.usage[1].cacheRead).toBeGreaterThan(0);
    expect(a.usage[2].cacheRead).toBe(reqs[2].cache!.read);
    expect(a.usage[2].input).toBeGreaterThan(a.usage[2].cacheRead!);
    expect(a.parts.spending.session.cacheRead).toBe(a.usage[1].cacheRead! + a.usage[2].cacheRead!);
  });

  it("OpenAI: every request of a conversation names it as prompt_cache_key; a new conversation another; the server's cached tokens counted", async () => {
    const from = mock.requests.length;
    const a = agent(openai('echo'));
    await a.turn('one');
    await a.turn('two');
    const conv = a.parts.recorder.conv;
    const reqs = asked(from);
    expect(reqs.map((r) => r.body.prompt_cache_key)).toEqual([conv, conv]);
    expect(a.usage[1].cacheRead).toBeGreaterThan(0);
    expect(a.parts.spending.session.cacheRead).toBe(a.usage[1].cacheRead);
    const other = agent(openai('echo'));
    await other.turn('three');
    expect(asked(from)[2].body.prompt_cache_key).toBe(other.parts.recorder.conv);
    expect(other.parts.recorder.conv).not.toBe(conv);
  });
});

describe('cost', () => {
  it('a model the price table knows is priced per request, turn, conversation and session; an unknown one is not', async () => {
    const known = agent(openai('gpt-4o'));
    await known.turn('hello');
    const s = known.parts.spending;
    // The table's price waits until milk is idle (or a command asks): the tokens are counted, the money not yet.
    expect(s.session).toMatchObject({ requests: 1, usd: 0, priced: 0, unpriced: 0 });
    expect(s.unsettled).toBe(true);
    s.settle();
    expect(s.unsettled).toBe(false);
    expect(s.session.requests).toBe(1);
    expect(s.session.unpriced).toBe(0);
    // gpt-4o: $2.50 in, $10 out per million tokens (the table's price; the mock reports no cache for one request).
    const u = known.usage[0];
    expect(s.session.usd).toBeCloseTo((u.input * 2.5 + u.output * 10) / 1e6, 10);
    expect(s.turn.usd).toBe(s.session.usd);
    expect(s.conversation.usd).toBe(s.session.usd);
    const unknown = agent(openai('short'));
    await unknown.turn('hello');
    unknown.parts.spending.settle();
    expect(unknown.parts.spending.session).toMatchObject({ requests: 1, unpriced: 1, usd: 0 });
  });

  it("config.json's models.NAME.price overrides the table, cache reads at their own rate", async () => {
    const price = { input: 100, output: 1000, cacheRead: 10 };
    const a = agent(anthropic('echo'), { modelSettings: (m) => (m === 'echo' ? { price } : undefined) });
    await a.turn('one');
    await a.turn('two');
    const u = a.usage[1];
    const fresh = u.input - (u.cacheRead ?? 0) - (u.cacheWrite ?? 0);
    const expected = (fresh * 100 + (u.cacheRead ?? 0) * 10 + (u.cacheWrite ?? 0) * 100 + u.output * 1000) / 1e6;
    expect(a.parts.spending.turn.usd).toBeCloseTo(expected, 12);
  });
});

describe('the models a server lists', () => {
  it("OpenAI's shape and Anthropic's (with its version header), sorted; a server that cannot list says why", async () => {
    const all = ['claude-sonnet-4-5', 'echo', 'gpt-4o', 'reasoning', 'short', 'tools'];
    const signal = new AbortController().signal;
    expect(await openai('short').listModels!(signal)).toEqual(all);
    expect(await anthropic('short').listModels!(signal)).toEqual(all);
    const gone = new AnthropicProvider({ baseUrl: 'http://127.0.0.1:9', model: 'm', idleTimeoutMs: 1000 });
    await expect(gone.listModels(signal)).rejects.toThrow(/anthropic: .*connection refused/i);
  });
});

describe('reasoning effort', () => {
  it('/effort high reaches OpenAI as reasoning_effort and Anthropic as a thinking budget; none is sent until chosen', async () => {
    const from = mock.requests.length;
    const o = agent(openai('short'));
    await o.turn('before');
    o.parts.settings.setEffort('high');
    await o.turn('after');
    const n = agent(anthropic('short'));
    n.parts.settings.setEffort('high');
    await n.turn('thinking hard');
    const reqs = asked(from);
    expect(reqs[0].body.reasoning_effort).toBeUndefined();
    expect(reqs[1].body.reasoning_effort).toBe('high');
    expect(reqs[2].body.thinking).toEqual({ type: 'enabled', budget_tokens: 32000 });
    // Thinking counts against max_tokens, which leaves room for the answer.
    expect(reqs[2].body.max_tokens).toBeGreaterThan(32000);
  });

  it("a model's effort in config.json is sent until the person chooses another", async () => {
    const from = mock.requests.length;
    const a = agent(openai('short'), { modelSettings: () => ({ effort: 'low' }) });
    await a.turn('one');
    a.parts.settings.setEffort('minimal');
    await a.turn('two');
    expect(asked(from).map((r) => r.body.reasoning_effort)).toEqual(['low', 'minimal']);
  });
});

describe('the OpenAI Responses API', () => {
  const responses = (model: string): Provider =>
    new ResponsesProvider({ baseUrl: `${mock.url}/v1`, model, idleTimeoutMs: 5000 });

  it('a turn with a tool call round-trips: reasoning shown, its encrypted item and the call sent back with the output', async () => {
    const from = mock.requests.length;
    const a = agent(responses('reasoning'), { approval: 'full-auto' });
    let reasoning = '';
    let text = '';
    a.bus.on('turn.reasoning', (r) => (reasoning += r.text));
    a.bus.on('turn.delta', (d) => (text += d.text));
    a.parts.settings.setEffort('high');
    expect((await a.turn('think, then run something')).status).toBe('done');
    expect(reasoning).toContain('Let me think.');
    expect(text).toBe('done thinking.');
    const reqs = asked(from);
    expect(reqs.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
    const first = reqs[0].body;
    expect(first).toMatchObject({
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'high' },
      prompt_cache_key: a.parts.recorder.conv,
      instructions: expect.stringContaining('milk'),
    });
    expect((first.tools as Array<{ type: string; name: string }>).map((t) => t.type)).toContain('function');
    // The second request carries, in order: the question, the reasoning item as it came, the call, its output.
    const input = reqs[1].body.input as Array<Record<string, unknown>>;
    expect(input.map((i) => i.type ?? i.role)).toEqual(['user', 'reasoning', 'function_call', 'function_call_output']);
    expect(input[1]).toMatchObject({
      id: expect.stringMatching(/^rs_mock_/),
      encrypted_content: expect.stringMatching(/^enc-mock-/),
    });
    expect(input[2]).toMatchObject({
      call_id: 'call_1',
      name: 'shell',
      arguments: JSON.stringify({ command: 'echo thought-through' }),
    });
    expect(input[3]).toMatchObject({ call_id: 'call_1', output: expect.stringContaining('thought-through') });
    expect(a.usage).toHaveLength(2);
    expect(a.usage[1].cacheRead).toBeGreaterThan(0);
    // Priced as OpenAI's models are: an unknown one is not.
    a.parts.spending.settle();
    expect(a.parts.spending.session.unpriced).toBe(2);
  });

  it("a later turn sends no earlier turn's reasoning; errors read as the other providers'", async () => {
    const from = mock.requests.length;
    const a = agent(responses('reasoning'), { approval: 'full-auto' });
    await a.turn('one');
    await a.turn('two');
    const reqs = asked(from);
    const reasoningIn = (i: number) =>
      (reqs[i].body.input as Array<Record<string, unknown>>).filter((x) => x.type === 'reasoning').length;
    // Turn one: its call's answer goes with its reasoning; turn two's request carries none of it.
    expect(reqs.map((_, i) => reasoningIn(i))).toEqual([0, 1, 0]);
    const failing = agent(responses('status-401'));
    const end = await failing.turn('hi');
    expect(end).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/openai-responses: 401 unauthorized: OPENAI_API_KEY is not set/),
    });
    const cut = agent(responses('overloaded'));
    expect((await cut.turn('hi')).message).toMatch(/openai-responses: the server reported an error: Overloaded/);
  });

  it('a cancel hangs up on the server at once, the partial answer kept, and the next turn works', async () => {
    const a = agent(responses('slow:20'));
    let text = '';
    a.bus.on('turn.delta', (d) => (text += d.text));
    const ended = a.turn('tell me slowly');
    await new Promise<void>((resolve) => {
      const off = a.bus.on('turn.delta', () => {
        off();
        resolve();
      });
    });
    const req = mock.requests[mock.requests.length - 1] as MockRequest & { closedAt: number | null };
    a.parts.runner.cancel();
    expect((await ended).status).toBe('interrupted');
    expect(text.length).toBeGreaterThan(0);
    const deadline = Date.now() + 2000;
    while (req.closedAt === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(req.closedAt).not.toBeNull();
    a.parts.settings.setModel('short');
    expect((await a.turn('again')).status).toBe('done');
  });

  it('config.json\'s "api": "responses" sends that model\'s requests there; others stay on Chat Completions', async () => {
    const from = mock.requests.length;
    const provider = new OpenAIProvider({
      baseUrl: `${mock.url}/v1`,
      model: 'short',
      idleTimeoutMs: 5000,
      responsesModels: ['echo'],
    });
    const a = agent(provider);
    await a.turn('chat');
    a.parts.settings.setModel('echo');
    await a.turn('responses');
    expect(asked(from).map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/responses']);
  });
});

// Asynchronous on purpose: the mock server runs in this process and must keep answering.
function run(a: string[], cwd?: string) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...a], { env: { PATH: process.env.PATH ?? '', HOME: tempDir() }, cwd });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end('');
  });
}
const runArgs = (model: string, dataDir = tempDir()) => [
  '--data-dir',
  dataDir,
  'run',
  '--provider',
  'openai',
  '--base-url',
  `${mock.url}/v1`,
  '-m',
  model,
];

describe('milk run --output-format, -m, --effort', () => {
  it('json: one valid object at the end with the answer, the usage and its cost', async () => {
    const r = await run([...runArgs('gpt-4o'), '--output-format', 'json', 'hi']);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]);
    expect(result).toMatchObject({
      type: 'result',
      status: 'done',
      text: 'the quick brown fox jumps.',
      tool_calls: [],
      usage: { input: expect.any(Number), output: expect.any(Number), requests: 1 },
      conversation: expect.stringMatching(/\S/),
    });
    expect(result.usage.cost_usd).toBeGreaterThan(0);
  });

  it('stream-json (and --json, its alias): a usage event per request with its cost where the model is priced', async () => {
    for (const flag of [['--output-format', 'stream-json'], ['--json']]) {
      const r = await run([...runArgs('gpt-4o'), ...flag, 'hi']);
      expect(r.code).toBe(0);
      const events = r.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(events.find((e) => e.type === 'usage')).toMatchObject({
        input: expect.any(Number),
        cost_usd: expect.any(Number),
      });
      expect(events[events.length - 1]).toEqual({ type: 'end', status: 'done' });
    }
  });

  it('text is the default; a bad format is a usage error; --effort reaches the request', async () => {
    const from = mock.requests.length;
    const r = await run([...runArgs('short'), '--effort', 'medium', 'hi']);
    expect(r).toMatchObject({ code: 0, out: 'the quick brown fox jumps.\n' });
    expect(asked(from)[0].body.reasoning_effort).toBe('medium');
    const bad = await run([...runArgs('short'), '--output-format', 'yaml', 'hi']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/yaml/);
    const effort = await run([...runArgs('short'), '--effort', 'extreme', 'hi']);
    expect(effort.code).toBe(2);
  });

  it('--provider openai-responses streams through the Responses API', async () => {
    const from = mock.requests.length;
    const a = runArgs('short');
    a[a.indexOf('openai')] = 'openai-responses';
    const r = await run([...a, 'hi']);
    expect(r).toMatchObject({ code: 0, out: 'the quick brown fox jumps.\n' });
    expect(asked(from)[0].path).toBe('/v1/responses');
  });

  it('@path attaches an image (and a file) as the screen does; the notes go to stderr', async () => {
    const ws = fs.realpathSync(tempDir());
    fs.writeFileSync(`${ws}/shot.png`, png(200, 100));
    fs.writeFileSync(`${ws}/notes.txt`, 'line one\n');
    const from = mock.requests.length;
    const r = await run([...runArgs('echo'), 'compare @shot.png with @notes.txt, and mail me@example.com'], ws);
    expect(r.code).toBe(0);
    expect(r.err).toContain('attached [image shot.png 200×100]');
    expect(r.err).toContain('attached @notes.txt (1 line)');
    expect(r.out).toMatch(/\[1 image: image\/png\]/);
    const sent = JSON.stringify(asked(from)[0].body);
    expect(sent).toContain('me@example.com');
    expect(sent).toContain('<file path=\\"notes.txt\\" lines=\\"1\\">');
  });

  it('a cached second run of a conversation reports its cache reads', async () => {
    const data = tempDir();
    const ws = tempDir();
    await run([...runArgs('echo', data), 'first'], ws);
    const r = await run([...runArgs('echo', data), '--continue', '--json', 'second'], ws);
    const usage = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'usage');
    expect(usage.cache_read).toBeGreaterThan(0);
  });
});

describe('turns as long as the task', () => {
  it('a turn of 30 tool calls runs to the end with the default maxSteps', async () => {
    const a = agent(openai('loop:30'), { approval: 'full-auto' });
    let text = '';
    a.bus.on('turn.delta', (d) => (text += d.text));
    expect((await a.turn('walk')).status).toBe('done');
    expect(text).toBe('looped 30 times.');
  });

  it('past maxSteps the person is asked: yes goes on, no stops saying why; with no one to ask it stops', async () => {
    const yes = agent(openai('loop:5'), { approval: 'full-auto', maxSteps: 2 });
    const asked: number[] = [];
    yes.bus.on('turn.limit', ({ turnId, steps }) => {
      asked.push(steps);
      yes.bus.emit('turn.limitAnswered', { turnId, goOn: true });
    });
    expect((await yes.turn('walk')).status).toBe('done');
    expect(asked).toEqual([2, 4]);
    const no = agent(openai('loop:5'), { approval: 'full-auto', maxSteps: 2 });
    no.bus.on('turn.limit', ({ turnId }) => no.bus.emit('turn.limitAnswered', { turnId, goOn: false }));
    expect(await no.turn('walk')).toMatchObject({
      status: 'error',
      message: 'stopped after 2 model requests in one turn (maxSteps in config.json is 2; you chose to stop)',
    });
    const alone = agent(openai('loop:5'), { approval: 'full-auto', maxSteps: 3, unattended: true });
    expect((await alone.turn('walk')).message).toBe(
      'stopped after 3 model requests in one turn (maxSteps in config.json is 3)',
    );
  });
});

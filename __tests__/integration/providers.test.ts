// Providers against the real mock server over HTTP on 127.0.0.1: streaming,
// every failure, and cancel closing the connection. No mocked fetch.
import { Bus, Events } from '../../src/kernel/bus';
import { TurnRunner } from '../../src/turn/runner';
import { OpenAIProvider } from '../../src/providers/openai';
import { AnthropicProvider, alternate } from '../../src/providers/anthropic';
import type { Provider } from '../../src/providers/provider';
import { type Config, defaultConfig } from '../../src/config/config';
import * as net from 'node:net';
import { tempDir } from '../helpers/pty';

const { startMockServer } = require('../../scripts/mock-server');

interface MockRequest {
  scenario: string;
  startedAt: number;
  closedAt: number | null;
  completedAt: number | null;
  body: { messages: unknown[] };
  authorization: string;
  userAgent: string | null;
}
interface Mock {
  url: string;
  requests: MockRequest[];
  close(): Promise<void>;
}

let mock: Mock;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

interface Extra {
  apiKey?: string;
  idleTimeoutMs?: number;
  baseUrl?: string;
  config?: Config;
}

const KINDS = {
  openai: (model: string, extra: Extra = {}) =>
    new OpenAIProvider({
      baseUrl: extra.baseUrl ?? `${mock.url}/v1`,
      model,
      apiKey: extra.apiKey,
      idleTimeoutMs: extra.idleTimeoutMs ?? 5000,
      config: extra.config,
    }),
  anthropic: (model: string, extra: Extra = {}) =>
    new AnthropicProvider({
      baseUrl: extra.baseUrl ?? mock.url,
      model,
      apiKey: extra.apiKey,
      idleTimeoutMs: extra.idleTimeoutMs ?? 5000,
      config: extra.config,
    }),
};

async function turn(provider: Provider, input = 'hello', runner?: TurnRunner, bus?: Bus) {
  const b = bus ?? new Bus();
  const r = runner ?? new TurnRunner(b, provider);
  let text = '';
  const offDelta = b.on('turn.delta', (d) => (text += d.text));
  const ended = new Promise<Events['turn.ended']>((resolve) => {
    const off = b.on('turn.ended', (e) => {
      off();
      resolve(e);
    });
  });
  r.start(input);
  const end = await ended;
  offDelta();
  return { text, end };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

describe.each(Object.keys(KINDS) as Array<keyof typeof KINDS>)('%s provider', (kind) => {
  const make = KINDS[kind];
  const keyVar = kind === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';

  it('streams an answer', async () => {
    const { text, end } = await turn(make('short'));
    expect(end.status).toBe('done');
    expect(text).toBe('the quick brown fox jumps.');
  });

  it(
    'never runs or asks about a tool call whose JSON arguments were cut off: the person sees it fail, the model is ' +
      'told',
    async () => {
      const bus = new Bus();
      const p = make('tools-cut');
      const runner = new TurnRunner(bus, p, { workspace: tempDir() });
      const seen: Array<[string, unknown]> = [];
      for (const n of ['approval.asked', 'tool.started', 'tool.finished'] as const) bus.on(n, (e) => seen.push([n, e]));
      const before = mock.requests.length;
      const { end } = await turn(p, 'look', runner, bus);
      expect(end.status).toBe('done');
      expect(seen.map(([n]) => n)).toEqual(['tool.started', 'tool.finished']);
      expect(seen[0][1]).toMatchObject({
        summary: 'shell: not run',
        detail: expect.stringContaining('not valid JSON'),
      });
      expect(seen[1][1]).toMatchObject({ ok: false, status: 'invalid arguments' });
      // The second request carries the refusal back to the model.
      expect(JSON.stringify(mock.requests[before + 1].body.messages)).toContain(
        'was not run: its arguments are not valid JSON',
      );
    },
  );

  it('stops at the end of the answer ([DONE], message_stop) though the server keeps the connection open and sends more', async () => {
    const before = mock.requests.length;
    const { text, end } = await turn(make('linger'));
    expect(end.status).toBe('done');
    expect(text).toBe('the quick brown fox jumps.');
    // The client hung up rather than waiting for the idle timeout (the server sees it a moment later).
    const deadline = Date.now() + 3000;
    while (mock.requests[before].closedAt === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(mock.requests[before].closedAt).not.toBeNull();
  });

  it('hides the key where a server error echoes it', async () => {
    const key = 'sk-live-SECRETKEY1234567890';
    const { end } = await turn(make('echo-key-error', { apiKey: key }));
    expect(end.status).toBe('error');
    expect(end.message).toMatch(/the server answered 400: invalid request with header/);
    expect(end.message).not.toMatch(/SECRETKEY/);
    expect(end.message).toContain('[redacted');
  });

  it.each([
    ['endless-line', /one event of the stream passed 8 MiB; the answer was stopped there/],
    ['endless-args', /a tool call's arguments passed 4 MiB; the answer was stopped there/],
  ])('stops a stream that would grow without bound (%s), with a message, and hangs up', async (model, message) => {
    const before = mock.requests.length;
    const { end } = await turn(make(model));
    expect(end.status).toBe('error');
    expect(end.message).toMatch(message);
    const deadline = Date.now() + 3000;
    while (mock.requests[before].closedAt === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(mock.requests[before].closedAt).not.toBeNull();
  });

  it.each([
    ['gzip', /the server sent its answer compressed \(gzip\) though milk asked for it plain/],
    ['huge-headers', /response headers were larger than Node accepts/],
  ])('says what happened when the response is %s', async (model, message) => {
    const { end } = await turn(make(model));
    expect(end.status).toBe('error');
    expect(end.message).toMatch(message);
  });

  it('counts whole events as life, not bytes: an event dripping a byte every 50 ms ends at the idle timeout', async () => {
    const { end } = await turn(make('slow-event', { idleTimeoutMs: 500 }));
    expect(end.status).toBe('error');
    expect(end.message).toMatch(/no data from the server for 1s; gave up/);
  });

  it('counts a keep-alive comment as life: comments for longer than the idle timeout, then the answer', async () => {
    const { text, end } = await turn(make('keepalive', { idleTimeoutMs: 500 }));
    expect(end.status).toBe('done');
    expect(text).toBe('x'.repeat(30));
  });

  it('gives up on a request not ended by requestTimeoutMs, however steadily the server sends, keeping its words', async () => {
    const config = { ...defaultConfig, requestTimeoutMs: 1000 };
    const started = Date.now();
    // 200 words, one every 100 ms: never idle, done only after 20 s.
    const { text, end } = await turn(make('slow', { config }));
    expect(end.status).toBe('error');
    expect(end.message).toMatch(
      /the request had not ended 1s after it was sent \(requestTimeoutMs\); gave up \(the answer above is incomplete\)/,
    );
    expect(text.split(' ').length).toBeGreaterThan(3);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('sends the conversation as context on each turn', async () => {
    const bus = new Bus();
    const p = make('echo');
    const runner = new TurnRunner(bus, p);
    await turn(p, 'first', runner, bus);
    const second = await turn(p, 'second', runner, bus);
    expect(second.text).toBe('echo: second (3 messages)');
  });

  it('explains a 401 by the missing key, and a 403 by the rejected key, without printing it', async () => {
    const missing = await turn(make('status-401'));
    expect(missing.end).toMatchObject({ status: 'error', message: expect.stringContaining(`${keyVar} is not set`) });
    const secret = 'sk-test-' + 'q'.repeat(30);
    const rejected = await turn(make('status-403', { apiKey: secret }));
    expect(rejected.end.message).toContain(`the API key in ${keyVar} was rejected`);
    expect(rejected.end.message).not.toContain(secret);
  });

  it('retries a 429 once, then succeeds', async () => {
    const model = `flaky-429`;
    const before = mock.requests.filter((r) => r.scenario === model).length;
    const { text, end } = await turn(make(model));
    expect(end.status).toBe('done');
    expect(text).toBe('the quick brown fox jumps.');
    expect(mock.requests.filter((r) => r.scenario === model).length - before).toBe(2);
  });

  it.each([
    ['status-429', /rate limited/],
    ['status-503', /server error 503/],
  ])('gives a message after one retry on %s', async (model, message) => {
    const before = mock.requests.filter((r) => r.scenario === model).length;
    const { end } = await turn(make(model));
    expect(end.status).toBe('error');
    expect(end.message).toMatch(message);
    expect(mock.requests.filter((r) => r.scenario === model).length - before).toBe(2);
  });

  it('reports a refused connection', async () => {
    const port = await freePort();
    const { end } = await turn(make('short', { baseUrl: `http://127.0.0.1:${port}${kind === 'openai' ? '/v1' : ''}` }));
    expect(end.message).toMatch(/connection refused/);
  });

  it('never prints a key carried in the base URL query', async () => {
    const port = await freePort();
    const { end } = await turn(
      make('short', { baseUrl: `http://127.0.0.1:${port}${kind === 'openai' ? '/v1' : ''}?api_key=SECRET2` }),
    );
    expect(end.message).toMatch(/connection refused at http:\/\/127\.0\.0\.1:\d+\/(v1)?\?\[redacted\]/);
    expect(end.message).not.toMatch(/SECRET/);
  });

  it('says what is wrong with credentials in the base URL, without printing them', async () => {
    const { end } = await turn(
      make('short', { baseUrl: `http://user:SECRET1@127.0.0.1:9${kind === 'openai' ? '/v1' : ''}` }),
    );
    expect(end.message).toMatch(/base URL http:\/\/\[redacted\]@127\.0\.0\.1:9\/(v1)? holds a user name or password/);
    expect(end.message).not.toMatch(/SECRET/);
  });

  it('reaches a server on a port that fetch refuses, as curl does', async () => {
    // Ports on fetch's blocked list: the first one free here.
    let other: Mock | null = null;
    for (const port of [10080, 6000, 6665, 6666, 6667, 6668, 6669, 4045]) {
      other = (await startMockServer({ port }).catch(() => null)) as Mock | null;
      if (other) break;
    }
    if (!other) throw new Error('every port tried is taken');
    try {
      const { text, end } = await turn(make('short', { baseUrl: `${other.url}${kind === 'openai' ? '/v1' : ''}` }));
      expect(end.status).toBe('done');
      expect(text).toBe('the quick brown fox jumps.');
    } finally {
      await other.close();
    }
  });

  it('says so when an https:// base URL points at a plain HTTP server', async () => {
    const { end } = await turn(
      make('short', { baseUrl: `${mock.url.replace('http:', 'https:')}${kind === 'openai' ? '/v1' : ''}` }),
    );
    expect(end.message).toMatch(
      /^\w+: https:\/\/127\.0\.0\.1:\d+\/(v1)? does not speak TLS; if the server is plain HTTP, use http:\/\/$/,
    );
  });

  it('says where a redirect points instead of following it, without its query', async () => {
    const { end } = await turn(make('moved'));
    const path = kind === 'openai' ? '/v1/chat/completions' : '/v1/messages';
    expect(end.message).toBe(
      `${kind}: the server answered 308: it moved to ${mock.url}/elsewhere${path}?[redacted]; set the base URL to ` +
        `match`,
    );
  });

  it('sends the key only when one is set, and names itself', async () => {
    for (const [apiKey, expected] of [
      ['sk-test', 'present'],
      [undefined, 'absent'],
    ] as const) {
      const before = mock.requests.length;
      const { end } = await turn(make('short', { apiKey }));
      expect(end.status).toBe('done');
      expect(mock.requests[before].authorization).toBe(expected);
      expect(mock.requests[before].userAgent).toMatch(/^milk \(Node\.js v\d+/);
    }
  });

  it("gives the server's own words for a 4xx it does not retry", async () => {
    const before = mock.requests.filter((r) => r.scenario === 'status-404').length;
    const { end } = await turn(make('status-404'));
    expect(end.message).toBe(`${kind}: the server answered 404: mock status 404`);
    expect(mock.requests.filter((r) => r.scenario === 'status-404').length - before).toBe(1);
  });

  it('reports an error the server sends mid-stream, and keeps what came before', async () => {
    const { text, end } = await turn(make('overloaded'));
    expect(text).toBe('first ');
    expect(end).toMatchObject({
      status: 'error',
      message: `${kind}: the server reported an error: Overloaded (the answer above is incomplete)`,
    });
  });

  it('cuts an endless answer at the cap, hangs up, and keeps later turns small and working', async () => {
    // One runner, two models: the endless one, then echo to see what the next request carries.
    let current: Provider = make('endless');
    const switching: Provider = { name: 'switch', stream: (m, sig, o) => current.stream(m, sig, o) };
    const bus = new Bus();
    const runner = new TurnRunner(bus, switching, { maxAnswerChars: 200_000, maxKeptChars: 10_000 });
    const first = await turn(switching, 'go on forever', runner, bus);
    expect(first.end.status).toBe('error');
    expect(first.end.message).toMatch(/passed 200,000 characters and was stopped there/);
    expect(first.text.length).toBe(200_000);
    const endless = mock.requests.filter((r) => r.scenario === 'endless').pop()!;
    for (const deadline = Date.now() + 3000; endless.closedAt === null && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 10));
    expect(endless.closedAt).not.toBeNull();
    current = make('echo');
    const before = mock.requests.length;
    const second = await turn(switching, 'and now?', runner, bus);
    expect(second.end.status).toBe('done');
    const sent = JSON.stringify(mock.requests[before].body.messages);
    expect(sent.length).toBeLessThan(20_000);
    expect(sent).toContain('[the rest of this answer was cut off]');
  });

  it('names the model /model switched to (in the settings) in the next request', async () => {
    const provider = make('short');
    expect(provider.model).toBe('short');
    const bus = new Bus();
    const runner = new TurnRunner(bus, provider);
    expect(runner.settings.setModel('echo')).toBe(true);
    const before = mock.requests.length;
    const { text } = await turn(provider, 'which model?', runner, bus);
    expect(mock.requests[before].scenario).toBe('echo');
    expect(text).toMatch(/^echo: which model\?/);
  });

  it('reports what a request cost when the server says, and nothing when it does not', async () => {
    for (const [model, expected] of [
      ['short', true],
      ['nousage', false],
    ] as const) {
      const bus = new Bus();
      const usage: Array<Events['turn.usage']> = [];
      bus.on('turn.usage', (u) => usage.push(u));
      const { end } = await turn(make(model), 'count my tokens', undefined, bus);
      expect(end.status).toBe('done');
      if (expected) {
        expect(usage).toHaveLength(1);
        expect(usage[0].input).toBeGreaterThan(0);
        expect(usage[0].output).toBeGreaterThan(0);
      } else {
        expect(usage).toEqual([]);
      }
    }
  });

  it('reports a host that does not resolve (.invalid never does)', async () => {
    const { end } = await turn(
      make('short', { baseUrl: `http://no-such-host.invalid${kind === 'openai' ? '/v1' : ''}`, idleTimeoutMs: 3000 }),
    );
    // Without a resolver that answers, the lookup times out instead; both are clear.
    expect(end.message).toMatch(
      /cannot resolve the host of http:\/\/no-such-host\.invalid|timed out|no data from the server/,
    );
  });

  it('reports a malformed stream and keeps what came before', async () => {
    const { text, end } = await turn(make('malformed'));
    expect(text).toBe('first ');
    expect(end.message).toMatch(/malformed stream .*incomplete/);
  });

  it('keeps the partial answer when the server closes mid-stream', async () => {
    const { text, end } = await turn(make('drop'));
    expect(text).toBe('the quick brown fox jumps over the lazy dog ');
    expect(end).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/closed mid-answer \(the answer above is incomplete\)/),
    });
  });

  it.each(['hang', 'hang-headers'])('gives up on a server that stops sending (%s)', async (model) => {
    const t = Date.now();
    const { end } = await turn(make(model, { idleTimeoutMs: 300 }));
    expect(end.message).toMatch(/no data from the server|timed out/);
    expect(Date.now() - t).toBeLessThan(5000);
  });

  it('closes the connection within 200 ms of a cancel, and the next turn works', async () => {
    const bus = new Bus();
    const p = make('slow:50');
    const runner = new TurnRunner(bus, p);
    let first = '';
    bus.on('turn.delta', (d) => (first += d.text));
    runner.start('go');
    const deadline = Date.now() + 5000;
    while (first.length < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const req = mock.requests[mock.requests.length - 1];
    const cancelledAt = Date.now();
    runner.cancel();
    expect(runner.busy).toBe(false);
    while (req.closedAt === null && Date.now() - cancelledAt < 1000) await new Promise((r) => setTimeout(r, 5));
    expect(req.closedAt).not.toBeNull();
    expect(req.closedAt! - cancelledAt).toBeLessThan(200);
    const next = await turn(make('short'));
    expect(next.end.status).toBe('done');
  });
});

describe('anthropic message shape', () => {
  it('merges consecutive messages of one role and starts with the user', () => {
    expect(
      alternate([
        { role: 'assistant', content: 'stray' },
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
        { role: 'assistant', content: 'c' },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'c' }] },
    ]);
  });
  it('sends tool calls as tool_use and results as user tool_result blocks', () => {
    expect(
      alternate([
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'shell', args: { command: 'ls' } }] },
        { role: 'tool', toolCallId: 't1', name: 'shell', content: 'out' },
      ]),
    ).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shell', input: { command: 'ls' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'out' }] },
    ]);
  });
});

// web_search against local services only: a mock SearXNG and a mock Brave Search (scripts/mock-search.js) on
// 127.0.0.1, asked by the agent as the full screen and milk run have it; the approval modes and the per-service
// rules; a service's hostile answer made inert; the provider's own search sent only where the person allowed it.
import { OpenAIProvider } from '../../src/providers/openai';
import { ResponsesProvider } from '../../src/providers/responses';
import { AnthropicProvider } from '../../src/providers/anthropic';
import type { WebSearchConfig } from '../../src/protocol/tools';
import type { Events } from '../../src/kernel/bus';
import { agent } from '../helpers/agent';
import { withHttpProxy } from '../helpers/proxy-env';

const { startMockServer } = require('../../scripts/mock-server');
const { startMockSearch } = require('../../scripts/mock-search');
const { startMockProxy } = require('../../scripts/mock-proxy');

type Served = { url: string; requests: Array<Record<string, unknown>>; close(): Promise<void> };
let mock: Served;
let search: Served;
beforeAll(async () => {
  mock = await startMockServer();
  search = await startMockSearch({ braveKey: 'brave-test-key' });
});
afterAll(async () => {
  await search.close();
  await mock.close();
});

const openai = (model = 'websearch') => new OpenAIProvider({ baseUrl: `${mock.url}/v1`, model, idleTimeoutMs: 5000 });

/** One turn searching for `query` through `webSearch`; what the model was answered, and what the screen was shown. */
async function searched(
  query: string,
  webSearch: WebSearchConfig,
  approval: 'full-auto' | 'read-only' | 'plan' | 'ask' = 'full-auto',
) {
  const a = agent(openai(), { approval, webSearch, unattended: approval === 'ask' });
  let content = '';
  const shown: string[] = [];
  a.bus.on('conversation.message', ({ message }) => {
    if (message.role === 'tool') content = message.content;
  });
  a.bus.on('tool.started', ({ detail }) => shown.push(detail));
  a.bus.on('tool.result', ({ text }) => shown.push(text));
  a.bus.on('tool.finished', ({ head, status }) => shown.push(`${head ?? ''} · ${status ?? ''}`));
  await a.turn(query);
  return { content, shown: shown.join('\n') };
}

const searxng = (): WebSearchConfig => ({ service: 'searxng', url: search.url });
const brave = (apiKeyEnv = 'MILK_TEST_BRAVE'): WebSearchConfig => ({
  service: 'brave',
  apiKeyEnv,
  url: `${search.url}/res/v1/web/search`,
});

describe('web_search through a configured service', () => {
  it("returns SearXNG's results as title, URL and snippet, and shows the search", async () => {
    const { content, shown } = await searched('widget levers', searxng());
    expect(content).toBe(
      '3 results for "widget levers":\n' +
        '1. Result 1 for widget levers\n   https://example.org/1?q=widget%20levers\n   snippet 1 about widget levers\n' +
        '2. Result 2 for widget levers\n   https://example.org/2?q=widget%20levers\n   snippet 2 about widget levers\n' +
        '3. Result 3 for widget levers\n   https://example.org/3?q=widget%20levers\n   snippet 3 about widget levers',
    );
    expect(shown).toContain('Search the web for widget levers');
    expect(shown).toContain('Searched the web for widget levers · 3 results · searxng');
    const asked = search.requests.find((r) => r.q === 'widget levers');
    expect(asked).toMatchObject({ path: '/search', format: 'json' });
  });

  it('asks Brave with the key from its variable, and says which variable is unset', async () => {
    process.env.MILK_TEST_BRAVE = 'brave-test-key';
    try {
      const { content } = await searched('brass oil', brave());
      expect(content).toMatch(/^3 results for "brass oil":\n1\. Result 1 for brass oil\n {3}https:\/\/example\.org\/1/);
      expect(search.requests.find((r) => r.q === 'brass oil')).toMatchObject({
        path: '/res/v1/web/search',
        key: 'present',
      });
      process.env.MILK_TEST_BRAVE = 'wrong';
      expect((await searched('wrong key', brave())).content).toMatch(/answered 401 \(is the API key right\?\)/);
    } finally {
      delete process.env.MILK_TEST_BRAVE;
    }
    const unset = await searched('no key', brave('MILK_TEST_BRAVE_UNSET'));
    expect(unset.content).toBe(
      'error: MILK_TEST_BRAVE_UNSET is not set: Brave Search needs its API key there (config webSearch)',
    );
    expect(search.requests.some((r) => r.q === 'no key')).toBe(false);
  });

  it('makes a hostile answer inert: no control sequence reaches the model or the screen, no javascript: link', async () => {
    const { content, shown } = await searched('hostile', searxng());
    for (const text of [content, shown]) {
      expect(text).not.toMatch(/\x1b|\x07/);
      expect(text).not.toContain('javascript:');
    }
    expect(content).toContain('bold page\n   https://ok.example/b\n   a marked word');
    expect(content).toMatch(/^2 results for "hostile"/);
  });

  it('says what went wrong: no results, an answer that is not JSON (SearXNG without its json format)', async () => {
    expect((await searched('none', searxng())).content).toBe('no results for "none"');
    expect((await searched('broken', searxng())).content).toMatch(
      /^error: SearXNG \(http:\/\/127\.0\.0\.1:\d+\/search\?\[redacted\]\) did not answer JSON \(its settings\.yml must list json/,
    );
    expect((await searched('none', brave('MILK_TEST_BRAVE_NONE'))).content).toMatch(/MILK_TEST_BRAVE_NONE is not set/);
  });

  it('is refused in read-only and plan mode, and runs unasked only by a rule naming its service', async () => {
    for (const mode of ['read-only', 'plan'] as const) {
      const { content } = await searched(`refused ${mode}`, searxng(), mode);
      expect(content).toMatch(/refused|not allowed|read-only|plan/i);
      expect(search.requests.some((r) => r.q === `refused ${mode}`)).toBe(false);
    }
    // milk run (no one to ask): refused in ask mode without a rule, run with `web_search searxng`.
    const a = agent(openai(), { approval: 'ask', webSearch: searxng(), unattended: true });
    let content = '';
    a.bus.on('conversation.message', ({ message }) => message.role === 'tool' && (content = message.content));
    await a.turn('unruled');
    expect(search.requests.some((r) => r.q === 'unruled')).toBe(false);
    a.parts.settings.setRules([{ tool: 'web_search', prefix: 'brave' }]);
    await a.turn('ruled for brave');
    expect(search.requests.some((r) => r.q === 'ruled for brave')).toBe(false);
    a.parts.settings.setRules([{ tool: 'web_search', prefix: 'searxng' }]);
    await a.turn('ruled for searxng');
    expect(content).toMatch(/^3 results for "ruled for searxng"/);
  });

  it('goes through the proxy the environment names', async () => {
    const proxy = await startMockProxy();
    try {
      await withHttpProxy(proxy.url, async () => {
        const { content } = await searched('proxied', searxng());
        expect(content).toMatch(/^3 results for "proxied"/);
        expect(proxy.forwarded).toContain(`GET ${new URL(search.url).host}/search`);
      });
    } finally {
      await proxy.close();
    }
  });

  it('is not offered when no service is configured', async () => {
    const a = agent(openai('short'), { approval: 'full-auto' });
    await a.turn('hello');
    const names = (mock.requests.at(-1)?.body as { tools?: Array<{ function: { name: string } }> }).tools?.map(
      (t) => t.function.name,
    );
    expect(names).toContain('web_fetch');
    expect(names).not.toContain('web_search');
  });
});

describe("the provider's own search", () => {
  const responses = () =>
    new ResponsesProvider({ baseUrl: `${mock.url}/v1`, model: 'replay-responses-web-search', idleTimeoutMs: 5000 });
  const anthropic = () =>
    new AnthropicProvider({ baseUrl: mock.url, model: 'replay-anthropic-web-search', idleTimeoutMs: 5000 });

  /** One turn; the tools its request carried, and the blocks and notes the screen was shown. */
  async function turn(provider: () => ResponsesProvider | AnthropicProvider, extra: Parameters<typeof agent>[1]) {
    const a = agent(provider(), extra);
    const seen: string[] = [];
    const on = <K extends keyof Events>(k: K, f: (e: Events[K]) => string | undefined) =>
      a.bus.on(k, (e) => void seen.push(f(e) ?? ''));
    on('tool.started', (e) => `started ${e.detail}`);
    on('tool.result', (e) => e.text);
    on('tool.finished', (e) => `finished ${e.head} · ${e.status}`);
    on('transcript.note', (e) => e.text);
    const before = mock.requests.length;
    await a.turn('when was node 24 released?');
    const tools = (mock.requests[before].body as { tools?: Array<{ type?: string; name?: string }> }).tools ?? [];
    return { tools, seen: seen.join('\n') };
  }

  it('goes with a Responses request only when config or a rule allows it, in a mode that allows the network', async () => {
    const allowed = await turn(responses, { approval: 'ask', webSearch: { service: 'provider' } });
    expect(allowed.tools).toContainEqual({ type: 'web_search' });
    expect(allowed.seen).toContain('started Search the web for node.js 24 release date');
    expect(allowed.seen).toContain(
      '1. https://nodejs.org/en/blog/release/v24.0.0\n2. https://github.com/nodejs/node/releases/tag/v24.0.0',
    );
    expect(allowed.seen).toContain(
      "finished Searched the web for node.js 24 release date · 2 sources · the provider's search",
    );
    expect(allowed.seen).toContain(
      'sources cited:\n1. Node.js — Node v24.0.0 (Current)\n   https://nodejs.org/en/blog/release/v24.0.0?utm_source=openai',
    );
    const unasked = await turn(responses, { approval: 'ask' });
    expect(unasked.tools).not.toContainEqual({ type: 'web_search' });
    const readOnly = await turn(responses, { approval: 'read-only', webSearch: { service: 'provider' } });
    expect(readOnly.tools).not.toContainEqual({ type: 'web_search' });
    // A service configured: web_search is milk's, the provider's is not sent beside it.
    const own = await turn(responses, { approval: 'ask', webSearch: { service: 'searxng', url: search.url } });
    expect(own.tools).not.toContainEqual({ type: 'web_search' });
  });

  it('goes with an Anthropic request by a rule, and its server_tool_use and results are shown as a search', async () => {
    const a = agent(anthropic(), { approval: 'auto-edit' });
    a.parts.settings.setRules([{ tool: 'web_search', prefix: 'provider' }]);
    const before = mock.requests.length;
    const seen: string[] = [];
    a.bus.on('tool.finished', (e) => void seen.push(`${e.head} · ${e.status}`));
    a.bus.on('tool.result', (e) => void seen.push(e.text));
    await a.turn('what does --unshare-net do?');
    const tools = (mock.requests[before].body as { tools: Array<{ type?: string; name?: string }> }).tools;
    expect(tools[0]).toEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 5 });
    expect(seen).toContain("Searched the web for bubblewrap --unshare-net · 2 sources · the provider's search");
    expect(seen.join('\n')).toContain('2. containers/bubblewrap: Low-level unprivileged sandboxing tool');
  });

  it('is never sent past a deny rule for web_search', async () => {
    const a = agent(responses(), { approval: 'full-auto', webSearch: { service: 'provider' } });
    a.parts.settings.setRules([], [{ tool: 'web_search' }]);
    const before = mock.requests.length;
    await a.turn('hi');
    expect((mock.requests[before].body as { tools?: unknown[] }).tools ?? []).not.toContainEqual({
      type: 'web_search',
    });
  });
});

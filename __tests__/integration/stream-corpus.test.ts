// The replay corpus: streams in the shapes real provider APIs send them
// (__tests__/fixtures/streams, each file saying whose shape it is and where it
// is documented), served byte for byte by the mock server over HTTP and read by
// milk's providers. Each must come out exactly: text, reasoning, thinking
// blocks, every tool call's id, name and arguments, usage, and the notices.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OpenAIProvider } from '../../src/providers/openai';
import { AnthropicProvider } from '../../src/providers/anthropic';
import { ResponsesProvider } from '../../src/providers/responses';
import type { Provider, StreamItem } from '../../src/providers/provider';

const { startMockServer } = require('../../scripts/mock-server');

const DIR = path.join(__dirname, '..', 'fixtures', 'streams');

interface Expected {
  provider: 'openai' | 'anthropic' | 'responses';
  text: string;
  reasoning: string;
  thinking?: Array<{ text: string; signature: string }>;
  toolCalls: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  usage: Array<{ input: number; output: number }>;
  notices: string[];
  /** The provider's own web searches, and the sources its answer cites (query null). */
  searches?: unknown[];
}

const expected = JSON.parse(fs.readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as Record<string, Expected>;

let mock: { url: string; close(): Promise<void> };
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

function provider(kind: Expected['provider'], name: string): Provider {
  const model = `replay-${name}`;
  if (kind === 'responses') return new ResponsesProvider({ baseUrl: `${mock.url}/v1`, model, idleTimeoutMs: 5000 });
  return kind === 'openai'
    ? new OpenAIProvider({ baseUrl: `${mock.url}/v1`, model, idleTimeoutMs: 5000 })
    : new AnthropicProvider({ baseUrl: mock.url, model, idleTimeoutMs: 5000 });
}

async function replay(kind: Expected['provider'], name: string) {
  const got = {
    text: '',
    reasoning: '',
    thinking: [] as unknown[],
    toolCalls: [] as unknown[],
    usage: [] as unknown[],
    searches: [] as unknown[],
  };
  const notices: string[] = [];
  const items: StreamItem[] = [];
  // The provider's own search asked for, as the person allowing it would: a stream without one reads the same.
  const options = { webSearch: true };
  const stream = provider(kind, name).stream([{ role: 'user', content: 'hi' }], new AbortController().signal, options);
  for await (const item of stream) items.push(item);
  for (const item of items) {
    if (typeof item === 'string') got.text += item;
    else if ('reasoning' in item) got.reasoning += item.reasoning;
    else if ('thinking' in item) got.thinking.push(item.thinking);
    else if ('toolCall' in item) got.toolCalls.push(item.toolCall);
    else if ('usage' in item) got.usage.push(item.usage);
    else if ('notice' in item) notices.push(item.notice);
    else if ('search' in item) got.searches.push(item.search);
    else throw new Error(`an item of no known kind: ${JSON.stringify(item)}`);
  }
  return { ...got, notices };
}

test('every recording in the corpus has its expectation, and every expectation its recording', () => {
  const files = fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith('.sse'))
    .map((f) => f.slice(0, -4))
    .sort();
  expect(Object.keys(expected).sort()).toEqual(files);
  expect(files.length).toBeGreaterThanOrEqual(15);
});

test.each(Object.entries(expected))('%s is reconstructed exactly', async (name, want) => {
  const got = await replay(want.provider, name);
  expect(got.text).toBe(want.text);
  expect(got.reasoning).toBe(want.reasoning);
  expect(got.thinking).toEqual(want.thinking ?? []);
  expect(got.toolCalls).toEqual(want.toolCalls);
  expect(got.usage).toEqual(want.usage);
  expect(got.notices).toEqual(want.notices);
  expect(got.searches).toEqual(want.searches ?? []);
});

// The mock model server for a test file (started before its tests, closed
// after) and a provider of each protocol pointed at it.
import type { Provider } from '../../src/providers/provider';
import { OpenAIProvider } from '../../src/providers/openai';
import { AnthropicProvider } from '../../src/providers/anthropic';

const { startMockServer } = require('../../scripts/mock-server');

export interface MockRequest {
  scenario: string;
  body: { messages: Array<{ role: string; content: unknown } & Record<string, unknown>>; system?: unknown };
}

export interface Mock {
  url: string;
  requests: MockRequest[];
  close(): Promise<void>;
}

/** Starts the server before the file's tests and closes it after; read `.current` inside a test. */
export function useMockServer(): { current: Mock } {
  const holder = { current: null as unknown as Mock };
  beforeAll(async () => {
    holder.current = await startMockServer();
  });
  afterAll(() => holder.current.close());
  return holder;
}

/** A provider of each protocol, for a scenario (the model name), against the server. */
export function protocols(mock: { current: Mock }): Record<'openai' | 'anthropic', (model: string) => Provider> {
  return {
    openai: (model) => new OpenAIProvider({ baseUrl: `${mock.current.url}/v1`, model, idleTimeoutMs: 5000 }),
    anthropic: (model) => new AnthropicProvider({ baseUrl: mock.current.url, model, idleTimeoutMs: 5000 }),
  };
}

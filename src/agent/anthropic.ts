// The Anthropic Messages API, streamed through the official SDK, with the
// same retry, idle-timeout and error rules as the OpenAI provider.

import type Anthropic from '@anthropic-ai/sdk';
import { ChatMessage, Provider } from './provider';
import { guardedStream } from './errors';

export interface AnthropicOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  idleTimeoutMs: number;
  maxTokens?: number;
}

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';

/** The Messages API wants alternating roles starting with the user: merge runs, drop a leading reply. */
export function alternate(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last && last.role === m.role) out[out.length - 1] = { role: m.role, content: `${last.content}\n\n${m.content}` };
    else if (out.length > 0 || m.role === 'user') out.push({ ...m });
  }
  return out;
}

export class AnthropicProvider implements Provider {
  readonly name = 'anthropic';
  readonly hint: string;
  private client: Anthropic | null = null;

  constructor(private readonly options: AnthropicOptions) {
    this.hint = `anthropic · ${options.model}`;
  }

  private getClient(): Anthropic {
    if (!this.client) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Anthropic: Client } = require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk');
      this.client = new Client({
        baseURL: this.options.baseUrl,
        apiKey: this.options.apiKey || 'no-key-set',
        maxRetries: 1,
        // The SDK would print parse failures to stderr, over the screen; we report them ourselves.
        logLevel: 'off',
        timeout: this.options.idleTimeoutMs,
      });
    }
    return this.client;
  }

  stream(messages: readonly ChatMessage[], signal: AbortSignal): AsyncIterable<string> {
    const o = this.options;
    return guardedStream<Anthropic.Messages.RawMessageStreamEvent>({
      provider: 'anthropic', baseUrl: o.baseUrl, keyVariable: 'ANTHROPIC_API_KEY', keySet: !!o.apiKey, idleTimeoutMs: o.idleTimeoutMs,
      open: (sig) => this.getClient().messages.create(
        { model: o.model, max_tokens: o.maxTokens ?? 4096, messages: alternate(messages), stream: true },
        { signal: sig },
      ),
      read: (event) => ({
        text: event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? event.delta.text : undefined,
        finished: event.type === 'message_stop',
      }),
    }, signal);
  }
}

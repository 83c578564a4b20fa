// Any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, llama.cpp,
// vLLM), streamed through the official SDK. The SDK retries a 429 or 5xx once
// with backoff; an idle watchdog gives up on a server that stops sending.

import type OpenAI from 'openai';
import { ChatMessage, Provider } from './provider';
import { guardedStream } from './errors';

export interface OpenAIOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  idleTimeoutMs: number;
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

export class OpenAIProvider implements Provider {
  readonly name = 'openai';
  readonly hint: string;
  private client: OpenAI | null = null;

  constructor(private readonly options: OpenAIOptions) {
    this.hint = `openai · ${options.model}`;
  }

  private getClient(): OpenAI {
    if (!this.client) {
      // Loaded on first use: the SDK costs start-up time the offline default shouldn't pay.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { OpenAI: Client } = require('openai') as typeof import('openai');
      this.client = new Client({
        baseURL: this.options.baseUrl,
        // Local servers need no key; a real one answers 401, which we explain.
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
    return guardedStream<OpenAI.Chat.Completions.ChatCompletionChunk>({
      provider: 'openai', baseUrl: o.baseUrl, keyVariable: 'OPENAI_API_KEY', keySet: !!o.apiKey, idleTimeoutMs: o.idleTimeoutMs,
      open: (sig) => this.getClient().chat.completions.create(
        { model: o.model, messages: messages.map((m) => ({ role: m.role, content: m.content })), stream: true },
        { signal: sig },
      ),
      read: (chunk) => ({ text: chunk.choices?.[0]?.delta?.content ?? undefined, finished: !!chunk.choices?.[0]?.finish_reason }),
    }, signal);
  }
}

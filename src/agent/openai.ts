// Any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, llama.cpp,
// vLLM), streamed through the official SDK. The SDK retries a 429 or 5xx once
// with backoff; an idle watchdog gives up on a server that stops sending.

import type OpenAI from 'openai';
import type { ChatMessage, StreamItem, StreamOptions } from './provider';
import { SdkOptions, SdkProvider } from './sdk-provider';
import { guardedStream } from './errors';

export type OpenAIOptions = SdkOptions;

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

export class OpenAIProvider extends SdkProvider<OpenAI, OpenAIOptions> {
  constructor(options: OpenAIOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    super('openai', options, (o) => new (require('openai') as typeof import('openai')).OpenAI(o));
  }

  stream(messages: readonly ChatMessage[], signal: AbortSignal, options: StreamOptions = {}): AsyncIterable<StreamItem> {
    const o = this.options;
    // Tool calls arrive in pieces, by index; they are complete at finish_reason.
    const pending = new Map<number, { id: string; name: string; args: string }>();
    return guardedStream<OpenAI.Chat.Completions.ChatCompletionChunk>({
      provider: 'openai', baseUrl: o.baseUrl, keyVariable: 'OPENAI_API_KEY', keySet: !!o.apiKey, idleTimeoutMs: o.idleTimeoutMs,
      open: (sig) => this.getClient().chat.completions.create(
        {
          model: o.model,
          messages: toOpenAI(messages),
          stream: true,
          // The last chunk then carries what the request cost (servers that don't know the option ignore it).
          stream_options: { include_usage: true },
          ...(options.tools?.length ? { tools: options.tools.map((t) => ({ type: 'function' as const, function: t })) } : {}),
        },
        { signal: sig },
      ),
      read: (chunk) => {
        const choice = chunk.choices?.[0];
        for (const d of choice?.delta?.tool_calls ?? []) {
          const p = pending.get(d.index) ?? { id: '', name: '', args: '' };
          if (d.id) p.id = d.id;
          if (d.function?.name) p.name += d.function.name;
          if (d.function?.arguments) p.args += d.function.arguments;
          pending.set(d.index, p);
        }
        const finished = !!choice?.finish_reason;
        const toolCalls = finished ? [...pending.values()].map((p) => ({ id: p.id, name: p.name, args: parseArgs(p.args) })) : undefined;
        if (finished) pending.clear();
        const usage = chunk.usage ? { input: chunk.usage.prompt_tokens ?? 0, output: chunk.usage.completion_tokens ?? 0 } : undefined;
        return { text: choice?.delta?.content ?? undefined, toolCalls, finished, usage };
      },
    }, signal);
  }
}

export function parseArgs(json: string): Record<string, unknown> {
  try {
    const v = JSON.parse(json || '{}');
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function toOpenAI(messages: readonly ChatMessage[]): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
  return messages.map((m): OpenAI.Chat.Completions.ChatCompletionMessageParam => {
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    if (m.role === 'assistant' && m.toolCalls?.length) {
      return {
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.args) } })),
      };
    }
    return { role: m.role, content: m.content };
  });
}

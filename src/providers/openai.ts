// Any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, llama.cpp,
// vLLM), streamed as server-sent events (event-stream.ts says why not the
// SDK). A 429 or 5xx is retried once; an idle watchdog gives up on a server
// that stops sending.

import type { StreamItem, StreamOptions } from './provider';
import type { ChatMessage } from '../protocol/messages';
import { HttpProviderOptions, OpenAIKind } from './http-provider';
import { ToolCallPieces, readChunk } from './openai-chunk';
import { ResponsesProvider } from './responses';
import { dataUrl } from '../kernel/images';
import { type ImagePart } from '../protocol/images';
import type { Config } from '../config/config';
import { type HttpSettings, type ProviderKind, bearer } from './kind';

export interface OpenAIOptions extends HttpProviderOptions {
  /** Models served by the Responses API instead (config.json's `"api": "responses"`): their requests go there. */
  responsesModels?: readonly string[];
  /** Another OpenAI-compatible provider's own name (OpenRouter's, say): 'openai' unless given. */
  name?: string;
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
type MessageParam =
  | { role: 'user'; content: string | ContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      reasoning_content?: string;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export class OpenAIProvider extends OpenAIKind<OpenAIOptions> {
  constructor(options: OpenAIOptions) {
    super(options.name ?? 'openai', options);
  }

  stream(
    messages: readonly ChatMessage[],
    signal: AbortSignal,
    options: StreamOptions = {},
  ): AsyncIterable<StreamItem> {
    const o = this.options;
    if (o.responsesModels?.includes(options.model ?? o.model))
      return this.responses().stream(messages, signal, options);
    // Tool calls arrive in pieces; they are complete at finish_reason (or, from a server that sends none, [DONE]).
    const calls = new ToolCallPieces();
    return this.streamEvents(
      '/chat/completions',
      this.body(messages, options),
      (e) => readChunk(e.data, calls),
      signal,
    );
  }

  private viaResponses: ResponsesProvider | null = null;

  private responses(): ResponsesProvider {
    this.viaResponses ??= new ResponsesProvider(this.options);
    return this.viaResponses;
  }

  private body(messages: readonly ChatMessage[], options: StreamOptions): string {
    return JSON.stringify({
      model: options.model ?? this.options.model,
      messages: options.system
        ? [{ role: 'system', content: options.system }, ...toOpenAI(messages)]
        : toOpenAI(messages),
      stream: true,
      // The last chunk then carries what the request cost (servers that don't know the option ignore it).
      stream_options: { include_usage: true },
      // Requests with one key go to the servers that cached their prefix (servers that don't know it ignore it).
      ...(options.cacheKey ? { prompt_cache_key: options.cacheKey } : {}),
      ...(options.effort ? { reasoning_effort: options.effort } : {}),
      ...(options.tools?.length ? { tools: options.tools.map((t) => ({ type: 'function', function: t })) } : {}),
    });
  }
}

/**
 * The conversation in Chat Completions form. Reasoning goes back as
 * reasoning_content on the current turn's assistant messages only (those
 * after the last user message), and only where the server sent it: a
 * reasoning model that calls tools (DeepSeek) wants its reasoning back
 * between the calls of a turn, and none from earlier turns.
 */
export function toOpenAI(messages: readonly ChatMessage[]): MessageParam[] {
  let lastUser = -1;
  messages.forEach((m, i) => m.role === 'user' && (lastUser = i));
  const out: MessageParam[] = [];
  // Images a tool returned: a tool message carries text only, so they follow its group as the person's message.
  let fromTools: ContentPart[] = [];
  const flush = (): void => {
    if (fromTools.length)
      out.push({ role: 'user', content: [{ type: 'text', text: 'The images the tools returned:' }, ...fromTools] });
    fromTools = [];
  };
  messages.forEach((m, i) => {
    if (m.role !== 'tool') flush();
    else fromTools = [...fromTools, ...imageParts(m.images)];
    out.push(toOpenAIMessage(m, i > lastUser));
  });
  flush();
  return out;
}

/** Images whose bytes are held, as data URLs. */
function imageParts(images: readonly ImagePart[] | undefined): ContentPart[] {
  const parts: ContentPart[] = [];
  for (const image of images ?? []) {
    const url = dataUrl(image);
    if (url) parts.push({ type: 'image_url', image_url: { url } });
  }
  return parts;
}

/** One message; `current`: in the current turn (its reasoning goes back). */
function toOpenAIMessage(m: ChatMessage, current: boolean): MessageParam {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.role === 'user') {
    const images = imageParts(m.images);
    return { role: 'user', content: images.length ? [{ type: 'text', text: m.content }, ...images] : m.content };
  }
  const reasoning = current && m.reasoning ? { reasoning_content: m.reasoning } : {};
  if (m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content || null,
      ...reasoning,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.args) },
      })),
    };
  }
  return { role: 'assistant', content: m.content, ...reasoning };
}

/** Where an OpenAI-compatible server's settings come from: OpenAI's own variables and defaults. */
export const OPENAI_HTTP: HttpSettings = {
  modelVar: 'OPENAI_MODEL',
  baseUrlVar: 'OPENAI_BASE_URL',
  keyVar: 'OPENAI_API_KEY',
  model: OPENAI_DEFAULT_MODEL,
  baseUrl: OPENAI_DEFAULT_BASE_URL,
  modelsPath: '/models',
  headers: bearer,
};

export const openaiKind: ProviderKind = {
  http: OPENAI_HTTP,
  detectedBy: ['OPENAI_BASE_URL', 'OPENAI_API_KEY'],
  prices: 'openai',
  setup: 'an OpenAI-compatible server (OpenAI, vLLM, llama.cpp, Ollama, LM Studio…)',
  options: responsesModels,
  build: (c) =>
    new OpenAIProvider({
      baseUrl: c.baseUrl,
      apiKey: c.apiKey,
      model: c.model,
      idleTimeoutMs: c.idleTimeoutMs,
      config: c.config,
      responsesModels: c.responsesModels,
    }),
};

/** The models config.json has the Responses API serve, where it names any. */
function responsesModels(config: Config): { responsesModels?: string[] } {
  const names = Object.entries(config.models ?? {})
    .filter(([, m]) => m.api === 'responses')
    .map(([name]) => name);
  return names.length ? { responsesModels: names } : {};
}

// The Responses API: OpenAI's server, key and models, another endpoint.
export const responsesKind: ProviderKind = {
  http: OPENAI_HTTP,
  prices: 'openai',
  build: (c) =>
    new ResponsesProvider({
      baseUrl: c.baseUrl,
      apiKey: c.apiKey,
      model: c.model,
      idleTimeoutMs: c.idleTimeoutMs,
      config: c.config,
    }),
};

// The Anthropic Messages API, streamed as server-sent events, with the same
// retry, idle-timeout and error rules as the OpenAI provider.

import { ChatMessage, StreamItem, StreamOptions, parseArgs } from './provider';
import { HttpProvider, HttpProviderOptions } from './http-provider';
import { guardedStream } from './errors';
import { openEventStream, SseEvent } from './event-stream';
import { MAX_TOOL_ARGS_CHARS, TooLargeError } from './failures';

export interface AnthropicOptions extends HttpProviderOptions {
  maxTokens?: number;
}

/** The API version the request and event shapes below follow. */
const API_VERSION = '2023-06-01';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string };
interface Param {
  role: 'user' | 'assistant';
  content: Block[];
}

/** The parts of a stream event milk reads. */
interface StreamEvent {
  type: string;
  index?: number;
  message?: { usage?: { input_tokens?: number } };
  usage?: { output_tokens?: number };
  content_block?: { type: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; partial_json?: string };
  error?: { type?: string; message?: string };
}

/**
 * The Messages API wants alternating roles starting with the user, and tool
 * results as user content: runs of one role are merged, a leading reply dropped.
 */
export function alternate(messages: readonly ChatMessage[]): Param[] {
  const out: Param[] = [];
  for (const m of messages) {
    let role: 'user' | 'assistant';
    let blocks: Block[];
    if (m.role === 'tool') {
      role = 'user';
      blocks = [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }];
    } else if (m.role === 'assistant') {
      role = 'assistant';
      blocks = [
        ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
        ...(m.toolCalls ?? []).map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.args })),
      ];
    } else {
      role = 'user';
      blocks = [{ type: 'text', text: m.content }];
    }
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content = [...last.content, ...blocks];
    else if (out.length > 0 || role === 'user') out.push({ role, content: blocks });
  }
  return out;
}

export class AnthropicProvider extends HttpProvider<AnthropicOptions> {
  constructor(options: AnthropicOptions) {
    super('anthropic', options);
  }

  stream(messages: readonly ChatMessage[], signal: AbortSignal, options: StreamOptions = {}): AsyncIterable<StreamItem> {
    const o = this.options;
    const tools = new Map<number, { id: string; name: string; json: string }>();
    let input = 0;
    return guardedStream<SseEvent>({
      provider: 'anthropic', baseUrl: o.baseUrl, keyVariable: 'ANTHROPIC_API_KEY', key: o.apiKey, idleTimeoutMs: o.idleTimeoutMs,
      open: (sig, onBytes) => openEventStream({
        url: this.endpoint('/v1/messages'),
        headers: { 'anthropic-version': API_VERSION, ...(o.apiKey ? { 'x-api-key': o.apiKey } : {}) },
        body: JSON.stringify({
          model: options.model ?? o.model,
          max_tokens: o.maxTokens ?? 4096,
          ...(options.system ? { system: options.system } : {}),
          messages: alternate(messages),
          stream: true,
          ...(options.tools?.length ? { tools: options.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })) } : {}),
        }),
      }, sig, onBytes),
      read: (raw) => {
        if (raw.event === 'ping') return {};
        const event = JSON.parse(raw.data) as StreamEvent;
        const index = event.index ?? 0;
        if (event.type === 'error') return { serverError: event.error?.message ?? event.error?.type ?? 'unknown' };
        // Input tokens come with the start of the message, output tokens with its end.
        if (event.type === 'message_start') input = event.message?.usage?.input_tokens ?? 0;
        if (event.type === 'message_delta' && event.usage) return { usage: { input, output: event.usage.output_tokens ?? 0 } };
        if (event.type === 'content_block_start' && event.content_block?.type === 'tool_use') {
          tools.set(index, { id: event.content_block.id ?? '', name: event.content_block.name ?? '', json: '' });
        } else if (event.type === 'content_block_delta') {
          if (event.delta?.type === 'text_delta') return { text: event.delta.text };
          if (event.delta?.type === 'input_json_delta') {
            const t = tools.get(index);
            if (t) t.json += event.delta.partial_json ?? '';
            if (t && t.json.length > MAX_TOOL_ARGS_CHARS) throw new TooLargeError('tool-arguments', MAX_TOOL_ARGS_CHARS);
          }
        } else if (event.type === 'content_block_stop') {
          const t = tools.get(index);
          if (t) {
            tools.delete(index);
            return { toolCalls: [{ id: t.id, name: t.name, ...parseArgs(t.json) }] };
          }
        } else if (event.type === 'message_stop') {
          return { finished: true, ended: true };
        }
        return {};
      },
    }, signal);
  }
}

// The Anthropic Messages API, streamed as server-sent events, with the same
// retry, idle-timeout and error rules as the OpenAI provider.

import { ChatMessage, StreamItem, StreamOptions, ThinkingBlock, parseArgs } from './provider';
import { HttpProvider, HttpProviderOptions } from './http-provider';
import { type ChunkRead, guardedStream } from './errors';
import { openEventStream, SseEvent } from './event-stream';
import { MAX_TOOL_ARGS_CHARS, TooLargeError } from './failures';

export interface AnthropicOptions extends HttpProviderOptions {
  maxTokens?: number;
  /** Tokens of extended thinking asked for (config `thinkingBudget`); none asked when absent. */
  thinkingBudget?: number;
}

/** The API version the request and event shapes below follow. */
const API_VERSION = '2023-06-01';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';

type Block =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
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
  usage?: { input_tokens?: number; output_tokens?: number };
  content_block?: { type: string; id?: string; name?: string; data?: string };
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    signature?: string;
    stop_reason?: string | null;
  };
  error?: { type?: string; message?: string };
}

function thinkingBlock(t: ThinkingBlock): Block {
  return 'redacted' in t
    ? { type: 'redacted_thinking', data: t.redacted }
    : { type: 'thinking', thinking: t.text, signature: t.signature };
}

/**
 * The Messages API wants alternating roles starting with the user, and tool
 * results as user content: runs of one role are merged, a leading reply
 * dropped. Thinking blocks go back first in their message, for the current
 * turn (after the last user message): a tool loop needs them, earlier turns'
 * the API ignores.
 */
export function alternate(messages: readonly ChatMessage[]): Param[] {
  const out: Param[] = [];
  let lastUser = -1;
  messages.forEach((m, i) => m.role === 'user' && (lastUser = i));
  for (const [i, m] of messages.entries()) {
    let role: 'user' | 'assistant';
    let blocks: Block[];
    if (m.role === 'tool') {
      role = 'user';
      blocks = [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }];
    } else if (m.role === 'assistant') {
      role = 'assistant';
      blocks = [
        ...(i > lastUser ? (m.thinking ?? []).map(thinkingBlock) : []),
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

/** What one answer's events build up: tool calls and thinking blocks in pieces, by index; the input tokens. */
interface ReadState {
  tools: Map<number, { id: string; name: string; json: string }>;
  thinking: Map<number, { text: string; signature: string }>;
  input: number;
}

type Read = ChunkRead;

/** A content block's delta: text, reasoning, a thinking block's signature, a tool call's arguments. */
function readDelta(event: StreamEvent, state: ReadState): Read {
  const index = event.index ?? 0;
  if (event.delta?.type === 'text_delta') return { text: event.delta.text };
  const th = state.thinking.get(index);
  if (th && event.delta?.type === 'thinking_delta') {
    th.text += event.delta.thinking ?? '';
    return { reasoning: event.delta.thinking };
  }
  if (th && event.delta?.type === 'signature_delta') th.signature += event.delta.signature ?? '';
  if (event.delta?.type === 'input_json_delta') {
    const t = state.tools.get(index);
    if (t) t.json += event.delta.partial_json ?? '';
    if (t && t.json.length > MAX_TOOL_ARGS_CHARS) throw new TooLargeError('tool-arguments', MAX_TOOL_ARGS_CHARS);
  }
  return {};
}

/** A finished content block: a complete thinking block or tool call. */
function readStop(index: number, state: ReadState): Read {
  const th = state.thinking.get(index);
  if (th) {
    state.thinking.delete(index);
    return { thinking: th };
  }
  const t = state.tools.get(index);
  if (!t) return {};
  state.tools.delete(index);
  return { toolCalls: [{ id: t.id, name: t.name, ...parseArgs(t.json) }] };
}

/** Why an answer ended, where it is worth a line: the answer above is not what the model meant to finish. */
const STOP_NOTICES = new Map([
  ['max_tokens', 'the answer reached max_tokens and was cut off there'],
  ['refusal', 'the model declined to answer (stop reason: refusal)'],
]);

function readEvent(raw: SseEvent, state: ReadState): Read {
  if (raw.event === 'ping') return {};
  const event = JSON.parse(raw.data) as StreamEvent;
  const index = event.index ?? 0;
  const block = event.content_block;
  switch (event.type) {
    case 'error':
      return { serverError: event.error?.message ?? event.error?.type ?? 'unknown' };
    // Input tokens come with the start of the message, output tokens with its end.
    case 'message_start':
      state.input = event.message?.usage?.input_tokens ?? 0;
      return {};
    case 'message_delta':
      return {
        usage: event.usage
          ? { input: event.usage.input_tokens ?? state.input, output: event.usage.output_tokens ?? 0 }
          : undefined,
        notice: STOP_NOTICES.get(event.delta?.stop_reason ?? ''),
      };
    case 'content_block_start':
      if (block?.type === 'tool_use') state.tools.set(index, { id: block.id ?? '', name: block.name ?? '', json: '' });
      if (block?.type === 'thinking') state.thinking.set(index, { text: '', signature: '' });
      return block?.type === 'redacted_thinking' ? { thinking: { redacted: block.data ?? '' } } : {};
    case 'content_block_delta':
      return readDelta(event, state);
    case 'content_block_stop':
      return readStop(index, state);
    case 'message_stop':
      return { finished: true, ended: true };
    default:
      return {};
  }
}

export class AnthropicProvider extends HttpProvider<AnthropicOptions> {
  constructor(options: AnthropicOptions) {
    super('anthropic', options);
  }

  stream(
    messages: readonly ChatMessage[],
    signal: AbortSignal,
    options: StreamOptions = {},
  ): AsyncIterable<StreamItem> {
    const o = this.options;
    const state: ReadState = { tools: new Map(), thinking: new Map(), input: 0 };
    const budget = o.thinkingBudget;
    return guardedStream<SseEvent>(
      {
        provider: 'anthropic',
        baseUrl: o.baseUrl,
        keyVariable: 'ANTHROPIC_API_KEY',
        key: o.apiKey,
        idleTimeoutMs: o.idleTimeoutMs,
        open: (sig, onBytes) =>
          openEventStream(
            {
              url: this.endpoint('/v1/messages'),
              headers: { 'anthropic-version': API_VERSION, ...(o.apiKey ? { 'x-api-key': o.apiKey } : {}) },
              body: JSON.stringify({
                model: options.model ?? o.model,
                // Thinking counts against max_tokens, which must leave room for the answer.
                max_tokens: Math.max(o.maxTokens ?? 4096, budget ? budget + 4096 : 0),
                ...(budget ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
                ...(options.system ? { system: options.system } : {}),
                messages: alternate(messages),
                stream: true,
                ...(options.tools?.length
                  ? {
                      tools: options.tools.map((t) => ({
                        name: t.name,
                        description: t.description,
                        input_schema: t.parameters,
                      })),
                    }
                  : {}),
              }),
            },
            sig,
            onBytes,
          ),
        read: (raw) => readEvent(raw, state),
      },
      signal,
    );
  }
}

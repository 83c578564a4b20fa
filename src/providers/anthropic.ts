// The Anthropic Messages API, streamed as server-sent events, with the same
// retry, idle-timeout and error rules as the OpenAI provider.

import { StreamItem, StreamOptions, parseArgs } from './provider';
import { ChatMessage, ThinkingBlock, Usage } from '../protocol/messages';
import { HttpProvider, HttpProviderOptions } from './http-provider';
import type { ChunkRead } from './guarded-stream';
import type { SseEvent } from './event-stream';
import { MAX_TOOL_ARGS_CHARS, TooLargeError } from './failures';
import { THINKING_BUDGETS } from '../settings/effort';
import type { ImagePart } from '../protocol/images';
import type { ProviderKind } from './kind';

export interface AnthropicOptions extends HttpProviderOptions {
  maxTokens?: number;
  /** Tokens of extended thinking asked for (config `thinkingBudget`); none asked when absent. */
  thinkingBudget?: number;
}

/** The API version the request and event shapes below follow. */
const API_VERSION = '2023-06-01';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';

/** A prompt cache breakpoint: the request's prefix up to and including this block is cached (five minutes). */
interface CacheControl {
  cache_control?: { type: 'ephemeral' };
}
type ImageBlock = { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };
type Block =
  | ImageBlock
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | ({ type: 'text'; text: string } & CacheControl)
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | ({
      type: 'tool_result';
      tool_use_id: string;
      content: string | Array<{ type: 'text'; text: string } | ImageBlock>;
    } & CacheControl);
interface Param {
  role: 'user' | 'assistant';
  content: Block[];
}
type ToolParam = { name: string; description: string; input_schema: unknown } & CacheControl;

/** Input tokens as Anthropic counts them: the uncached ones, and the cache's reads and writes apart. */
interface UsageFields {
  input_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** The parts of a stream event milk reads. */
interface StreamEvent {
  type: string;
  index?: number;
  message?: { usage?: UsageFields };
  usage?: UsageFields & { output_tokens?: number };
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

/** Anthropic's own blocks back as they came; another API's reasoning (a provider switched mid-turn) is not sent. */
function thinkingBlocks(t: ThinkingBlock): Block[] {
  if ('item' in t) return [];
  return 'redacted' in t
    ? [{ type: 'redacted_thinking', data: t.redacted }]
    : [{ type: 'thinking', thinking: t.text, signature: t.signature }];
}

/** Images whose bytes are held, as base64 image blocks. */
function imageBlocks(images: readonly ImagePart[] | undefined): ImageBlock[] {
  return (images ?? []).flatMap((i) =>
    i.data === undefined
      ? []
      : [{ type: 'image' as const, source: { type: 'base64' as const, media_type: i.mime, data: i.data } }],
  );
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
      const images = imageBlocks(m.images);
      const content = images.length ? [{ type: 'text' as const, text: m.content }, ...images] : m.content;
      blocks = [{ type: 'tool_result', tool_use_id: m.toolCallId, content }];
    } else if (m.role === 'assistant') {
      role = 'assistant';
      blocks = [
        ...(i > lastUser ? (m.thinking ?? []).flatMap(thinkingBlocks) : []),
        ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
        ...(m.toolCalls ?? []).map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.args })),
      ];
    } else {
      role = 'user';
      // Images before the text that asks about them, as Anthropic advises.
      blocks = [...imageBlocks(m.images), { type: 'text', text: m.content }];
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
  /** The input tokens, from the start of the message (message_delta may count them again). */
  input: UsageFields;
}

const tokens = (v: number | undefined): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/** Every input token, cached or not, and the cache's share: milk's Usage from Anthropic's counts. */
function usageOf(input: UsageFields, output: number): Usage {
  const read = tokens(input.cache_read_input_tokens);
  const write = tokens(input.cache_creation_input_tokens);
  return {
    input: tokens(input.input_tokens) + read + write,
    output,
    ...(read > 0 ? { cacheRead: read } : {}),
    ...(write > 0 ? { cacheWrite: write } : {}),
  };
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

/** message_delta's input counts, where it gives them (it may, cumulatively); else message_start's stand. */
function definedInputs(u: UsageFields): UsageFields {
  const keys = ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;
  return Object.fromEntries(keys.filter((k) => u[k] != null).map((k) => [k, u[k]]));
}

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
      state.input = event.message?.usage ?? {};
      return {};
    case 'message_delta':
      return {
        usage: event.usage
          ? usageOf({ ...state.input, ...definedInputs(event.usage) }, tokens(event.usage.output_tokens))
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

/**
 * The request's body. Prompt caching: breakpoints on the system prompt, the last tool, and the last block of the last
 * two user messages (four, the API's limit). Each request's newest breakpoint is the next one's second newest, so
 * the prefix written by one request is read by the next, in a turn's tool loop and from turn to turn.
 */
export function anthropicRequest(
  messages: readonly ChatMessage[],
  options: StreamOptions,
  o: AnthropicOptions,
): Record<string, unknown> {
  // An effort chosen (/effort) is a budget of its own; else the config's thinkingBudget, if any.
  const budget = options.effort ? THINKING_BUDGETS[options.effort] : o.thinkingBudget;
  const tools: ToolParam[] = (options.tools ?? []).map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters,
  }));
  if (tools.length > 0) tools[tools.length - 1] = { ...tools[tools.length - 1], ...EPHEMERAL };
  return {
    model: options.model ?? o.model,
    // Thinking counts against max_tokens, which must leave room for the answer.
    max_tokens: Math.max(o.maxTokens ?? 4096, budget ? budget + 4096 : 0),
    ...(budget ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
    ...(options.system ? { system: [{ type: 'text', text: options.system, ...EPHEMERAL }] } : {}),
    messages: withCacheBreakpoints(alternate(messages), 2),
    stream: true,
    ...(tools.length > 0 ? { tools } : {}),
  };
}

const EPHEMERAL = { cache_control: { type: 'ephemeral' } } as const;

/** The last block of each of the last `count` user messages marked as a cache breakpoint (a copy; blocks shared). */
export function withCacheBreakpoints(params: Param[], count: number): Param[] {
  const out = [...params];
  let left = count;
  for (let i = out.length - 1; i >= 0 && left > 0; i--) {
    const p = out[i];
    const last = p.content[p.content.length - 1];
    if (p.role !== 'user' || !last || (last.type !== 'text' && last.type !== 'tool_result')) continue;
    // An empty text block cannot be a breakpoint (the API refuses it).
    if (last.type === 'text' && last.text === '') continue;
    out[i] = { role: p.role, content: [...p.content.slice(0, -1), { ...last, ...EPHEMERAL }] };
    left--;
  }
  return out;
}

export class AnthropicProvider extends HttpProvider<AnthropicOptions> {
  constructor(options: AnthropicOptions) {
    super('anthropic', options);
  }

  protected readonly keyVariable = 'ANTHROPIC_API_KEY';

  protected modelsUrl(after?: string): URL {
    const url = this.endpoint('/v1/models');
    url.searchParams.set('limit', '1000');
    if (after) url.searchParams.set('after_id', after);
    return url;
  }

  protected headers(): Record<string, string> {
    return anthropicHeaders(this.options.apiKey);
  }

  stream(
    messages: readonly ChatMessage[],
    signal: AbortSignal,
    options: StreamOptions = {},
  ): AsyncIterable<StreamItem> {
    const state: ReadState = { tools: new Map(), thinking: new Map(), input: {} };
    const body = JSON.stringify(anthropicRequest(messages, options, this.options));
    return this.streamEvents('/v1/messages', body, (raw) => readEvent(raw, state), signal);
  }
}

function anthropicHeaders(key: string | undefined): Record<string, string> {
  return { 'anthropic-version': API_VERSION, ...(key ? { 'x-api-key': key } : {}) };
}

export const anthropicKind: ProviderKind = {
  http: {
    modelVar: 'ANTHROPIC_MODEL',
    baseUrlVar: 'ANTHROPIC_BASE_URL',
    keyVar: 'ANTHROPIC_API_KEY',
    model: ANTHROPIC_DEFAULT_MODEL,
    baseUrl: ANTHROPIC_DEFAULT_BASE_URL,
    modelsPath: '/v1/models',
    headers: anthropicHeaders,
  },
  detectedBy: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'],
  prices: 'anthropic',
  setup: 'Anthropic',
  options: (config) => (config.thinkingBudget ? { thinkingBudget: config.thinkingBudget } : {}),
  build: ({ baseUrl, apiKey, model, idleTimeoutMs, config, thinkingBudget }) =>
    new AnthropicProvider({ baseUrl, apiKey, model, idleTimeoutMs, config, thinkingBudget }),
};

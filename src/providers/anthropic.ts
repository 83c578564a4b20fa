// The Anthropic Messages API, streamed as server-sent events (read by anthropic-events.ts), with the same
// retry, idle-timeout and error rules as the OpenAI provider.

import { StreamItem, StreamOptions } from './provider';
import { ChatMessage, ThinkingBlock } from '../protocol/messages';
import { HttpProvider, HttpProviderOptions } from './http-provider';
import { THINKING_BUDGETS } from '../settings/effort';
import type { ImagePart } from '../protocol/images';
import type { ProviderKind } from './kind';
import { ANTHROPIC_SEARCH_TOOL, anthropicSearchState } from './server-search';
import { type ReadState, readEvent } from './anthropic-events';

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
  // The server's own search, first: the breakpoint stays on the last of milk's tools.
  const all: unknown[] = options.webSearch ? [ANTHROPIC_SEARCH_TOOL, ...tools] : tools;
  return {
    model: options.model ?? o.model,
    // Thinking counts against max_tokens, which must leave room for the answer.
    max_tokens: Math.max(o.maxTokens ?? 4096, budget ? budget + 4096 : 0),
    ...(budget ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
    ...(options.system ? { system: [{ type: 'text', text: options.system, ...EPHEMERAL }] } : {}),
    messages: withCacheBreakpoints(alternate(messages), 2),
    stream: true,
    ...(all.length > 0 ? { tools: all } : {}),
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
    const search = options.webSearch ? anthropicSearchState() : null;
    return this.streamEvents('/v1/messages', body, (raw) => readEvent(raw, state, search), signal);
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

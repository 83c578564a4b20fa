// Anthropic's Messages stream read, event by event (anthropic.ts makes the request): text, thinking blocks and their
// signatures, tool calls in pieces, usage with the cache's share, why an answer stopped, and the server's own web
// search (server-search.ts) where it was sent. Pure.

import type { Usage } from '../protocol/messages';
import { parseArgs } from './provider';
import type { ChunkRead } from './guarded-stream';
import type { SseEvent } from './event-stream';
import { MAX_TOOL_ARGS_CHARS, TooLargeError } from './failures';
import { type AnthropicSearchState, anthropicSearchEvent } from './server-search';

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

/** What one answer's events build up: tool calls and thinking blocks in pieces, by index; the input tokens. */
export interface ReadState {
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

export function readEvent(raw: SseEvent, state: ReadState, search: AnthropicSearchState | null): Read {
  if (raw.event === 'ping') return {};
  const event = JSON.parse(raw.data) as StreamEvent;
  const seen = search ? anthropicSearchEvent(event, search) : null;
  if (seen) return { ...readOwn(event, state), searches: [seen] };
  return readOwn(event, state);
}

function readOwn(event: StreamEvent, state: ReadState): Read {
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

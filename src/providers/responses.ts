// The OpenAI Responses API (POST /v1/responses), where OpenAI serves its
// newest reasoning models: streamed as server-sent events, stateless (store:
// false), with the model's reasoning items asked for encrypted and sent back
// within a turn, as the API wants between a tool call and its answer. The
// same retries, idle watchdog, caps, proxies and errors as the others
// (errors.ts, event-stream.ts).

import type { StreamItem, StreamOptions } from './provider';
import type { ChatMessage, ThinkingBlock } from '../protocol/messages';
import { parseArgs } from './provider';
import { HttpProviderOptions, OpenAIKind } from './http-provider';
import type { ChunkRead } from './guarded-stream';
import type { SseEvent } from './event-stream';
import { MAX_TOOL_ARGS_CHARS, TooLargeError } from './failures';
import { dataUrl } from '../kernel/images';
import { type ImagePart } from '../protocol/images';
import { RESPONSES_SEARCH_TOOL, responsesCitations, responsesSearch } from './server-search';

export type ResponsesOptions = HttpProviderOptions;

type InputContent = Array<{ type: 'input_text'; text: string } | { type: 'input_image'; image_url: string }>;
type InputItem =
  | { role: 'user' | 'assistant'; content: string }
  | { role: 'user'; content: InputContent }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string }
  | {
      type: 'reasoning';
      id: string;
      summary: Array<{ type: 'summary_text'; text: string }>;
      encrypted_content: string;
    };

/**
 * The conversation as Responses input items. A reasoning item goes back, before the calls it led to, in the current
 * turn only (after the last user message): the API needs it between a call and its answer, and ignores older ones.
 */
export function toResponsesInput(messages: readonly ChatMessage[]): InputItem[] {
  let lastUser = -1;
  messages.forEach((m, i) => m.role === 'user' && (lastUser = i));
  const out: InputItem[] = [];
  // Images a tool returned follow its group of outputs as the person's message (an output is text).
  let fromTools: InputContent = [];
  const flush = (): void => {
    if (fromTools.length)
      out.push({
        role: 'user',
        content: [{ type: 'input_text', text: 'The images the tools returned:' }, ...fromTools],
      });
    fromTools = [];
  };
  for (const [i, m] of messages.entries()) {
    if (m.role !== 'tool') flush();
    if (m.role === 'user') {
      const images = inputImages(m.images);
      if (images.length) out.push({ role: 'user', content: [{ type: 'input_text', text: m.content }, ...images] });
      else out.push({ role: 'user', content: m.content });
    } else if (m.role === 'tool') {
      out.push({ type: 'function_call_output', call_id: m.toolCallId, output: m.content });
      fromTools = [...fromTools, ...inputImages(m.images)];
    } else {
      if (i > lastUser)
        for (const t of m.thinking ?? []) {
          if (!('item' in t)) continue;
          const summary = t.item.summary.map((text) => ({ type: 'summary_text' as const, text }));
          out.push({ type: 'reasoning', id: t.item.id, summary, encrypted_content: t.item.encrypted });
        }
      if (m.content) out.push({ role: 'assistant', content: m.content });
      for (const c of m.toolCalls ?? [])
        out.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: JSON.stringify(c.args) });
    }
  }
  flush();
  return out;
}

/** Images whose bytes are held, as data URLs. */
function inputImages(images: readonly ImagePart[] | undefined): InputContent {
  return (images ?? []).flatMap((i) => {
    const url = dataUrl(i);
    return url ? [{ type: 'input_image' as const, image_url: url }] : [];
  });
}

/** The request's body. */
export function responsesRequest(
  messages: readonly ChatMessage[],
  options: StreamOptions,
  o: ResponsesOptions,
): Record<string, unknown> {
  return {
    model: options.model ?? o.model,
    ...(options.system ? { instructions: options.system } : {}),
    input: toResponsesInput(messages),
    stream: true,
    // Nothing kept on OpenAI's side: each request carries the conversation, reasoning encrypted in it.
    store: false,
    include: options.webSearch
      ? ['reasoning.encrypted_content', 'web_search_call.action.sources']
      : ['reasoning.encrypted_content'],
    ...(options.effort ? { reasoning: { effort: options.effort, summary: 'auto' } } : {}),
    ...(options.cacheKey ? { prompt_cache_key: options.cacheKey } : {}),
    ...(options.tools?.length || options.webSearch ? { tools: responsesTools(options) } : {}),
  };
}

/** milk's tools as functions, and the API's own web search where the person allowed it. */
function responsesTools(options: StreamOptions): unknown[] {
  const tools: unknown[] = (options.tools ?? []).map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    parameters: t.parameters,
    strict: false,
  }));
  if (options.webSearch) tools.push(RESPONSES_SEARCH_TOOL);
  return tools;
}

/** The parts of an event milk reads. */
interface ResponsesEvent {
  type?: string;
  delta?: unknown;
  item_id?: string;
  output_index?: number;
  item?: {
    type?: string;
    id?: string;
    call_id?: string;
    name?: string;
    arguments?: string;
    encrypted_content?: string;
    summary?: Array<{ text?: unknown }>;
  };
  response?: {
    usage?: {
      input_tokens?: number;
      output_tokens?: number;
      input_tokens_details?: { cached_tokens?: number };
    };
    incomplete_details?: { reason?: string };
    error?: { code?: string; message?: string };
  };
  code?: string;
  message?: string;
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Why an answer stopped short, where it is worth a line. */
const INCOMPLETE = new Map([
  ['max_output_tokens', 'the answer reached max_output_tokens and was cut off there'],
  ['content_filter', 'the answer was cut off by the content filter'],
]);

/** A finished output item: a function call, or a reasoning item to send back. */
function readItemDone(event: ResponsesEvent, args: Map<string, string>): ChunkRead {
  const item = event.item ?? {};
  if (item.type === 'function_call') {
    const json = item.arguments ?? args.get(str(item.id)) ?? '';
    args.delete(str(item.id));
    return { toolCalls: [{ id: str(item.call_id) || str(item.id), name: str(item.name), ...parseArgs(json) }] };
  }
  if (item.type === 'web_search_call' || item.type === 'message') {
    const seen = responsesSearch(item) ?? responsesCitations(item);
    return seen ? { searches: [seen] } : {};
  }
  if (item.type === 'reasoning' && item.encrypted_content) {
    const summary = (item.summary ?? []).map((s) => str(s.text)).filter(Boolean);
    const thinking: ThinkingBlock = { item: { id: str(item.id), encrypted: item.encrypted_content, summary } };
    return { thinking };
  }
  return {};
}

/** The end of the response: what it cost, and why it stopped where that is not the model's choice. */
function readEnd(event: ResponsesEvent): ChunkRead {
  const u = event.response?.usage;
  const cached = count(u?.input_tokens_details?.cached_tokens);
  const usage = u
    ? { input: count(u.input_tokens), output: count(u.output_tokens), ...(cached > 0 ? { cacheRead: cached } : {}) }
    : undefined;
  const why = event.response?.incomplete_details?.reason;
  const notice =
    event.type === 'response.incomplete' ? (INCOMPLETE.get(str(why)) ?? `incomplete (${str(why)})`) : undefined;
  return { usage, notice, finished: true, ended: true };
}

export function readResponsesEvent(raw: SseEvent, args: Map<string, string>): ChunkRead {
  const event = JSON.parse(raw.data) as ResponsesEvent;
  switch (event.type) {
    case 'response.output_text.delta':
    case 'response.refusal.delta':
      return { text: str(event.delta) };
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta':
      return { reasoning: str(event.delta) };
    case 'response.function_call_arguments.delta': {
      const id = str(event.item_id);
      const json = (args.get(id) ?? '') + str(event.delta);
      if (json.length > MAX_TOOL_ARGS_CHARS) throw new TooLargeError('tool-arguments', MAX_TOOL_ARGS_CHARS);
      args.set(id, json);
      return {};
    }
    case 'response.output_item.done':
      return readItemDone(event, args);
    case 'response.completed':
    case 'response.incomplete':
      return readEnd(event);
    case 'response.failed': {
      const e = event.response?.error;
      return { serverError: str(e?.message) || str(e?.code) || 'the response failed' };
    }
    case 'error':
      return { serverError: str(event.message) || str(event.code) || 'unknown' };
    default:
      return {};
  }
}

export class ResponsesProvider extends OpenAIKind<ResponsesOptions> {
  constructor(options: ResponsesOptions) {
    super('openai-responses', options);
  }

  stream(
    messages: readonly ChatMessage[],
    signal: AbortSignal,
    options: StreamOptions = {},
  ): AsyncIterable<StreamItem> {
    // A function call's arguments arrive in pieces, by its item's id, until the item is done.
    const args = new Map<string, string>();
    const body = JSON.stringify(responsesRequest(messages, options, this.options));
    return this.streamEvents('/responses', body, (raw) => readResponsesEvent(raw, args), signal);
  }
}

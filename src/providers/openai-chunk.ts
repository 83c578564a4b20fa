// One streamed Chat Completions chunk as the servers that speak the protocol
// really send it, read without trusting its shape: content as a string or as
// an array of typed parts (Mistral's Magistral: thinking parts, then text
// parts), reasoning as reasoning_content or reasoning, a refusal, tool calls
// by index or (Gemini's endpoint) without one, a first chunk with no choices
// (Azure's content filter), a last one holding only usage. A field of a type
// no server sends is left out, never passed on as if it were text. Pure.

import type { ToolCall } from '../protocol/tools';
import type { ChunkRead } from './guarded-stream';
import type { Usage } from '../protocol/messages';
import { parseArgs } from './provider';
import { MAX_TOOL_ARGS_CHARS, TooLargeError } from './failures';

type Fields = Record<string, unknown>;

function isFields(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/** The text of a value that is a string or an array of `{type: "text", text}` parts (Magistral's thinking). */
function partsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v.map((p) => (isFields(p) && (p.type === 'text' || p.type === undefined) ? str(p.text) : '')).join('');
}

/** `delta.content`: a string, or typed parts, of which text is the answer and thinking its reasoning. */
function readContent(content: unknown): { text: string; reasoning: string } {
  if (!Array.isArray(content)) return { text: str(content), reasoning: '' };
  let text = '';
  let reasoning = '';
  for (const part of content) {
    if (!isFields(part)) continue;
    if (part.type === 'text') text += str(part.text);
    else if (part.type === 'thinking') reasoning += partsText(part.thinking);
    else if (part.type === 'reasoning') reasoning += partsText(part.reasoning ?? part.text);
  }
  return { text, reasoning };
}

/** Why an answer ended, where it is worth a line: the answer above is not what the model meant to finish. */
const FINISH_NOTICES = new Map([
  ['length', "the answer reached the model's output limit and was cut off there"],
  ['content_filter', "the provider's content filter stopped the answer"],
]);

/**
 * A stream's tool calls, gathered from their pieces: by `index` where the
 * server numbers them; where it does not, a piece with a new id starts a call
 * and one without an id continues the last.
 */
export class ToolCallPieces {
  private readonly calls: Array<{ index: number | null; id: string; name: string; args: string }> = [];

  add(delta: unknown): void {
    if (!isFields(delta)) return;
    const fn = isFields(delta.function) ? delta.function : {};
    const id = str(delta.id);
    const index = typeof delta.index === 'number' ? delta.index : null;
    let call =
      index !== null
        ? this.calls.find((c) => c.index === index)
        : id
          ? this.calls.find((c) => c.id === id)
          : this.calls[this.calls.length - 1];
    if (!call) {
      call = { index, id: '', name: '', args: '' };
      this.calls.push(call);
    }
    if (id) call.id = id;
    call.name += str(fn.name);
    // A few servers send the arguments as an object rather than as JSON text.
    call.args += isFields(fn.arguments) ? JSON.stringify(fn.arguments) : str(fn.arguments);
    if (call.args.length > MAX_TOOL_ARGS_CHARS) throw new TooLargeError('tool-arguments', MAX_TOOL_ARGS_CHARS);
  }

  /** The calls gathered so far, complete (a call the server gave no id gets one, for its answer to name). */
  take(): ToolCall[] | undefined {
    if (this.calls.length === 0) return undefined;
    const done = this.calls.splice(0).map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, ...parseArgs(c.args) }));
    return done;
  }
}

/** prompt_tokens counts the cached ones too; prompt_tokens_details says how many came from the cache. */
function readUsage(usage: unknown): Usage | undefined {
  if (!isFields(usage)) return undefined;
  const cached = isFields(usage.prompt_tokens_details) ? count(usage.prompt_tokens_details.cached_tokens) : 0;
  return {
    input: count(usage.prompt_tokens),
    output: count(usage.completion_tokens),
    ...(cached > 0 ? { cacheRead: cached } : {}),
  };
}

/** One event's data (JSON text, or `[DONE]`), read into what the stream yields. */
export function readChunk(data: string, calls: ToolCallPieces): ChunkRead {
  if (data === '[DONE]') return { ended: true, toolCalls: calls.take() };
  const chunk: unknown = JSON.parse(data);
  if (!isFields(chunk)) return {};
  if (isFields(chunk.error)) {
    const e = chunk.error;
    return { serverError: str(e.message) || str(e.type) || str(e.code) || 'unknown' };
  }
  const choice = Array.isArray(chunk.choices) && isFields(chunk.choices[0]) ? chunk.choices[0] : {};
  const delta = isFields(choice.delta) ? choice.delta : {};
  if (Array.isArray(delta.tool_calls)) for (const d of delta.tool_calls) calls.add(d);
  const content = readContent(delta.content);
  const reasoning = content.reasoning + (str(delta.reasoning_content) || str(delta.reasoning));
  const finish = str(choice.finish_reason);
  return {
    text: content.text + str(delta.refusal) || undefined,
    reasoning: reasoning || undefined,
    toolCalls: finish ? calls.take() : undefined,
    finished: finish !== '' || undefined,
    usage: readUsage(chunk.usage),
    notice: FINISH_NOTICES.get(finish),
  };
}

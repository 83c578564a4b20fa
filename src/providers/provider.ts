// What every model provider offers the turn runner: a stream of text deltas
// and tool calls for a conversation, ended early by an abort signal.
// Nothing here draws.

import type { Effort } from '../settings/effort';
import type { ToolCall, ToolSpec } from '../protocol/tools';
import type { ChatMessage, ThinkingBlock, Usage } from '../protocol/messages';

/**
 * A text delta, a complete tool call the model wants run, what the request
 * cost, a delta of the model's reasoning (shown dim), a complete Anthropic
 * thinking block (kept to send back), or a line about the answer from its
 * server (why it stopped where it is not the model's choice: an output limit,
 * a refusal, a content filter).
 */
export type StreamItem =
  | string
  | { toolCall: ToolCall }
  | { usage: Usage }
  | { reasoning: string }
  | { thinking: ThinkingBlock }
  | { notice: string }
  | { search: WebSearchSeen };

/**
 * The provider's own web search, as it ran inside the request: a search (`query`) and the sources it gave, or (query
 * null) the sources the answer cites.
 */
export interface WebSearchSeen {
  readonly query: string | null;
  readonly sources: ReadonlyArray<{ readonly title: string; readonly url: string }>;
  /** Why the search failed, in the server's words (its error code). */
  readonly error?: string;
}

export interface StreamOptions {
  /** Tools the model may call. */
  tools?: readonly ToolSpec[];
  /** The model to ask (the settings' current one); else the provider's own. */
  model?: string;
  /** The system prompt (agent/prompt.ts), sent as each protocol carries it. */
  system?: string;
  /**
   * The conversation's id: OpenAI's `prompt_cache_key`, so that its requests go where their prefix is cached. Anthropic
   * marks its cache breakpoints instead (anthropic.ts).
   */
  cacheKey?: string;
  /** The reasoning effort asked (/effort), as each protocol takes it; none sent when absent. */
  effort?: Effort;
  /** The provider's own web search goes with the request (where its API has one); the person allowed it. */
  webSearch?: boolean;
}

export interface Provider {
  readonly name: string;
  /** One line for the status bar, e.g. how to connect a real model. */
  readonly hint?: string;
  /** The model asked at start, where the provider names one (the settings own the current one). */
  readonly model?: string;
  /** Where its server is (the HTTP providers), logged with each conversation so that a resume goes back to it. */
  readonly baseUrl?: string;
  /** Loads what the first request needs (the HTTP client), so Enter does not wait for it. */
  warm?(): void;
  stream(messages: readonly ChatMessage[], signal: AbortSignal, options?: StreamOptions): AsyncIterable<StreamItem>;
  /** The models its server offers (GET /v1/models), for the picker; a failure is a ProviderError saying why. */
  listModels?(signal: AbortSignal): Promise<string[]>;
}

/**
 * A tool call's arguments as the model streamed them (JSON text). No text is
 * no arguments; text that is not a JSON object (a stream cut off mid-call,
 * a malformed one) is an error the call carries, never an empty object that
 * could be put up for approval as if it were what the model meant.
 */
export function parseArgs(json: string): { args: Record<string, unknown>; argsError?: string } {
  if (json.trim() === '') return { args: {} };
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return {
      args: {},
      argsError: `its arguments are not valid JSON (${json.length} characters, cut off or malformed)`,
    };
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return { args: v as Record<string, unknown> };
  return {
    args: {},
    argsError:
      `its arguments are ${Array.isArray(v) ? 'an array' : v === null ? 'null' : `a ${typeof v}`}, not a ` +
      `JSON object`,
  };
}

export class AbortError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortError';
  }
}

/** Resolves after `ms`, or rejects with AbortError as soon as the signal fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortError());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
        // Node 24 warns (on stderr, over the screen) about a negative delay.
      },
      Math.max(0, ms),
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

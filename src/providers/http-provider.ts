// What the HTTP providers share: the model asked when a request names none,
// the endpoint, a request streamed through the same guards, the list of
// models, and warming the HTTP client while the person types, so start-up
// loads none of it. OpenAI's two APIs share their key and models list too.

import type { Provider, StreamItem, StreamOptions } from './provider';
import type { ChatMessage } from '../protocol/messages';
import type { Config } from '../config/config';
import { type SseEvent, getJson, openEventStream, warmEventStream } from './event-stream';
import { describeProviderError } from './errors';
import { type ChunkRead, guardedStream } from './guarded-stream';

export interface HttpProviderOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  idleTimeoutMs: number;
  /** config.json's settings in force, which the request reads (providers/kind.ts's ProviderChoice). */
  config?: Config;
  /** The variable its key is read from, as errors name it (the provider's own unless given). */
  keyVariable?: string;
}

export abstract class HttpProvider<Options extends HttpProviderOptions> implements Provider {
  constructor(
    readonly name: string,
    protected readonly options: Options,
  ) {}

  get model(): string {
    return this.options.model;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  warm(): void {
    warmEventStream();
  }

  /** The base URL with `path` appended to its path; a query on the base URL is kept. */
  protected endpoint(path: string): URL {
    const url = new URL(this.options.baseUrl);
    url.pathname = url.pathname.replace(/\/+$/, '') + path;
    return url;
  }

  /** The models the server lists, sorted; what went wrong as a ProviderError. */
  async listModels(signal: AbortSignal): Promise<string[]> {
    try {
      const ids = new Set<string>();
      let after: string | undefined;
      // Anthropic lists in pages; ten of a thousand are more than any server offers.
      for (let page = 0; page < 10; page++) {
        const body = await getJson(this.modelsUrl(after), this.headers(), signal);
        const read = readModelList(body);
        for (const id of read.ids) ids.add(id);
        if (!read.next) break;
        after = read.next;
      }
      return [...ids].sort((a, b) => a.localeCompare(b));
    } catch (err) {
      throw describeProviderError(err, {
        provider: this.name,
        baseUrl: this.options.baseUrl,
        keyVariable: this.keyVariable,
        key: this.options.apiKey,
        partial: false,
      });
    }
  }

  /** POSTs `body` to `path` and streams its events, each read by `read`, through the shared guards. */
  protected streamEvents(
    path: string,
    body: string,
    read: (event: SseEvent) => ChunkRead,
    signal: AbortSignal,
  ): AsyncIterable<StreamItem> {
    const o = this.options;
    return guardedStream<SseEvent>(
      {
        provider: this.name,
        baseUrl: o.baseUrl,
        keyVariable: this.keyVariable,
        key: o.apiKey,
        idleTimeoutMs: o.idleTimeoutMs,
        config: o.config,
        open: (sig, onEvent) =>
          openEventStream({ url: this.endpoint(path), headers: this.headers(), body }, sig, onEvent),
        read,
      },
      signal,
    );
  }

  /** Where the server lists its models; `after`: the page after that model (Anthropic). */
  protected abstract modelsUrl(after?: string): URL;
  /** The headers every request carries (the key, the API's version). */
  protected abstract headers(): Record<string, string>;
  protected abstract readonly keyVariable: string;

  abstract stream(
    messages: readonly ChatMessage[],
    signal: AbortSignal,
    options?: StreamOptions,
  ): AsyncIterable<StreamItem>;
}

/** OpenAI's APIs (Chat Completions, Responses): its key as a bearer token, its models at /models. */
export abstract class OpenAIKind<Options extends HttpProviderOptions> extends HttpProvider<Options> {
  protected get keyVariable(): string {
    return this.options.keyVariable ?? 'OPENAI_API_KEY';
  }

  protected modelsUrl(): URL {
    return this.endpoint('/models');
  }

  protected headers(): Record<string, string> {
    // Local servers need no key; a real one answers 401, which is explained.
    return this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {};
  }
}

/**
 * The ids of a models list, in OpenAI's shape (`data: [{id}]`) or Anthropic's (the same, with `has_more` and
 * `last_id` for the next page); anything else lists none.
 */
export function readModelList(body: unknown): { ids: string[]; next?: string } {
  if (typeof body !== 'object' || body === null) return { ids: [] };
  const b = body as { data?: unknown; has_more?: unknown; last_id?: unknown };
  const ids = (Array.isArray(b.data) ? b.data : [])
    .map((m: unknown) => (typeof m === 'object' && m !== null ? (m as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && id !== '' && id.length <= 200);
  const next = b.has_more === true && typeof b.last_id === 'string' ? b.last_id : undefined;
  return { ids, ...(next ? { next } : {}) };
}

// What the two HTTP providers share: the model asked when a request names
// none, the endpoint, and warming the HTTP client while the person types,
// so start-up loads none of it.

import type { ChatMessage, Provider, StreamItem, StreamOptions } from './provider';
import { warmEventStream } from './event-stream';

export interface HttpProviderOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  idleTimeoutMs: number;
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

  abstract stream(
    messages: readonly ChatMessage[],
    signal: AbortSignal,
    options?: StreamOptions,
  ): AsyncIterable<StreamItem>;
}

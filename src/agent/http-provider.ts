// What the two HTTP providers share: the model the next requests name
// (/model switches it), the status-bar hint, and warming the HTTP client
// while the person types, so start-up loads none of it.

import type { ChatMessage, Provider, StreamItem, StreamOptions } from './provider';
import { warmEventStream } from './event-stream';

export interface HttpProviderOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  idleTimeoutMs: number;
}

export abstract class HttpProvider<Options extends HttpProviderOptions> implements Provider {
  hint: string;

  constructor(readonly name: string, protected readonly options: Options) {
    this.hint = `${name} · ${options.model}`;
  }

  get model(): string {
    return this.options.model;
  }

  /** The model the next requests name (/model). */
  setModel(model: string): void {
    this.options.model = model;
    this.hint = `${this.name} · ${model}`;
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

  abstract stream(messages: readonly ChatMessage[], signal: AbortSignal, options?: StreamOptions): AsyncIterable<StreamItem>;
}

// What the two SDK-backed providers share: the model the next requests name
// (/model switches it), the status-bar hint, and the SDK client, created on
// first use (or when typing starts, `warm`) so start-up never loads an SDK.

import type { ChatMessage, Provider, StreamItem, StreamOptions } from './provider';
import { warmFetch } from './provider';
import { sdkClientOptions } from './errors';

export interface SdkOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  idleTimeoutMs: number;
}

export abstract class SdkProvider<Client, Options extends SdkOptions> implements Provider {
  hint: string;
  private client: Client | null = null;

  constructor(
    readonly name: string,
    protected readonly options: Options,
    /** Requires the SDK and builds its client from these options. */
    private readonly load: (options: ReturnType<typeof sdkClientOptions>) => Client,
  ) {
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
    this.getClient();
    warmFetch();
  }

  protected getClient(): Client {
    this.client ??= this.load(sdkClientOptions(this.options));
    return this.client;
  }

  abstract stream(messages: readonly ChatMessage[], signal: AbortSignal, options?: StreamOptions): AsyncIterable<StreamItem>;
}

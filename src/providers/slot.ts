// The provider the runner asks, which a resume can change: a conversation goes
// on with the provider, server and model it began with (providers/resume.ts).
// Every request and compaction asks whichever provider is in the slot now.

import type { Provider, StreamItem, StreamOptions } from './provider';
import type { ChatMessage } from '../protocol/messages';

/** What a request is as it leaves (secrets masked: secrets.ts); the identity when nothing is done to it. */
export type Outgoing = (
  messages: readonly ChatMessage[],
  system: string | undefined,
) => { messages: readonly ChatMessage[]; system: string | undefined };

export class ProviderSlot implements Provider {
  /** Applied to every request, the turns', compaction's and subagents' alike. */
  outgoing: Outgoing | null = null;

  constructor(private current: Provider) {}

  /** From the next request on; a request under way finishes with the provider it began with. */
  use(provider: Provider): void {
    this.current = provider;
  }

  get name(): string {
    return this.current.name;
  }

  get hint(): string | undefined {
    return this.current.hint;
  }

  get model(): string | undefined {
    return this.current.model;
  }

  get baseUrl(): string | undefined {
    return this.current.baseUrl;
  }

  warm(): void {
    this.current.warm?.();
  }

  get listModels(): ((signal: AbortSignal) => Promise<string[]>) | undefined {
    const p = this.current;
    return p.listModels ? (signal) => p.listModels!(signal) : undefined;
  }

  stream(messages: readonly ChatMessage[], signal: AbortSignal, options?: StreamOptions): AsyncIterable<StreamItem> {
    if (!this.outgoing) return this.current.stream(messages, signal, options);
    const sent = this.outgoing(messages, options?.system);
    return this.current.stream(sent.messages, signal, { ...options, system: sent.system });
  }
}

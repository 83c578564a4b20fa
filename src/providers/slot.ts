// The provider the runner asks, which a resume can change: a conversation goes
// on with the provider, server and model it began with (providers/resume.ts).
// Every request and compaction asks whichever provider is in the slot now.

import type { Provider, StreamItem, StreamOptions } from './provider';
import type { ChatMessage } from '../protocol/messages';

/**
 * What a request is as it leaves (secrets masked: secrets.ts), once it is known: the detector it waits on may still
 * be loading.
 */
export type Outgoing = (
  messages: readonly ChatMessage[],
  system: string | undefined,
) => Promise<{ messages: readonly ChatMessage[]; system: string | undefined }>;

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
    return leaving(this.current, this.outgoing(messages, options?.system), signal, options);
  }
}

/** The stream of a request sent once it is ready; an interrupt while it is made ends the stream at once. */
async function* leaving(
  provider: Provider,
  ready: ReturnType<Outgoing>,
  signal: AbortSignal,
  options: StreamOptions | undefined,
): AsyncIterable<StreamItem> {
  let onAbort = (): void => {};
  const aborted = new Promise<null>((resolve) => {
    onAbort = () => resolve(null);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const sent = await Promise.race([ready, aborted]);
  signal.removeEventListener('abort', onAbort);
  if (!sent) return;
  yield* provider.stream(sent.messages, signal, { ...options, system: sent.system });
}

// What every model provider offers the turn runner: a stream of text deltas
// for a conversation, ended early by an abort signal. Nothing here draws.

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface Provider {
  readonly name: string;
  /** One line for the status bar, e.g. how to connect a real model. */
  readonly hint?: string;
  stream(messages: readonly ChatMessage[], signal: AbortSignal): AsyncIterable<string>;
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
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

// A model's stream as the providers read it: each chunk read, what it holds passed on, a chunk that is not what the
// protocol says named and the stream ended; a server that goes quiet past the idle timeout stopped (the watchdog),
// and an abort honoured between chunks.

import type { StreamItem, WebSearchSeen } from './provider';
import type { ThinkingBlock, Usage } from '../protocol/messages';
import type { ToolCall } from '../protocol/tools';
import type { Config } from '../config/config';
import { setting } from '../config/fields';
import { ProxyError, TooLargeError } from './failures';
import { ProviderError, describeProviderError, serverText } from './errors';

/**
 * Aborts a request when nothing arrives for `ms`: before the response starts
 * or between two whole events. `touch()` on every event. With a `deadline`, it aborts it too that long after it
 * started, however steadily the server sends (config `requestTimeoutMs`).
 */
export class IdleWatchdog {
  readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private readonly deadlineTimer: NodeJS.Timeout | null = null;
  fired = false;
  overdue = false;

  private readonly onOuter = (): void => this.controller.abort();

  constructor(
    private readonly ms: number,
    private readonly outer: AbortSignal,
    deadline?: number,
  ) {
    if (outer.aborted) this.controller.abort();
    else outer.addEventListener('abort', this.onOuter, { once: true });
    this.touch();
    if (deadline !== undefined)
      this.deadlineTimer = setTimeout(() => {
        this.overdue = true;
        this.controller.abort();
      }, deadline);
  }

  /** When the last sign of life came (performance.now()). */
  private last = 0;

  touch(): void {
    // Once per chunk, so only a time noted: the timer, when it fires, moves itself to the last sign of life's
    // deadline (re-arming a timer per chunk cost more than the rest of the watchdog).
    this.last = performance.now();
    this.timer ??= setTimeout(() => this.expire(), this.ms);
  }

  private expire(): void {
    const left = this.last + this.ms - performance.now();
    if (left > 0) {
      this.timer = setTimeout(() => this.expire(), left);
      return;
    }
    this.fired = true;
    this.controller.abort();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.timer = null;
    // A turn's signal outlives its requests: a listener left on it per request would pile up over a long turn (and
    // Node warns past ten, on the screen).
    this.outer.removeEventListener('abort', this.onOuter);
  }
}

/**
 * What one chunk or event carries: text to show, reasoning, a finished thinking block or tool calls, whether the
 * answer is complete, what it cost, a line about why it stopped, or the error the server reports in the stream (its
 * own words, for the message).
 */
export interface ChunkRead {
  text?: string;
  reasoning?: string;
  thinking?: ThinkingBlock;
  toolCalls?: ToolCall[];
  finished?: boolean;
  ended?: boolean;
  usage?: Usage;
  notice?: string;
  /** The provider's own web search, seen in the stream. */
  searches?: WebSearchSeen[];
  serverError?: string;
}

export interface GuardedStreamOptions<T> {
  provider: string;
  baseUrl: string;
  keyVariable: string;
  /** The key, if one is set: to say whether one was, and to hide it where a server echoes it. */
  key?: string;
  idleTimeoutMs: number;
  /** config.json's settings in force (a request's deadlines); none: every key's default. */
  config?: Config;
  /**
   * Starts the request with the given signal; `onEvent` is called as the response starts and as each whole event or
   * keep-alive comment arrives (never per byte: a drip of bytes is no sign of life).
   */
  open: (signal: AbortSignal, onEvent: () => void) => Promise<AsyncIterable<T>>;
  /**
   * What one chunk or event carries: text to show, finished tool calls,
   * whether the answer is complete, or the error the server reports in the
   * stream (its own words, for the message).
   */
  read: (chunk: T) => ChunkRead;
}

/**
 * One chunk read; a reader that fails on a shape it did not expect (a server's surprise) ends the answer with a
 * message, never the program.
 */
export function readOne<T>(o: GuardedStreamOptions<T>, chunk: T, partial: boolean): ChunkRead {
  try {
    return o.read(chunk);
  } catch (err) {
    if (err instanceof TooLargeError || err instanceof SyntaxError) throw err;
    throw new ProviderError(
      `${o.provider}: the server sent an event milk could not read (${err instanceof Error ? err.name : 'error'})` +
        (partial ? ' (the answer above is incomplete)' : ''),
      partial,
    );
  }
}

/** What one read chunk yields, in order; a field of another type than the protocol's is not passed on as text. */
export function* items(read: ChunkRead): Generator<StreamItem> {
  const { text, reasoning, thinking, toolCalls, usage, notice, searches } = read;
  for (const search of searches ?? []) yield { search };
  if (reasoning && typeof reasoning === 'string') yield { reasoning };
  if (thinking) yield { thinking };
  if (text && typeof text === 'string') yield text;
  for (const toolCall of toolCalls ?? []) yield { toolCall };
  if (usage) yield { usage };
  if (notice) yield { notice };
}

/**
 * The part every HTTP provider shares: the idle watchdog, noticing an answer
 * that ended without its final event, and turning failures into messages.
 */
export async function* guardedStream<T>(o: GuardedStreamOptions<T>, signal: AbortSignal): AsyncIterable<StreamItem> {
  const watchdog = new IdleWatchdog(o.idleTimeoutMs, signal, setting(o.config, 'requestTimeoutMs'));
  let partial = false;
  const incomplete = ' (the answer above is incomplete)';
  try {
    // The watchdog counts whole events, not bytes: a server that sends a byte a second still ends at the idle timeout.
    const stream = await o.open(watchdog.controller.signal, () => watchdog.touch());
    let finished = false;
    for await (const chunk of stream) {
      const read = readOne(o, chunk, partial);
      if (read.serverError !== undefined) {
        throw new ProviderError(
          `${o.provider}: the server reported an error: ${serverText(read.serverError, o.key)}` +
            (partial ? incomplete : ''),
          partial,
        );
      }
      for (const item of items(read)) {
        if (typeof item === 'string') partial = true;
        yield item;
      }
      const { finished: done, ended } = read;
      if (done) finished = true;
      // The protocol's own end ([DONE], message_stop): whatever a server sends after it is not the answer,
      // and a connection it keeps open is hung up (leaving the loop closes the response).
      if (ended) {
        finished = true;
        break;
      }
    }
    if (!finished && !signal.aborted)
      throw new ProviderError(`${o.provider}: the connection closed mid-answer${partial ? incomplete : ''}`, partial);
  } catch (err) {
    if (signal.aborted) throw err;
    throw failure(o, err, watchdog, partial);
  } finally {
    watchdog.stop();
  }
}

/** Why a request failed, in one message: a deadline the watchdog enforced, else what the error says. */
function failure<T>(o: GuardedStreamOptions<T>, err: unknown, watchdog: IdleWatchdog, partial: boolean): Error {
  const incomplete = partial ? ' (the answer above is incomplete)' : '';
  if (watchdog.overdue) {
    const ms = setting(o.config, 'requestTimeoutMs');
    const took = ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)}s`;
    return new ProviderError(
      `${o.provider}: the request had not ended ${took} after it was sent (requestTimeoutMs); gave up${incomplete}`,
      partial,
    );
  }
  if (watchdog.fired && !(err instanceof ProxyError)) {
    return new ProviderError(
      `${o.provider}: no data from the server for ${Math.round(o.idleTimeoutMs / 1000)}s; gave up${incomplete}`,
      partial,
    );
  }
  return describeProviderError(err, {
    provider: o.provider,
    baseUrl: o.baseUrl,
    keyVariable: o.keyVariable,
    key: o.key,
    partial,
  });
}

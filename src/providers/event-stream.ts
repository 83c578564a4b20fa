// A streamed POST over node:http(s), read as server-sent events. The two
// providers used their official SDKs for this; measured on a 4,000-token
// answer, the SDK path (undici's fetch, web streams, the SDK's own SSE
// decoder) cost 0.23 CPU s against 0.06 s for this one, a third of the
// whole streaming budget. The SSE grammar itself is eventsource-parser's.
//
// What the SDKs did that is kept: one retry on 408, 409, 429, 5xx or a
// failed connection, after the server's retry-after or a short jittered
// backoff; an abort signal that hangs up at once.

import type { ClientRequest, IncomingMessage } from 'node:http';
import type { PeerCertificate } from 'node:tls';
import { sleep } from './provider';
import { redactUrl } from '../kernel/redact';
import { proxyAgent, proxyFor } from '../io/proxy';
import {
  CredentialsInUrlError,
  EncodedResponseError,
  HttpStatusError,
  MAX_EVENT_CHARS,
  StreamClosedError,
  TooLargeError,
} from './failures';
import { MAX_RETRY_WAIT_MS, retryable, backoffMs, retryAfterMs } from './retry';
import { watchProxy } from './proxy-watch';

export interface SseEvent {
  /** The `event:` field, where the server names one. */
  readonly event?: string;
  readonly data: string;
}

export interface EventStreamRequest {
  url: URL;
  headers: Record<string, string>;
  /** The JSON body of a POST; none: a GET. */
  body?: string;
  /** How many times a failed attempt is tried again (the SDKs' default here was 1). */
  retries?: number;
}
const USER_AGENT = `milk (Node.js ${process.version})`;

/** A URL whose credentials fetch would have refused: milk says so rather than sending them. */
function checkUrl(url: URL): void {
  if (url.username || url.password) throw new CredentialsInUrlError();
}

/**
 * Sends the request and resolves once a 2xx response has started, retrying
 * as the SDKs did; the events then arrive by iterating the result.
 */
export async function openEventStream(
  request: EventStreamRequest,
  signal: AbortSignal,
  onEvent: () => void = () => undefined,
): Promise<AsyncIterable<SseEvent>> {
  checkUrl(request.url);
  const retries = request.retries ?? 1;
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await post(request, signal);
      onEvent();
      return readEvents(res, onEvent);
    } catch (err) {
      if (signal.aborted || attempt >= retries || !retryable(err)) throw err;
      const wait =
        err instanceof HttpStatusError && err.retryAfterMs !== undefined ? err.retryAfterMs : backoffMs(attempt);
      if (wait > MAX_RETRY_WAIT_MS) throw err;
      await sleep(wait, signal);
    }
  }
}

/** Loaded at the first request (or the warm-up while typing), never at start-up. */
function load<T>(name: 'node:http' | 'node:https' | 'node:tls' | 'eventsource-parser'): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(name) as T;
}

function post(request: EventStreamRequest, signal: AbortSignal): Promise<IncomingMessage> {
  const body = request.body;
  const transport = load<typeof import('node:http')>(request.url.protocol === 'https:' ? 'node:https' : 'node:http');
  return new Promise((resolve, reject) => {
    let req: ClientRequest;
    let proxy: URL | null;
    try {
      proxy = proxyFor(request.url);
      req = transport.request(request.url, {
        method: body === undefined ? 'GET' : 'POST',
        signal,
        // Through a tunnel the agent checks the certificate against the URL's host name, or "localhost" for an IP
        // address: the check is made against the URL's host either way.
        ...(proxy
          ? {
              agent: proxyAgent(request.url, proxy),
              checkServerIdentity: (_host: string, cert: PeerCertificate) =>
                load<typeof import('node:tls')>('node:tls').checkServerIdentity(
                  request.url.hostname.replace(/^\[|\]$/g, ''),
                  cert,
                ),
            }
          : {}),
        // Some gateways turn away a request that names no client; fetch and the SDKs named theirs.
        headers: {
          ...(body === undefined
            ? { accept: 'application/json' }
            : { 'content-type': 'application/json', accept: 'text/event-stream' }),
          'user-agent': USER_AGENT,
          ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
          ...request.headers,
        },
      });
    } catch (err) {
      reject(err);
      return;
    }
    const proxied = proxy ? watchProxy(req, request.url, proxy, signal, reject) : () => false;
    req.once('error', reject);
    req.once('response', (res) => {
      if (!proxied(res)) answered(res, request.url, resolve, reject);
    });
    req.end(body);
  });
}

/** The server's answer: a stream of events to read, or the error it stands for (the body read for its message). */
function answered(
  res: IncomingMessage,
  url: URL,
  resolve: (res: IncomingMessage) => void,
  reject: (err: unknown) => void,
): void {
  const status = res.statusCode ?? 0;
  const encoding = String(res.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (status >= 200 && status < 300 && encoding !== 'identity') {
    // milk asks for none (no accept-encoding), and reading gzip as text would be garbage, then "closed mid-answer".
    res.resume();
    reject(new EncodedResponseError(encoding));
    return;
  }
  if (status >= 200 && status < 300) {
    res.setEncoding('utf8');
    resolve(res);
    return;
  }
  // fetch followed redirects; a streamed POST should not be re-sent blind, so the person is told where it went.
  const location = res.headers.location;
  if (status >= 300 && status < 400 && location) {
    res.resume();
    reject(new HttpStatusError(status, `it moved to ${movedTo(location, url)}; set the base URL to match`, undefined));
    return;
  }
  readErrorBody(res).then(
    (message) => reject(new HttpStatusError(status, message, retryAfterMs(res.headers))),
    () => reject(new HttpStatusError(status, undefined, retryAfterMs(res.headers))),
  );
}

/** Where a redirect points, resolved against the request and without credentials or query. */
function movedTo(location: string, from: URL): string {
  try {
    const target = new URL(location, from);
    return redactUrl(target.href);
  } catch {
    return 'an address that is not a URL';
  }
}

/** The `error.message` of a JSON error body, read up to 16 KB. */
async function readErrorBody(res: IncomingMessage): Promise<string | undefined> {
  res.setEncoding('utf8');
  let raw = '';
  for await (const chunk of res) {
    raw += chunk;
    if (raw.length > 16 * 1024) {
      res.destroy();
      break;
    }
  }
  try {
    const message = (JSON.parse(raw) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** What GET answers is read up to this, at most (a list of models is a few KB; a gateway's a few hundred). */
const MAX_JSON_BYTES = 8 * 1024 * 1024;

/**
 * A GET of JSON (a list of models), through the same proxies, checks and errors as a stream; one retry as a stream
 * has; a body past 8 MB or not JSON is an error.
 */
export async function getJson(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  checkUrl(url);
  let res: IncomingMessage;
  try {
    res = await post({ url, headers }, signal);
  } catch (err) {
    if (signal.aborted || !retryable(err)) throw err;
    await sleep(backoffMs(0), signal);
    res = await post({ url, headers }, signal);
  }
  let raw = '';
  for await (const chunk of res) {
    raw += chunk;
    if (raw.length > MAX_JSON_BYTES) {
      res.destroy();
      throw new Error('the answer is larger than 8 MB');
    }
  }
  return JSON.parse(raw) as unknown;
}

/**
 * The response's events, in order. Fed from the socket's data events rather
 * than the stream's async iterator, whose promise per chunk was most of the
 * cost of reading once the SDK had gone.
 */
async function* readEvents(res: IncomingMessage, onEvent: () => void): AsyncIterable<SseEvent> {
  const { createParser } = load<typeof import('eventsource-parser')>('eventsource-parser');
  let ready: SseEvent[] = [];
  let ended = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const rouse = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  // Characters since the last whole event: a line or a `data:` field that never ends must not grow without bound.
  let open = 0;
  // The idle watchdog is told of whole events and keep-alive comments only: a server dripping a byte at a time into
  // an event that never ends is not a live one.
  const parser = createParser({
    onEvent: (e) => {
      open = 0;
      onEvent();
      ready.push({ event: e.event, data: e.data });
    },
    onComment: () => onEvent(),
  });
  res.on('data', (chunk: string) => {
    if (failure) return;
    open += chunk.length;
    parser.feed(chunk);
    if (open > MAX_EVENT_CHARS) {
      failure = new TooLargeError('event', MAX_EVENT_CHARS);
      res.destroy();
    }
    if (ready.length > 0 || failure) rouse();
  });
  res.once('end', () => {
    ended = true;
    rouse();
  });
  res.once('error', (err) => {
    failure = err;
    rouse();
  });
  // A connection that closes before the end: whatever arrived is kept, the caller sees it ended early.
  res.once('close', () => {
    if (!res.complete && !failure) failure = new StreamClosedError();
    ended = true;
    rouse();
  });
  try {
    for (;;) {
      if (ready.length > 0) {
        const batch = ready;
        ready = [];
        yield* batch;
        continue;
      }
      if (failure) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    // Leaving early (an abort, a full answer, an error in the reader) hangs up.
    if (!res.complete) res.destroy();
  }
}

/** Loads what the first request needs, so the Enter key does not wait for it. */
export function warmEventStream(): void {
  load('node:http');
  load('eventsource-parser');
}

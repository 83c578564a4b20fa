// The typed failures of a streamed request, thrown where they happen
// (event-stream.ts) and explained by type and error code in errors.ts,
// never by matching message text.

/** A response outside 2xx; `serverMessage` is the server's own words from a JSON error body. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`HTTP ${status}`);
    this.name = 'HttpStatusError';
  }
}

/** The base URL names a user or password: milk will not send them (the key goes in its variable). */
export class CredentialsInUrlError extends Error {
  constructor() {
    super('the base URL includes credentials');
    this.name = 'CredentialsInUrlError';
  }
}

/** The server closed the connection before the answer's end. */
export class StreamClosedError extends Error {
  readonly code = 'ECONNRESET';
  constructor() {
    super('the connection closed before the end of the response');
    this.name = 'StreamClosedError';
  }
}

/** One event (or a line of one) passed what any answer needs, or a tool call's arguments did: the turn stops there. */
export class TooLargeError extends Error {
  constructor(
    readonly what: 'event' | 'tool-arguments',
    readonly limit: number,
  ) {
    super(`${what} over ${limit} characters`);
    this.name = 'TooLargeError';
  }
}

/**
 * The most one server-sent event may hold (8 Mi characters: a delta is a few
 * words, a whole answer a few hundred KiB), and one tool call's arguments
 * (4 Mi: a file written whole is at most the 256 KiB a read returns, many times over).
 */
export const MAX_EVENT_CHARS = 8 * 1024 * 1024;
export const MAX_TOOL_ARGS_CHARS = 4 * 1024 * 1024;

/** The server compressed the stream (gzip, deflate, br) though milk asked for it plain. */
export class EncodedResponseError extends Error {
  constructor(readonly encoding: string) {
    super(`content-encoding ${encoding}`);
    this.name = 'EncodedResponseError';
  }
}

/** A proxy variable that is not a URL. */
export { ProxyConfigError } from '../io/proxy';

/**
 * The proxy a failure came from (it refused the tunnel, or could not be reached), for the message; credentials left
 * out.
 */
export class ProxyError extends Error {
  constructor(
    readonly proxy: string,
    readonly status: number | null,
    readonly code: string | undefined,
  ) {
    super(status !== null ? `the proxy answered ${status}` : `the proxy could not be reached (${code ?? 'error'})`);
    this.name = 'ProxyError';
  }
}

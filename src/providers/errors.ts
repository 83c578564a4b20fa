// Provider failures as messages a person can act on. Whatever went wrong, the
// message names the cause (refused, timed out, key rejected, rate limited,
// server error, cut off) and never includes an API key or the conversation.

import { redactSecrets, redactUrl } from '../kernel/redact';
import {
  CredentialsInUrlError,
  EncodedResponseError,
  HttpStatusError,
  ProxyConfigError,
  ProxyError,
  StreamClosedError,
  TooLargeError,
} from './failures';

/** A server's own words, on one line and short enough for a note. */
export function serverText(text: string, key: string | undefined): string {
  const line = redactSecrets(text, key).replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** What servers say when a model is sent images it does not take (OpenAI, Anthropic, vLLM, Ollama, llama.cpp). */
const IMAGE_REFUSAL = /\bimages?\b|image_url|vision|multi-?modal/i;

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly incomplete = false,
    /** The server refused the request for its images (a 4xx naming them): it may be asked again without them. */
    readonly refusesImages = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Node's codes for a certificate chain it would not trust. */
const TLS_TRUST_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
]);
/** OpenSSL's reasons for a handshake with a server that answered in plain text. */
const NOT_TLS_REASONS = new Set(['wrong version number', 'packet length too long', 'unknown protocol', 'http request']);
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE']);

interface NodeErrorFields {
  code?: unknown;
  reason?: unknown;
  cause?: unknown;
}

/**
 * OpenSSL's reason for a failed handshake. Node puts it on the error only
 * inside OpenSSL's own error string (`error:0A00010B:SSL routines:…:wrong
 * version number:…`), a fixed format of fields, which is read here.
 */
function opensslReason(e: NodeErrorFields): string | undefined {
  const message = (e as { message?: unknown }).message;
  if (e.code !== 'EPROTO' || typeof message !== 'string') return undefined;
  return /:error:[0-9A-F]+:SSL routines:[^:]*:([^:]+):/i.exec(message)?.[1]?.toLowerCase();
}

/** The first of an error and its causes that carries a Node error code (with OpenSSL's reason, where it gives one). */
function nodeCode(err: unknown): { code?: string; reason?: string } {
  let e = err as NodeErrorFields | undefined;
  for (let i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string')
      return { code: e.code, reason: typeof e.reason === 'string' ? e.reason.toLowerCase() : opensslReason(e) };
    e = e.cause as NodeErrorFields | undefined;
  }
  return {};
}

export interface DescribeContext {
  provider: string;
  baseUrl: string;
  keyVariable: string;
  /** The key, if one is set: to say whether one was, and to hide it where a server echoes it. */
  key?: string;
  /** Text already shown from this answer: a failure now leaves it incomplete. */
  partial: boolean;
}

function describeStatus(err: HttpStatusError, ctx: DescribeContext, suffix: string): ProviderError {
  const { status } = err;
  if (status === 401 || status === 403) {
    const why = ctx.key ? `the API key in ${ctx.keyVariable} was rejected` : `${ctx.keyVariable} is not set`;
    return new ProviderError(`${ctx.provider}: ${status} ${status === 401 ? 'unauthorized' : 'forbidden'}: ${why}`);
  }
  if (status === 429)
    return new ProviderError(
      `${ctx.provider}: rate limited (429), still after a retry; try again shortly${suffix}`,
      ctx.partial,
    );
  if (status >= 500)
    return new ProviderError(`${ctx.provider}: server error ${status}, still after a retry${suffix}`, ctx.partial);
  const said = err.serverMessage?.trim() ? `: ${serverText(err.serverMessage, ctx.key)}` : '';
  const images = status >= 400 && status < 500 && IMAGE_REFUSAL.test(err.serverMessage ?? '');
  return new ProviderError(`${ctx.provider}: the server answered ${status}${said}${suffix}`, ctx.partial, images);
}

function describeProxy(err: ProxyError, ctx: DescribeContext): ProviderError {
  if (err.status === 407)
    return new ProviderError(
      `${ctx.provider}: the proxy ${err.proxy} asks for credentials (407); give them in the proxy variable, as http://user:password@host:port`,
    );
  if (err.status !== null)
    return new ProviderError(
      `${ctx.provider}: the proxy ${err.proxy} would not connect to ${ctx.baseUrl} (it answered ${err.status}); ` +
        `NO_PROXY lists hosts to reach directly`,
    );
  if (err.code === 'ETIMEDOUT' && err.status === null)
    return new ProviderError(
      `${ctx.provider}: the proxy ${err.proxy} did not answer (no tunnel to ${ctx.baseUrl} was opened); it is set ` +
        `by HTTPS_PROXY or ALL_PROXY, and NO_PROXY lists hosts to reach directly`,
    );
  const why =
    err.code === 'ECONNREFUSED'
      ? 'connection refused'
      : err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN'
        ? 'cannot resolve its host'
        : (err.code ?? 'error');
  return new ProviderError(
    `${ctx.provider}: cannot reach the proxy ${err.proxy} (${why}), set by HTTPS_PROXY, HTTP_PROXY or ALL_PROXY`,
  );
}

/** Turns what the request threw into a ProviderError, by the error's type and Node's error code. */
export function describeProviderError(err: unknown, ctx: DescribeContext): ProviderError {
  if (err instanceof ProviderError) return err;
  ctx = { ...ctx, baseUrl: redactUrl(ctx.baseUrl) };
  const suffix = ctx.partial ? ' (the answer above is incomplete)' : '';
  const fail = (message: string, incomplete = false): ProviderError => new ProviderError(message, incomplete);
  if (err instanceof HttpStatusError) return describeStatus(err, ctx, suffix);
  if (err instanceof ProxyConfigError)
    return fail(`${ctx.provider}: ${err.variable} is not a valid URL (a proxy such as http://proxy.example:3128)`);
  if (err instanceof ProxyError) return describeProxy(err, ctx);
  if (err instanceof CredentialsInUrlError)
    return fail(
      `${ctx.provider}: the base URL ${ctx.baseUrl} holds a user name or password; put the key in ` +
        `${ctx.keyVariable} instead`,
    );
  if (err instanceof SyntaxError)
    return fail(`${ctx.provider}: the server sent a malformed stream${suffix}`, ctx.partial);
  if (err instanceof EncodedResponseError)
    return fail(
      `${ctx.provider}: the server sent its answer compressed (${err.encoding}) though milk asked for it plain; a ` +
        `proxy may be rewriting it`,
    );
  if (err instanceof TooLargeError) {
    const what = err.what === 'event' ? 'one event of the stream' : "a tool call's arguments";
    return fail(
      `${ctx.provider}: ${what} passed ${(err.limit / 1024 / 1024).toFixed(0)} MiB; the answer was stopped ` +
        `there${suffix}`,
      ctx.partial,
    );
  }
  const { code, reason } = nodeCode(err);
  if (code === 'ERR_INVALID_URL') return fail(`${ctx.provider}: ${ctx.baseUrl} is not a valid URL`);
  if (code === 'ECONNREFUSED')
    return fail(`${ctx.provider}: connection refused at ${ctx.baseUrl}; is the server running?`);
  if (code !== undefined && TLS_TRUST_CODES.has(code)) {
    return fail(
      `${ctx.provider}: the TLS certificate of ${ctx.baseUrl} is not trusted (${code}); NODE_EXTRA_CA_CERTS can ` +
        `name a CA to trust`,
    );
  }
  if (code === 'EPROTO' && reason !== undefined && NOT_TLS_REASONS.has(reason)) {
    return fail(`${ctx.provider}: ${ctx.baseUrl} does not speak TLS; if the server is plain HTTP, use http://`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return fail(`${ctx.provider}: cannot resolve the host of ${ctx.baseUrl}`);
  if (code === 'ETIMEDOUT')
    return fail(`${ctx.provider}: timed out connecting to ${ctx.baseUrl}${suffix}`, ctx.partial);
  if (code === 'HPE_HEADER_OVERFLOW')
    return fail(
      `${ctx.provider}: the server's response headers were larger than Node accepts (--max-http-header-size)`,
    );
  if (ctx.partial || err instanceof StreamClosedError || (code !== undefined && CLOSED_CODES.has(code))) {
    return fail(`${ctx.provider}: the connection closed mid-answer${suffix}`, ctx.partial);
  }
  const name = err instanceof Error ? err.name : 'error';
  return fail(`${ctx.provider}: request failed (${code ?? name})${suffix}`, ctx.partial);
}

// When a request to a model's server is tried again: a status or a network error that may pass, after the server's
// own wait (retry-after-ms, retry-after) or half a second doubling with jitter, as the SDKs wait.

import type { IncomingMessage } from 'node:http';
import { HttpStatusError } from './failures';

export const RETRY_STATUS = (status: number): boolean =>
  status === 408 || status === 409 || status === 429 || status >= 500;

export const RETRY_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);

/** A retry-after longer than this is not waited for: the person gets the message instead. */
export const MAX_RETRY_WAIT_MS = 60_000;

export function retryable(err: unknown): boolean {
  if (err instanceof HttpStatusError) return RETRY_STATUS(err.status);
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRY_ERROR_CODES.has(code);
}

/** Half a second, doubling, with a quarter of jitter downwards, as the SDKs wait. */
export function backoffMs(attempt: number): number {
  return Math.min(8000, 500 * 2 ** attempt) * (1 - Math.random() * 0.25);
}

/** The server's own wait: retry-after-ms (OpenAI's), else retry-after in seconds or as a date. */
export function retryAfterMs(headers: IncomingMessage['headers'], now = Date.now()): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after'];
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

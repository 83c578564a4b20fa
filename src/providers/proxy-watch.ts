// A request through a proxy, watched for what the proxy answers itself: a refused tunnel, a request for credentials,
// a proxy that cannot be reached or never answers CONNECT; each becomes a ProxyError that names the proxy.

import type { ClientRequest, IncomingMessage } from 'node:http';
import { proxyLabel } from '../io/proxy';
import { ProxyError } from './failures';

/** Errors of reaching the proxy itself, before any tunnel: the proxy is named, not the model's server. */
export const PROXY_CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Listens for what a proxy answers itself: a refused tunnel, a request for
 * credentials, a proxy that cannot be reached. Returns whether a response is
 * the proxy's (then it has been rejected with a ProxyError).
 */
export function watchProxy(
  req: ClientRequest,
  url: URL,
  proxy: URL,
  signal: AbortSignal,
  reject: (err: unknown) => void,
): (res: IncomingMessage) => boolean {
  const label = proxyLabel(proxy);
  /** The proxy's answer to CONNECT (https through a proxy), once it has come. */
  let tunnel: number | null = null;
  // A request given to a proxy agent has no socket until the tunnel is open, and Node reports an abort only through
  // the socket: a proxy that never answers CONNECT would hold the request past every timeout. The abort (the idle
  // watchdog's, or a cancel) settles it here, naming the proxy while no tunnel was opened.
  const tunnelling = url.protocol === 'https:';
  const onAbort = (): void => {
    reject(tunnelling && tunnel === null ? new ProxyError(label, null, 'ETIMEDOUT') : signal.reason);
    req.destroy();
  };
  if (signal.aborted) queueMicrotask(onAbort);
  else signal.addEventListener('abort', onAbort, { once: true });
  req.once('close', () => signal.removeEventListener('abort', onAbort));
  const refused = (res: IncomingMessage): number | null =>
    tunnel !== null && tunnel !== 200 ? tunnel : res.statusCode === 407 ? 407 : null;
  req.once('proxyConnect', (c: { statusCode?: number }) => (tunnel = c.statusCode ?? 0));
  req.once('error', (err) => {
    const code = (err as NodeJS.ErrnoException).code;
    reject(tunnel === null && code && PROXY_CONNECT_CODES.has(code) ? new ProxyError(label, null, code) : err);
  });
  req.once('response', (res) => {
    const status = refused(res);
    if (status === null) return;
    res.resume();
    reject(new ProxyError(label, status, undefined));
  });
  return (res) => refused(res) !== null;
}

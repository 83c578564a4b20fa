// Which proxy a request to the model (or web_fetch's) goes through, read from the variables
// every shell tool honours: HTTPS_PROXY for https URLs, HTTP_PROXY for http
// ones, ALL_PROXY for either (lower-case names too, which win, as in curl),
// and NO_PROXY's hosts go direct. An https URL is tunnelled with CONNECT and
// TLS runs end to end through it (https-proxy-agent); an http one is sent to
// the proxy whole (http-proxy-agent). The agents load only when a proxy is
// set: a start without one never pays for them.

import type { Agent } from 'node:http';

export type Env = Readonly<Record<string, string | undefined>>;

/** A proxy variable that is set but is no URL. */
export class ProxyConfigError extends Error {
  constructor(readonly variable: string) {
    super(`${variable} is not a valid URL`);
    this.name = 'ProxyConfigError';
  }
}

function envVar(env: Env, name: string): string | undefined {
  const v = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return v?.trim() ? v.trim() : undefined;
}

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Whether NO_PROXY sends `url` direct: `*`, a host, a domain (`.example.com`, `*.example.com` or `example.com` with its
 * subdomains), each with an optional port.
 */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(url.port) || DEFAULT_PORT[url.protocol] || 0;
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    // `host`, `host:port`, `[v6]`, `[v6]:port`, or a bare IPv6 address (more than one colon, no port).
    const bracketed = /^\[(.*)\](?::(\d+))?$/.exec(entry);
    const colons = entry.split(':').length - 1;
    const [name, entryPort] = bracketed
      ? [bracketed[1], bracketed[2]]
      : colons === 1
        ? entry.split(':')
        : [entry, undefined];
    if (entryPort && Number(entryPort) !== port) continue;
    const domain = name.replace(/^\*?\./, '');
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

/** The proxy URL for a request to `url`, or null to go direct. */
export function proxyFor(url: URL, env: Env = process.env): URL | null {
  const scheme = url.protocol === 'https:' ? 'https_proxy' : 'http_proxy';
  const raw = envVar(env, scheme) ?? envVar(env, 'all_proxy');
  if (!raw || bypassesProxy(url, envVar(env, 'no_proxy'))) return null;
  try {
    // A proxy written without a scheme (`proxy:3128`) is an http one, as curl takes it.
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    throw new ProxyConfigError(scheme.toUpperCase());
  }
}

/** The proxy as a person may see it: scheme, host and port, never a user name or password. */
export function proxyLabel(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

const agents = new Map<string, Agent>();

/** An agent that sends a request to `url` through `proxy` (one per proxy and scheme, reused). */
export function proxyAgent(url: URL, proxy: URL): Agent {
  const key = `${url.protocol} ${proxy.href}`;
  let agent = agents.get(key);
  if (!agent) {
    // The agents log through `debug`, which reads DEBUG once as it loads: a DEBUG=* set for something else would write
    // over the screen.
    const debug = process.env.DEBUG;
    delete process.env.DEBUG;
    try {
      /* eslint-disable @typescript-eslint/no-require-imports */
      agent =
        url.protocol === 'https:'
          ? new (require('https-proxy-agent') as typeof import('https-proxy-agent')).HttpsProxyAgent(proxy)
          : new (require('http-proxy-agent') as typeof import('http-proxy-agent')).HttpProxyAgent(proxy);
      /* eslint-enable @typescript-eslint/no-require-imports */
    } finally {
      if (debug !== undefined) process.env.DEBUG = debug;
    }
    agents.set(key, agent);
  }
  return agent;
}

// web_search's request: one GET to the search service the person configured (config `webSearch`), from milk's own
// process (never the sandbox), through the proxy the environment names (io/proxy.ts), its answer capped in bytes and
// the whole in time, then read field by field (web-search-results.ts). Loaded at the first call.

import { type IncomingMessage, get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { WebSearchConfig } from '../protocol/tools';
import { proxyAgent, proxyFor } from '../io/proxy';
import { redactUrl } from '../kernel/redact';
import { type SearchResult, braveResults, searxngResults } from './web-search-results';

/** The whole request at most. */
export const SEARCH_TIMEOUT_MS = 15_000;
/** Bytes of an answer read at most: a search answer is a few KB; past this it is not one. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
export const DEFAULT_RESULTS = 8;
export const BRAVE_URL = 'https://api.search.brave.com/res/v1/web/search';
export const BRAVE_KEY_VARIABLE = 'BRAVE_API_KEY';

type Service = Exclude<WebSearchConfig, { service: 'provider' }>;

/** The request for `query`: its URL and headers (Brave's key from its variable), or why none can be made. */
export function searchRequest(
  service: Service,
  query: string,
  count: number,
  env: NodeJS.ProcessEnv = process.env,
): { url: URL; headers: Record<string, string> } | { problem: string } {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'milk (web_search)' };
  if (service.service === 'searxng') {
    const url = new URL('search', service.url.endsWith('/') ? service.url : `${service.url}/`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    return { url, headers };
  }
  const variable = service.apiKeyEnv ?? BRAVE_KEY_VARIABLE;
  const key = env[variable];
  if (!key) return { problem: `${variable} is not set: Brave Search needs its API key there (config webSearch)` };
  const url = new URL(service.url ?? BRAVE_URL);
  url.searchParams.set('q', query);
  url.searchParams.set('count', String(count));
  return { url, headers: { ...headers, 'x-subscription-token': key } };
}

/** Searches; throws with a message for the model (the service's URL shown without its query) when it cannot. */
export async function searchWeb(
  service: Service,
  query: string,
  count: number,
  signal: AbortSignal,
  timeoutMs = SEARCH_TIMEOUT_MS,
): Promise<SearchResult[]> {
  const request = searchRequest(service, query, count);
  if ('problem' in request) throw new Error(request.problem);
  const name = service.service === 'searxng' ? 'SearXNG' : 'Brave Search';
  const shown = redactUrl(request.url.href);
  const deadline = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  let answer: { status: number; body: string };
  try {
    answer = await get(request.url, request.headers, both);
  } catch (err) {
    const why = signal.aborted
      ? 'stopped'
      : deadline.aborted
        ? `${name} (${shown}) did not answer within ${timeoutMs / 1000} s`
        : `${name} (${shown}) could not be reached: ${(err as Error).message}`;
    throw new Error(why, { cause: err });
  }
  if (answer.status !== 200)
    throw new Error(`${name} (${shown}) answered ${answer.status}${statusHint(answer.status)}`);
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    throw new Error(`${name} (${shown}) did not answer JSON${service.service === 'searxng' ? JSON_HINT : ''}`);
  }
  const found = service.service === 'searxng' ? searxngResults(json, count) : braveResults(json, count);
  if ('problem' in found) throw new Error(found.problem);
  return found;
}

/** SearXNG answers 403 to format=json until its settings.yml lists json among `search.formats`. */
const JSON_HINT = ' (its settings.yml must list json under search.formats)';

function statusHint(status: number): string {
  if (status === 401 || status === 422) return ' (is the API key right?)';
  if (status === 403) return ` (refused${JSON_HINT}, or the key lacks the plan)`;
  if (status === 429) return ' (too many requests: its rate limit)';
  return '';
}

/** A GET through the proxy for its URL, if any; its status and its body (at most MAX_ANSWER_BYTES) as text. */
function get(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ status: number; body: string }> {
  const proxy = proxyFor(url);
  const agent = proxy ? proxyAgent(url, proxy) : undefined;
  const getter = url.protocol === 'https:' ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    const req = getter(url, { headers, agent, signal }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_ANSWER_BYTES) {
          req.destroy(new Error(`its answer passed ${MAX_ANSWER_BYTES / 1024 / 1024} MB`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

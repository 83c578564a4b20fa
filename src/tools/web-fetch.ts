// web_fetch's fetch: an HTTP(S) GET from milk's own process (never the
// sandbox), through the proxy the environment names (io/proxy.ts), redirects
// followed up to a limit and each one kept to be shown, the body capped in
// bytes and the whole in time; then the page as text: HTML turned into
// readable Markdown, other text as it is, anything else refused. The requests
// and the reading are a worker thread's (tools/web-fetch-worker.ts); this side
// judges each redirect and waits. Loaded at the first call.

import { Worker } from 'node:worker_threads';
import { proxyFor } from '../io/proxy';
import { redactUrl } from '../kernel/redact';
import { type FetchJob, type FromWorker, type NextHop, type PageRead, workerSource } from './web-fetch-worker';

/** Bytes of a page read at most; past it the page is cut, and said so. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** The whole fetch, redirects included, at most. */
export const FETCH_TIMEOUT_MS = 30_000;
export const MAX_REDIRECTS = 5;
/** Characters of the page the model gets at most. */
export const MAX_PAGE_CHARS = 100_000;
/** Turning a page's HTML into Markdown, at most: past it (or the worker's memory) the model gets its plain text. */
export const CONVERT_MS = 5_000;
/** The worker's heap, at most: a page built to exhaust it ends the worker, never milk. */
const WORKER_HEAP_MB = 256;

export interface Fetched extends PageRead {
  /** Where the page was at last. */
  readonly url: string;
  /** Each redirect followed, from where to where. */
  readonly redirects: readonly string[];
}

/**
 * GETs `url`, following redirects, and reads the page as text in a worker thread (so a large page never holds the
 * screen up; the worker is ended with the call, Ctrl-C); throws with a message for the model when it cannot.
 * `denied`: why a host may not be fetched (a deny rule), checked at each redirect; null when it may.
 */
export function fetchPage(
  url: string,
  signal: AbortSignal,
  timeoutMs = FETCH_TIMEOUT_MS,
  denied: (host: string) => string | null = () => null,
): Promise<Fetched> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  const redirects: string[] = [];
  let at = new URL(url);
  const job: FetchJob = {
    url: at.href,
    proxy: proxyHref(at),
    maxBytes: MAX_PAGE_BYTES,
    maxChars: MAX_PAGE_CHARS,
    modules: modules(),
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerSource(), {
      eval: true,
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    // An HTML page's plain text, kept while it is turned into Markdown: given if that fails or takes too long.
    let plain: PageRead | null = null;
    let converting: NodeJS.Timeout | null = null;
    const fallBack = (why: string): void => end(null, plain ? { ...plain, plain: why } : undefined);
    const end = (err: Error | null, page?: PageRead): void => {
      if (converting) clearTimeout(converting);
      both.removeEventListener('abort', stop);
      worker.removeAllListeners();
      void worker.terminate();
      if (err) reject(err);
      else if (page) resolve({ ...page, url: at.href, redirects });
    };
    const stop = (): void =>
      end(new Error(deadline.aborted ? `no complete answer within ${timeoutMs / 1000} s` : 'stopped'));
    both.addEventListener('abort', stop, { once: true });
    worker.on('message', (m: FromWorker) => {
      if (m.kind === 'error')
        return plain ? fallBack(`it failed (${m.message.slice(0, 100)})`) : end(new Error(m.message));
      if (m.kind === 'page') return end(null, m.page);
      if (m.kind === 'plain') {
        plain = m.page;
        converting = setTimeout(() => fallBack(`it took over ${CONVERT_MS / 1000} s`), CONVERT_MS);
        return;
      }
      try {
        const to = nextHop(at, m.to, m.status, redirects, denied);
        at = to;
        worker.postMessage({ url: to.href, proxy: proxyHref(to) } satisfies NextHop);
      } catch (err) {
        end(err as Error);
      }
    });
    worker.on('error', (err) => (plain ? fallBack(`it ran out of memory (${err.message.slice(0, 80)})`) : end(err)));
    worker.on('exit', () => (plain ? fallBack('it stopped') : end(new Error('the page could not be read'))));
  });
}

/** The packages the worker loads, found from here (its source text cannot resolve them). */
function modules(): FetchJob['modules'] {
  return {
    linkedom: require.resolve('linkedom'),
    readability: require.resolve('@mozilla/readability'),
    turndown: require.resolve('turndown'),
    httpProxy: require.resolve('http-proxy-agent'),
    httpsProxy: require.resolve('https-proxy-agent'),
  };
}

function proxyHref(url: URL): string | null {
  return proxyFor(url)?.href ?? null;
}

/** A redirect judged: where it leads, or why it is not followed (thrown). It is kept in `redirects` to be shown. */
function nextHop(
  from: URL,
  location: string,
  status: number,
  redirects: string[],
  denied: (host: string) => string | null,
): URL {
  if (redirects.length >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
  const to = new URL(location);
  if (to.protocol !== 'http:' && to.protocol !== 'https:')
    throw new Error(`a redirect to ${to.protocol} (only http and https are fetched)`);
  const why = denied(to.hostname);
  if (why !== null) throw new Error(`it redirected to ${redactUrl(to.href)}, which ${why}`);
  redirects.push(`${redactUrl(from.href)} → ${redactUrl(to.href)} (${status})`);
  return to;
}

// web_fetch's fetch: an HTTP(S) GET from milk's own process (never the
// sandbox), through the proxy the environment names (io/proxy.ts), redirects
// followed up to a limit and each one kept to be shown, the body capped in
// bytes and the whole in time; then the page as text: HTML turned into
// readable Markdown, other text as it is, anything else refused. The requests
// and the reading are a worker thread's (tools/web-fetch-worker.ts); this side
// judges each redirect and waits. Loaded at the first call.

import { isIP } from 'node:net';
import { Worker } from 'node:worker_threads';
import { proxyFor } from '../io/proxy';
import { redactUrl } from '../kernel/redact';
import type { WebJudge } from './tool';
import { canonicalHost } from '../settings/deny-match';
import { addressesOf, reachOf } from './web-hosts';
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
 * screen up; the worker is ended with the call, Ctrl-C); throws with a message for the model when it cannot. Every
 * hop, the first included, is judged by `web` (deny rules by name and address, another host asked again, private
 * addresses only when allowed by name) and connected to the address judged.
 */
export async function fetchPage(
  url: string,
  signal: AbortSignal,
  timeoutMs = FETCH_TIMEOUT_MS,
  web?: WebJudge,
): Promise<Fetched> {
  const start = new URL(url);
  const hops = new Hops(web, canonicalHost(start.hostname));
  const job: FetchJob = {
    url: start.href,
    proxy: proxyHref(start),
    addresses: await hops.judge(start, null),
    maxBytes: MAX_PAGE_BYTES,
    maxChars: MAX_PAGE_CHARS,
    modules: modules(),
  };
  return inWorker(job, hops, signal, timeoutMs);
}

/** The fetch's worker, from its first hop (judged) to the page, each redirect judged on the way. */
function inWorker(job: FetchJob, hops: Hops, signal: AbortSignal, timeoutMs: number): Promise<Fetched> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  const redirects: string[] = [];
  let at = new URL(job.url);
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerSource(), {
      eval: true,
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    // An HTML page's plain text, kept while it is turned into Markdown: given if that fails or takes too long.
    let plain: PageRead | null = null;
    let converting: NodeJS.Timeout | null = null;
    let ended = false;
    const fallBack = (why: string): void => end(null, plain ? { ...plain, plain: why } : undefined);
    const end = (err: Error | null, page?: PageRead): void => {
      ended = true;
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
    if (both.aborted) stop();
    const redirect = async (to: string, status: number): Promise<void> => {
      const next = nextHop(at, to, status, redirects);
      const addresses = await hops.judge(next, at);
      if (ended) return;
      redirects.push(`${redactUrl(at.href)} → ${redactUrl(next.href)} (${status})`);
      at = next;
      worker.postMessage({ url: next.href, proxy: proxyHref(next), addresses } satisfies NextHop);
    };
    worker.on('message', (m: FromWorker) => {
      if (m.kind === 'error')
        return plain ? fallBack(`it failed (${m.message.slice(0, 100)})`) : end(new Error(m.message));
      if (m.kind === 'page') return end(null, m.page);
      if (m.kind === 'plain') {
        plain = m.page;
        converting = setTimeout(() => fallBack(`it took over ${CONVERT_MS / 1000} s`), CONVERT_MS);
        return;
      }
      redirect(m.to, m.status).catch((err: Error) => end(err));
    });
    worker.on('error', (err) => (plain ? fallBack(`it ran out of memory (${err.message.slice(0, 80)})`) : end(err)));
    worker.on('exit', () => (plain ? fallBack('it stopped') : end(new Error('the page could not be read'))));
  });
}

/** The hosts of one fetch, judged hop by hop: those its approval covers, and those the person allowed by name. */
class Hops {
  private readonly covered = new Set<string>();
  private readonly byPerson = new Set<string>();

  constructor(
    private readonly web: WebJudge | undefined,
    host: string,
  ) {
    this.covered.add(host);
    if (web?.asked) this.byPerson.add(host);
  }

  /** The addresses to connect to (null through a proxy, which resolves it); throws why the hop may not be made. */
  async judge(url: URL, from: URL | null): Promise<readonly string[] | null> {
    const host = canonicalHost(url.hostname);
    const shown = redactUrl(url.href);
    const refuse = (why: string): Error =>
      new Error(from === null ? `${shown} ${why}` : `it redirected to ${shown}, which ${why}`);
    const proxy = proxyHref(url);
    // A name is judged by name first: a denied one is refused without asking DNS about it.
    const byName = isIP(host) ? null : ((await this.web?.denied(host, [])) ?? null);
    if (byName !== null) throw refuse(byName);
    const addresses = await addressesOf(host, proxy !== null);
    const denied = (await this.web?.denied(host, addresses)) ?? null;
    if (denied !== null) throw refuse(denied);
    if (!this.covered.has(host)) {
      const verdict = this.web ? await this.web.another(url.href, host) : 'ruled';
      if (typeof verdict === 'object') throw refuse(`was not fetched: ${verdict.why}`);
      if (verdict === 'asked') this.byPerson.add(host);
      this.covered.add(host);
    }
    const inner = addresses.find((a) => reachOf(a) !== null);
    if (inner !== undefined && !this.byPerson.has(host) && !(this.web?.named(host) ?? false))
      throw refuse(
        `is a ${reachOf(inner)} address (${inner}): web_fetch reaches loopback, link-local and private addresses ` +
          `only for a host the person allows by name (their yes to a call that names it, or an allow rule for ` +
          `web_fetch naming ${host})`,
      );
    return proxy === null && addresses.length > 0 ? addresses : null;
  }
}

function proxyHref(url: URL): string | null {
  return proxyFor(url)?.href ?? null;
}

/** A redirect's target, or why it is not followed (thrown): the count and the scheme; its host is judged after. */
function nextHop(from: URL, location: string, status: number, redirects: string[]): URL {
  if (redirects.length >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
  const to = new URL(location, from);
  if (to.protocol !== 'http:' && to.protocol !== 'https:')
    throw new Error(`a redirect to ${to.protocol} (only http and https are fetched); status ${status}`);
  return to;
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

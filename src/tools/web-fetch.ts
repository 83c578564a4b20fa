// web_fetch's fetch: an HTTP(S) GET from milk's own process (never the
// sandbox), through the proxy the environment names (io/proxy.ts), redirects
// followed up to a limit and each one kept to be shown, the body capped in
// bytes and the whole in time; then the page as text: HTML turned into
// readable Markdown in a worker thread (Readability on linkedom's document,
// then turndown), other text as it is, anything else refused. Loaded at the
// first call.

import * as http from 'node:http';
import * as https from 'node:https';
import { Worker } from 'node:worker_threads';
import { proxyAgent, proxyFor } from '../io/proxy';
import { redactUrl } from '../kernel/redact';

/** Bytes of a page read at most; past it the page is cut, and said so. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** The whole fetch, redirects included, at most. */
export const FETCH_TIMEOUT_MS = 30_000;
export const MAX_REDIRECTS = 5;
/** Characters of the page the model gets at most. */
export const MAX_PAGE_CHARS = 100_000;

export interface Fetched {
  readonly url: string;
  /** Each redirect followed, from where to where. */
  readonly redirects: readonly string[];
  readonly status: number;
  readonly type: string;
  readonly body: Buffer;
  /** The body was longer than MAX_PAGE_BYTES. */
  readonly cut: boolean;
}

/**
 * GETs `url`, following redirects; throws with a message for the model when it cannot. `denied`: why a host may not
 * be fetched (a deny rule), checked at each redirect; null when it may.
 */
export async function fetchPage(
  url: string,
  signal: AbortSignal,
  timeoutMs = FETCH_TIMEOUT_MS,
  denied: (host: string) => string | null = () => null,
): Promise<Fetched> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  const redirects: string[] = [];
  let at = new URL(url);
  try {
    for (;;) {
      const got = await getOnce(at, both);
      const next = got.location;
      if (next === null) return { ...got, url: at.href, redirects };
      if (redirects.length >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      const to = new URL(next, at);
      if (to.protocol !== 'http:' && to.protocol !== 'https:')
        throw new Error(`a redirect to ${to.protocol} (only http and https are fetched)`);
      const why = denied(to.hostname);
      if (why !== null) throw new Error(`it redirected to ${redactUrl(to.href)}, which ${why}`);
      redirects.push(`${redactUrl(at.href)} → ${redactUrl(to.href)} (${got.status})`);
      at = to;
    }
  } catch (err) {
    if (deadline.aborted) throw new Error(`no complete answer within ${timeoutMs / 1000} s`, { cause: err });
    throw err;
  }
}

interface Once {
  status: number;
  type: string;
  body: Buffer;
  cut: boolean;
  /** Where a redirect points, or null. */
  location: string | null;
}

function getOnce(url: URL, signal: AbortSignal): Promise<Once> {
  return new Promise((resolve, reject) => {
    const proxy = proxyFor(url);
    const get = url.protocol === 'https:' ? https.get : http.get;
    const req = get(
      url,
      {
        signal,
        headers: { 'user-agent': 'milk (a coding agent; web_fetch)', accept: 'text/html, text/*;q=0.9, */*;q=0.5' },
        ...(proxy ? { agent: proxyAgent(url, proxy) } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = status >= 300 && status < 400 ? (res.headers.location ?? null) : null;
        if (location !== null) {
          res.resume();
          return resolve({ status, type: '', body: Buffer.alloc(0), cut: false, location });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let cut = false;
        res.on('data', (chunk: Buffer) => {
          if (cut) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size > MAX_PAGE_BYTES) {
            cut = true;
            res.destroy();
            finish();
          }
        });
        const finish = (): void =>
          resolve({
            status,
            type: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).subarray(0, MAX_PAGE_BYTES),
            cut,
            location: null,
          });
        res.on('end', finish);
        res.on('error', (err) => (cut ? undefined : reject(err)));
      },
    );
    req.on('error', reject);
  });
}

/** What kind of page it is, by its type (and, with none given, its first bytes). */
export function pageKind(type: string, body: Buffer): 'html' | 'text' | 'binary' {
  const mime = type.split(';')[0].trim().toLowerCase();
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime.startsWith('text/') || /^application\/([\w.+-]+\+)?(json|xml|javascript|yaml|toml)$/.test(mime))
    return 'text';
  if (mime === '') {
    const head = body.subarray(0, 512).toString('utf8');
    if (/^\s*<(!doctype html|html|head|body)/i.test(head)) return 'html';
    return body.subarray(0, 512).includes(0) ? 'binary' : 'text';
  }
  return 'binary';
}

/**
 * The page's main content as Markdown, with its title: worked out in a worker thread, so a large page never holds the
 * screen up. The worker is ended with the call (Ctrl-C).
 */
export function htmlToMarkdown(
  page: Uint8Array,
  url: string,
  signal: AbortSignal,
): Promise<{ title: string; markdown: string }> {
  // The page's bytes are handed over, not copied or decoded here: the main thread only waits.
  const bytes = new Uint8Array(page);
  return new Promise((resolve, reject) => {
    const modules = {
      linkedom: require.resolve('linkedom'),
      readability: require.resolve('@mozilla/readability'),
      turndown: require.resolve('turndown'),
    };
    const worker = new Worker(`(${convertInWorker.toString()})()`, {
      eval: true,
      workerData: { bytes, url, modules },
      transferList: [bytes.buffer],
    });
    const stop = (): void => void worker.terminate();
    signal.addEventListener('abort', stop, { once: true });
    const done = (): void => signal.removeEventListener('abort', stop);
    worker.once('message', (r: { title: string; markdown: string } | { error: string }) => {
      done();
      void worker.terminate();
      if ('error' in r) reject(new Error(r.error));
      else resolve(r);
    });
    worker.once('error', (err) => {
      done();
      reject(err);
    });
    worker.once('exit', () => {
      done();
      reject(new Error(signal.aborted ? 'stopped' : 'the page could not be read'));
    });
  });
}

/** The worker's whole program (run from its source text: the packages are found by the paths it is given). */
function convertInWorker(): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const { bytes, url, modules } = workerData as {
    bytes: Uint8Array;
    url: string;
    modules: { linkedom: string; readability: string; turndown: string };
  };
  try {
    const { parseHTML } = require(modules.linkedom) as typeof import('linkedom');
    const { Readability } = require(modules.readability) as typeof import('@mozilla/readability');
    const TurndownService = require(modules.turndown) as typeof import('turndown');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const { document } = parseHTML(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    // Scripts, styles and what is never read go before anything looks at the page.
    for (const el of Array.from(document.querySelectorAll('script, style, noscript, template, iframe, svg')))
      el.remove();
    const title = (document.querySelector('title')?.textContent ?? '').trim();
    const article = new Readability(document as unknown as Document, { keepClasses: false }).parse();
    const content = article?.content ?? document.body?.innerHTML ?? '';
    const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    const { document: part } = parseHTML(`<!doctype html><html><body>${content}</body></html>`);
    const markdown = turndown.turndown(part.body as unknown as HTMLElement).trim();
    parentPort?.postMessage({ title: (article?.title ?? title).trim() || url, markdown });
  } catch (err) {
    parentPort?.postMessage({ error: (err as Error).message });
  }
}

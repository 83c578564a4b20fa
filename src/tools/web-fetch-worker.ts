// web_fetch's worker: the program a worker thread runs for one fetch. It makes
// each request, reads the body into memory of its own and turns the page into
// text (HTML as Markdown by Readability on linkedom's document, then
// turndown), so that no byte of a page touches milk's main thread: on the
// machines measured, first touching 4.5 MB of fresh memory costs the thread
// that does it ~45 ms, and a main thread that did held keys up for 100 ms. A
// redirect is asked of the main thread, which judges it (deny rules, schemes,
// the count) and names the proxy for the next hop.
//
// The worker runs these functions from their source text (they are joined in
// workerSource), so each uses only its parameters, its locals and `require`.

/* eslint-disable @typescript-eslint/no-require-imports */

/** What the worker is started with. */
export interface FetchJob {
  readonly url: string;
  /** The proxy for the first request, or null to go direct. */
  readonly proxy: string | null;
  /** The addresses judged for the first request's host, connected to instead of resolving it again; null: resolve. */
  readonly addresses: readonly string[] | null;
  readonly maxBytes: number;
  readonly maxChars: number;
  /** Where the packages it loads are (a worker's source text cannot resolve them itself). */
  readonly modules: Readonly<Record<'linkedom' | 'readability' | 'turndown' | 'httpProxy' | 'httpsProxy', string>>;
}

/** What the page was, as the worker read it. */
export interface PageRead {
  readonly status: number;
  readonly type: string;
  readonly kind: 'html' | 'text' | 'binary';
  /** Bytes read (at most maxBytes). */
  readonly bytes: number;
  /** The body was longer than maxBytes. */
  readonly cut: boolean;
  readonly title: string;
  /** At most maxChars of the page as text. */
  readonly text: string;
  /** How long the text was, whole. */
  readonly length: number;
  /** Why the text is the page's plain text rather than its Markdown (the conversion ran out of time or memory). */
  readonly plain?: string;
}

/** Worker to main thread. */
export type FromWorker =
  | { readonly kind: 'redirect'; readonly status: number; readonly to: string }
  | { readonly kind: 'page'; readonly page: PageRead }
  /** An HTML page read, its plain text made, before it is turned into Markdown: what is given if that never ends. */
  | { readonly kind: 'plain'; readonly page: PageRead }
  | { readonly kind: 'error'; readonly message: string };

/** Main thread to worker: the next hop, after a redirect it allowed. */
export interface NextHop {
  readonly url: string;
  readonly proxy: string | null;
  /** The addresses judged for its host (FetchJob's `addresses`). */
  readonly addresses: readonly string[] | null;
}

/** The source text the worker runs. */
export function workerSource(): string {
  const parts = [
    readBodyInWorker,
    pageKindInWorker,
    plainInWorker,
    markdownInWorker,
    requestInWorker,
    hopInWorker,
    fetchInWorker,
  ];
  return `${parts.map((f) => f.toString()).join('\n')}\n(${fetchInWorker.name})();`;
}

/** The worker's entry: a hop, each redirect asked of the main thread, then the page's text posted. */
function fetchInWorker(): void {
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const job = workerData as FetchJob;
  try {
    // The worker yields to the main thread (the keys) where it can (Linux: a thread has its own nice value).
    const tid = Number(
      (require('node:fs') as typeof import('node:fs')).readlinkSync('/proc/thread-self').split('/')[2],
    );
    (require('node:os') as typeof import('node:os')).setPriority(tid, 10);
  } catch {
    // another system, or not allowed: it runs at milk's own priority
  }
  const post = (m: FromWorker): void => parentPort?.postMessage(m);
  const fail = (err: unknown): void => post({ kind: 'error', message: (err as Error).message ?? String(err) });
  parentPort?.on('message', (next: NextHop) => hopInWorker(job, next, post).catch(fail));
  hopInWorker(job, { url: job.url, proxy: job.proxy, addresses: job.addresses }, post).catch(fail);
}

/** One request: a redirect is posted as one, anything else read and posted as the page. */
async function hopInWorker(job: FetchJob, hop: NextHop, post: (m: FromWorker) => void): Promise<void> {
  const got = await requestInWorker(job, hop);
  if (got.location !== null) {
    post({ kind: 'redirect', status: got.status, to: new URL(got.location, hop.url).href });
    return;
  }
  const kind = pageKindInWorker(got.type, got.body);
  const page = (whole: { title: string; text: string }) => ({
    status: got.status,
    type: got.type,
    kind,
    bytes: got.body.length,
    cut: got.cut,
    title: whole.title,
    text: whole.text.slice(0, job.maxChars),
    length: whole.text.length,
  });
  if (kind !== 'html') {
    post({ kind: 'page', page: page({ title: hop.url, text: kind === 'text' ? got.body.toString('utf8') : '' }) });
    return;
  }
  // Its plain text first, by one linear scan: a page built to make the conversion hang or blow the stack (100,000
  // nested divs) still gives the model its words once the main thread's deadline ends the worker.
  post({ kind: 'plain', page: page({ title: hop.url, text: plainInWorker(got.body.toString('utf8')) }) });
  post({ kind: 'page', page: page(markdownInWorker(got.body, hop.url, job.modules)) });
}

/** HTML's text by one pass: scripts and styles dropped, tags taken out, a few entities read, blank runs folded. */
function plainInWorker(html: string): string {
  const lower = html.toLowerCase();
  const out: string[] = [];
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out.push(html.slice(i));
      break;
    }
    out.push(html.slice(i, lt));
    const gt = html.indexOf('>', lt);
    if (gt < 0) break;
    const name = /^<\s*([a-z0-9]+)/.exec(lower.slice(lt, Math.min(gt + 1, lt + 20)))?.[1] ?? '';
    let next = gt + 1;
    if (name === 'script' || name === 'style') {
      const close = lower.indexOf(`</${name}`, next);
      next = close < 0 ? html.length : Math.max(next, lower.indexOf('>', close) + 1 || html.length);
    }
    if (/^(p|div|br|li|tr|h[1-6]|section|article|pre|table|ul|ol)$/.test(name)) out.push('\n');
    i = next;
  }
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };
  return out
    .join('')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_m, e: string) => entities[e] ?? '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

interface Response {
  status: number;
  type: string;
  body: Buffer;
  cut: boolean;
  /** Where a redirect points, or null. */
  location: string | null;
}

/** A GET of `hop.url`, through its proxy when it names one. */
function requestInWorker(job: FetchJob, hop: NextHop): Promise<Response> {
  const url = new URL(hop.url);
  let agent: import('node:http').Agent | undefined;
  if (hop.proxy !== null) {
    // The agents log through `debug`, which reads DEBUG as it loads: a DEBUG=* set for something else would write
    // over the screen (the worker's environment is its own copy).
    delete process.env.DEBUG;
    agent =
      url.protocol === 'https:'
        ? new (require(job.modules.httpsProxy) as typeof import('https-proxy-agent')).HttpsProxyAgent(hop.proxy)
        : new (require(job.modules.httpProxy) as typeof import('http-proxy-agent')).HttpProxyAgent(hop.proxy);
  }
  const get = url.protocol === 'https:' ? require('node:https').get : require('node:http').get;
  // Straight to the address the main thread judged: a second answer from DNS (rebinding) cannot move the request.
  // The URL keeps its name, so Host and the TLS server name are the name's.
  const judged = (hop.proxy === null ? hop.addresses : null)?.map((a) => ({
    address: a,
    family: a.includes(':') ? 6 : 4,
  }));
  const lookup = (_host: string, o: { all?: boolean }, done: (...a: unknown[]) => void): void =>
    o?.all ? done(null, judged) : done(null, judged![0].address, judged![0].family);
  return new Promise((resolve, reject) => {
    const headers = { 'user-agent': 'milk (a coding agent; web_fetch)', accept: 'text/html, text/*;q=0.9, */*;q=0.5' };
    const options = { headers, ...(agent ? { agent } : {}), ...(judged?.length ? { lookup } : {}) };
    const req = (get as typeof import('node:http').get)(url, options as object, (res) => {
      const status = res.statusCode ?? 0;
      const location = status >= 300 && status < 400 ? (res.headers.location ?? null) : null;
      if (location !== null) {
        res.resume();
        return resolve({ status, type: '', body: Buffer.alloc(0), cut: false, location });
      }
      const type = String(res.headers['content-type'] ?? '');
      readBodyInWorker(res, job.maxBytes).then(
        ({ body, cut }) => resolve({ status, type, body, cut, location }),
        reject,
      );
    });
    req.on('error', reject);
  });
}

/** The body into one buffer as it comes (sized by its length when the server gives it), cut past `max` bytes. */
function readBodyInWorker(
  res: import('node:http').IncomingMessage,
  max: number,
): Promise<{ body: Buffer; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const length = Number(res.headers['content-length']);
    let body = Buffer.allocUnsafe(Number.isSafeInteger(length) && length > 0 ? Math.min(length, max) : 65536);
    let size = 0;
    let cut = false;
    const finish = (): void => resolve({ body: body.subarray(0, size), cut });
    res.on('data', (chunk: Buffer) => {
      if (cut) return;
      const take = Math.min(chunk.length, max - size);
      if (size + take > body.length) {
        const grown = Buffer.allocUnsafe(Math.min(max, Math.max(body.length * 2, size + take)));
        body.copy(grown, 0, 0, size);
        body = grown;
      }
      chunk.copy(body, size, 0, take);
      size += take;
      if (take < chunk.length) {
        cut = true;
        res.destroy();
        finish();
      }
    });
    res.on('end', finish);
    res.on('error', (err) => (cut ? undefined : reject(err)));
  });
}

/** What kind of page it is, by its type (and, with none given, its first bytes). */
function pageKindInWorker(type: string, body: Buffer): 'html' | 'text' | 'binary' {
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

/** The page's main content as Markdown, with its title. */
function markdownInWorker(body: Buffer, url: string, modules: FetchJob['modules']): { title: string; text: string } {
  const { parseHTML } = require(modules.linkedom) as typeof import('linkedom');
  const { Readability } = require(modules.readability) as typeof import('@mozilla/readability');
  const TurndownService = require(modules.turndown) as typeof import('turndown');
  const html = body.toString('utf8');
  // A fragment (a bare error page, a snippet) has no body of its own for linkedom to put it in: it is given one.
  const whole = /<(html|body)[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`;
  const { document } = parseHTML(whole);
  // Scripts, styles and what is never read go before anything looks at the page.
  for (const el of Array.from(document.querySelectorAll('script, style, noscript, template, iframe, svg'))) el.remove();
  const title = (document.querySelector('title')?.textContent ?? '').trim();
  const article = new Readability(document as unknown as Document, { keepClasses: false }).parse();
  const content = article?.content ?? document.body?.innerHTML ?? '';
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  const { document: part } = parseHTML(`<!doctype html><html><body>${content}</body></html>`);
  const text = turndown.turndown(part.body as unknown as HTMLElement).trim();
  return { title: (article?.title ?? title).trim() || url, text };
}

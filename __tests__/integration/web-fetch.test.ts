// web_fetch against local servers only: a page served on 127.0.0.1 comes back as its article in Markdown (no scripts,
// no navigation), through a proxy when one is set; redirects are followed and shown, an oversized page is cut and
// said so, a binary refused; the approval modes and per-host rules as the agent meets them.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAIProvider } from '../../src/providers/openai';
import { suggestRule, ruleAllows, describeRule } from '../../src/settings/rules';
import { agent } from '../helpers/agent';
import { withHttpProxy } from '../helpers/proxy-env';

const { startMockServer } = require('../../scripts/mock-server');
const { startMockProxy } = require('../../scripts/mock-proxy');

const ARTICLE = `<!doctype html><html><head><title>The Widget Guide</title>
<script>window.tracking = "SECRET-SCRIPT-TEXT";</script><style>body { color: red }</style></head>
<body><nav><a href="/">Home</a> | <a href="/about">About us</a> | <a href="/jobs">Jobs</a></nav>
<article><h1>Widgets</h1><p>A widget turns <strong>left</strong> when its lever is pulled. This paragraph is long
enough for a reader to take it for the article: it explains what widgets do, how they are made, and why a person
would want one in the first place, with some more words so that it is clearly the content of the page.</p>
<p>Second paragraph: widgets are made of <code>brass</code> and need oil once a year, as the makers say.</p>
<pre><code>widget.turn("left")</code></pre></article>
<footer>Copyright footer text</footer></body></html>`;

let site: { url: string; hits: string[]; close(): Promise<void> };
let mock: { url: string; close(): Promise<void> };
beforeAll(async () => {
  mock = await startMockServer();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/old') return res.writeHead(302, { location: '/article' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('y'.repeat(6 * 1024 * 1024));
    }
    if (req.url === '/blob')
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2]));
    if (req.url === '/notes.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('plain notes\n');
    if (req.url === '/nested') {
      const depth = 100_000;
      const nested = `${'<div>'.repeat(depth)}the words at the bottom${'</div>'.repeat(depth)}`;
      const page = `<html><body><p>Deep &amp; wide page</p>${nested}</body></html>`;
      return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
    if (req.url === '/fragment')
      return res
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<h2>Not found</h2><p>The page <b>/fragment</b> is gone; try the index.</p>');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  site = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise((r) => server.close(() => r())),
  };
});
afterAll(async () => {
  await site.close();
  await mock.close();
});

const openai = () => new OpenAIProvider({ baseUrl: `${mock.url}/v1`, model: 'fetch', idleTimeoutMs: 5000 });

/** One turn asking for `url`; what web_fetch answered the model. The site is allowed by name (loopback needs it). */
async function fetched(url: string, approval: 'full-auto' | 'read-only' | 'plan' = 'full-auto', unattended = false) {
  const a = agent(openai(), { approval, unattended });
  a.parts.settings.setRules([{ tool: 'web_fetch', prefix: '127.0.0.1' }]);
  let content = '';
  a.bus.on('conversation.message', ({ message }) => {
    if (message.role === 'tool') content = message.content;
  });
  await a.turn(url);
  return content;
}

describe('web_fetch', () => {
  it("returns a page's article as Markdown, without its scripts, styles or navigation", async () => {
    const content = await fetched(`${site.url}/article`);
    expect(content).toMatch(/^# (The Widget Guide|Widgets)\nhttp:\/\/127\.0\.0\.1:\d+\/article\n/);
    expect(content).toContain('A widget turns **left** when its lever is pulled.');
    expect(content).toContain('`brass`');
    expect(content).toMatch(/```\nwidget\.turn\("left"\)\n```/);
    for (const absent of ['SECRET-SCRIPT-TEXT', 'color: red', 'About us', 'Jobs'])
      expect(content).not.toContain(absent);
  });

  it('follows a redirect and says so; stops a redirect loop; cuts an oversized page saying so; refuses a binary', async () => {
    expect(await fetched(`${site.url}/old`)).toMatch(
      /redirected: http:\/\/127\.0\.0\.1:\d+\/old → .*\/article \(302\)/,
    );
    expect(await fetched(`${site.url}/loop`)).toMatch(/error: more than 5 redirects/);
    const big = await fetched(`${site.url}/big`);
    expect(big).toMatch(/\[the page was cut at 5 MB; only the first 100000 characters are here\]/);
    expect(big.length).toBeLessThan(101_000);
    expect(await fetched(`${site.url}/blob`)).toMatch(
      /error: .*\/blob is not text \(application\/octet-stream, 3 bytes\)/,
    );
    expect(await fetched(`${site.url}/notes.txt`)).toMatch(/\n\nplain notes\n$/);
  });

  it('gives a page built to hang the conversion (100,000 nested divs) as its plain text, saying so', async () => {
    const content = await fetched(`${site.url}/nested`);
    expect(content).toMatch(/this is the page's plain text: turning its HTML into Markdown was given up \(it /);
    expect(content).toContain('Deep & wide page');
    expect(content).toContain('the words at the bottom');
  });

  it('converts a page without <html> or <body>, a bare error page, rather than coming back empty', async () => {
    const content = await fetched(`${site.url}/fragment`);
    expect(content).toContain('Not found');
    expect(content).toContain('The page **/fragment** is gone; try the index.');
  });

  it('goes through the proxy the environment names', async () => {
    const proxy = await startMockProxy();
    try {
      await withHttpProxy(proxy.url, async () => {
        // The model's own requests go through it too: both are counted.
        const content = await fetched(`${site.url}/article`);
        expect(content).toContain('A widget turns **left**');
        expect(proxy.forwarded).toContain(`GET ${new URL(site.url).host}/article`);
      });
    } finally {
      await proxy.close();
    }
  });

  it('is a network tool: refused in read-only and plan mode, and with no one to ask in ask mode', async () => {
    const before = site.hits.length;
    expect(await fetched(`${site.url}/article`, 'read-only')).toMatch(/web_fetch call was not run/);
    expect(await fetched(`${site.url}/article`, 'plan')).toMatch(/plan mode, where web_fetch is not allowed/);
    const a = agent(openai(), { approval: 'ask', unattended: true });
    let content = '';
    a.bus.on('conversation.message', ({ message }) => {
      if (message.role === 'tool') content = message.content;
    });
    await a.turn(`${site.url}/article`);
    expect(content).toMatch(/needs the person's approval in ask mode/);
    expect(site.hits.length).toBe(before);
  });

  it("a rule allows one host's pages, whole: never a longer name that starts with it", () => {
    const rule = suggestRule('web_fetch', 'docs.example.com');
    expect(rule).toEqual({ tool: 'web_fetch', prefix: 'docs.example.com' });
    expect(describeRule(rule!)).toBe('web_fetch of pages on docs.example.com');
    expect(ruleAllows(rule!, 'web_fetch', 'docs.example.com')).toBe(true);
    expect(ruleAllows(rule!, 'web_fetch', 'docs.example.com.evil.test')).toBe(false);
    expect(ruleAllows(rule!, 'web_fetch', 'example.com')).toBe(false);
  });
});

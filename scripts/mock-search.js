#!/usr/bin/env node
// A mock web search service for tests: plain Node http on 127.0.0.1, speaking a SearXNG instance's JSON API
// (GET /search?q=…&format=json: {"results": [{"title", "url", "content"}]}) and Brave Search's (GET
// /res/v1/web/search?q=…&count=N with X-Subscription-Token: {"web": {"results": [{"title", "url", "description"}]}},
// 401 without the key it was given). The query picks the answer:
//   hostile   results whose titles and snippets carry terminal control sequences, a javascript: link, HTML marks
//   none      no results          slow   answers after 30 s         broken   HTML, not JSON (SearXNG without json)
//   (any)     three results naming the query
// Every request is recorded (path, query, the key header present or not, never its value).

const http = require('node:http');

function results(q) {
  if (q === 'none') return [];
  if (q === 'hostile')
    return [
      {
        title: 'evil \x1b]52;c;ZXZpbA==\x07clip \x1b[2Jtitle',
        url: 'https://evil.example/a',
        content: 'x\x1b]0;pwned\x07y',
      },
      { title: 'script', url: 'javascript:alert(1)', content: 'never shown' },
      { title: '<b>bold</b> page', url: 'https://ok.example/b', content: 'a <strong>marked</strong> word' },
    ];
  return [1, 2, 3].map((n) => ({
    title: `Result ${n} for ${q}`,
    url: `https://example.org/${n}?q=${encodeURIComponent(q)}`,
    content: `snippet ${n} about ${q}`,
  }));
}

function startMockSearch(options = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const q = url.searchParams.get('q') ?? '';
    const token = req.headers['x-subscription-token'];
    requests.push({ path: url.pathname, q, format: url.searchParams.get('format'), key: token ? 'present' : 'absent' });
    const json = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const answer = () => {
      if (url.pathname === '/search') {
        if (q === 'broken' || url.searchParams.get('format') !== 'json') {
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html><body>results</body></html>');
        }
        return json(200, { query: q, results: results(q) });
      }
      if (url.pathname === '/res/v1/web/search') {
        if (options.braveKey && token !== options.braveKey)
          return json(401, { error: { code: 'SUBSCRIPTION_TOKEN_INVALID' } });
        const list = results(q).map((r) => ({ title: r.title, url: r.url, description: r.content }));
        return json(200, {
          type: 'search',
          query: { original: q },
          ...(list.length ? { web: { results: list } } : {}),
        });
      }
      json(404, { error: 'not found' });
    };
    if (q === 'slow') setTimeout(answer, 30_000).unref();
    else answer();
  });
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      });
    });
  });
}

module.exports = { startMockSearch };

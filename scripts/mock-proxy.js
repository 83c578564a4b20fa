// A forward proxy on 127.0.0.1 for the tests: CONNECT tunnels (https
// through a proxy) and absolute-form requests (http through a proxy), as
// corporate proxies such as Squid serve them. It records what went through
// it, and can ask for credentials (407) or refuse every tunnel (403).

const http = require('node:http');
const net = require('node:net');

/**
 * options.auth: 'user:password' it requires; options.refuse: answer every CONNECT with 403; options.silent: take
 * every CONNECT and never answer it.
 */
function startMockProxy(options = {}) {
  const tunnels = [];
  const forwarded = [];
  const authorised = (req) =>
    !options.auth || req.headers['proxy-authorization'] === `Basic ${Buffer.from(options.auth).toString('base64')}`;
  const server = http.createServer((req, res) => {
    if (!authorised(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="mock"' }).end();
      return;
    }
    const target = new URL(req.url);
    forwarded.push(`${req.method} ${target.host}${target.pathname}`);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const up = http.request(target, { method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  server.on('connect', (req, client, head) => {
    if (!authorised(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="mock"\r\nContent-Length: ' +
          '0\r\n\r\n',
      );
      return;
    }
    if (options.silent) {
      // Takes the CONNECT and never answers it (the connection stays open until closed).
      tunnels.push(`silent ${req.url}`);
      return;
    }
    if (options.refuse) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    tunnels.push(req.url);
    const [host, port] = req.url.split(':');
    const up = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    up.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => up.destroy());
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
        tunnels,
        forwarded,
        close: () =>
          new Promise((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      });
    });
  });
}

module.exports = { startMockProxy };

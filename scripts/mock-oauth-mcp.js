#!/usr/bin/env node
// A remote MCP server behind OAuth, with its own authorization server, all on
// 127.0.0.1, for milk's tests: the protected-resource and authorization-server
// metadata, dynamic client registration, an authorization endpoint that
// approves at once (as a person clicking "allow" would) and redirects with a
// code, a token endpoint that checks PKCE and gives access and refresh
// tokens, and an MCP endpoint (the official SDK's, stateless) that answers
// only a current bearer token. `expire()` makes the access tokens given so
// far stale, so a client must refresh. What it saw is kept for the test.
const http = require('node:http');
const crypto = require('node:crypto');
const { URL, URLSearchParams } = require('node:url');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js');
const { z } = require('zod');

function startOAuthMcp() {
  const seen = { registered: 0, authorized: 0, tokens: [], refreshed: 0, bearers: [] };
  const codes = new Map();
  const valid = new Set();
  const refresh = new Set();
  let serial = 0;
  let base = '';

  const json = (res, status, body, headers = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const form = (req) =>
    new Promise((resolve) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => resolve(body));
    });
  const issue = () => {
    const access = `tok-${++serial}`;
    const again = `ref-${serial}`;
    valid.add(access);
    refresh.add(again);
    seen.tokens.push(access);
    return { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: again };
  };

  const mcp = () => {
    const server = new McpServer({ name: 'oauth-mcp', version: '1.0.0' });
    server.registerTool(
      'whoami',
      { description: 'Who the token says you are', inputSchema: { n: z.number() } },
      async () => ({
        content: [{ type: 'text', text: 'you are the person who authorized milk' }],
      }),
    );
    return server;
  };

  const handle = async (req, res) => {
    const url = new URL(req.url, base);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    if (url.pathname.startsWith('/.well-known/oauth-authorization-server'))
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    if (url.pathname === '/register' && req.method === 'POST') {
      seen.registered++;
      const body = JSON.parse(await form(req));
      return json(res, 201, { ...body, client_id: `client-${seen.registered}`, client_id_issued_at: 0 });
    }
    if (url.pathname === '/authorize') {
      seen.authorized++;
      const code = `code-${crypto.randomBytes(6).toString('hex')}`;
      codes.set(code, url.searchParams.get('code_challenge'));
      const back = new URL(url.searchParams.get('redirect_uri'));
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const p = new URLSearchParams(await form(req));
      if (p.get('grant_type') === 'authorization_code') {
        const challenge = codes.get(p.get('code'));
        codes.delete(p.get('code'));
        const made = crypto
          .createHash('sha256')
          .update(p.get('code_verifier') ?? '')
          .digest('base64url');
        if (!challenge || made !== challenge) return json(res, 400, { error: 'invalid_grant' });
        return json(res, 200, issue());
      }
      if (p.get('grant_type') === 'refresh_token' && refresh.delete(p.get('refresh_token'))) {
        seen.refreshed++;
        return json(res, 200, issue());
      }
      return json(res, 400, { error: 'invalid_grant' });
    }
    if (url.pathname === '/mcp') {
      const metadata = `${base}/.well-known/oauth-protected-resource`;
      const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      seen.bearers.push(bearer);
      if (!valid.has(bearer))
        return json(
          res,
          401,
          { error: 'invalid_token' },
          {
            'www-authenticate': `Bearer error="invalid_token", resource_metadata="${metadata}"`,
          },
        );
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => transport.close());
      await mcp().connect(transport);
      return transport.handleRequest(req, res);
    }
    res.writeHead(404).end();
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) json(res, 500, { error: String(err) });
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      base = `http://127.0.0.1:${server.address().port}`;
      resolve({
        url: `${base}/mcp`,
        seen,
        expire: () => valid.clear(),
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

module.exports = { startOAuthMcp };

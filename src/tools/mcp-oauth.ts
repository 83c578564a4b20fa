// OAuth for a remote MCP server that asks for it (a 401 naming its
// authorization server), through the SDK's authorization flow: the server's
// metadata found, milk registered as a client, the person sent to the
// authorization page (the URL opened with $BROWSER where one is set, and
// always said), the code taken on a one-time listener on 127.0.0.1 (its
// state checked), then tokens, kept 0600 in the data dir and refreshed by
// the SDK when the server says they expired. What is kept per server: the
// client's registration, the tokens and the callback's port (a registered
// redirect must stay the same). Never printed: tokens, codes, verifiers.

import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { writeAtomic } from '../io/files';

/** How long the person has to authorize in the browser before the server is marked failed. */
export const AUTHORIZE_MS = 5 * 60_000;

interface Kept {
  port?: number;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
}

export interface OAuthOptions {
  /** Where each server's registration and tokens are kept (the data dir's mcp-auth/), 0700. */
  readonly dir: string;
  /** Tells the person where to authorize (and opens it where a browser is known). */
  readonly show: (server: string, url: URL) => void;
  /** How long to wait for the person. */
  readonly timeoutMs?: number;
}

/** One server's side of the flow: what the SDK asks of a client, kept in a file of its own. */
export class McpOAuth implements OAuthClientProvider {
  private verifier = '';
  private expected = '';
  private listener: { server: http.Server; code: Promise<string> } | null = null;

  constructor(
    private readonly server: string,
    private readonly o: OAuthOptions,
  ) {}

  private get file(): string {
    return path.join(this.o.dir, `${this.server}.json`);
  }

  private read(): Kept {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as Kept;
    } catch {
      return {};
    }
  }

  private keep(change: (k: Kept) => void): void {
    const k = this.read();
    change(k);
    fs.mkdirSync(this.o.dir, { recursive: true, mode: 0o700 });
    writeAtomic(this.file, `${JSON.stringify(k, null, 2)}\n`);
  }

  private get port(): number {
    return this.read().port ?? 0;
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'milk',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    // Loaded here, at the first authorization, never at start-up.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
    this.expected = randomBytes(16).toString('hex');
    return this.expected;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.read().client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.keep((k) => void (k.client = info));
  }

  tokens(): OAuthTokens | undefined {
    return this.read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.keep((k) => void (k.tokens = tokens));
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier' || scope === 'discovery') return;
    this.keep((k) => {
      if (scope === 'all' || scope === 'tokens') delete k.tokens;
      if (scope === 'all' || scope === 'client') delete k.client;
    });
  }

  /** The listener for the redirect is up before the person is sent: its port is the redirect's, kept. */
  async prepare(): Promise<void> {
    if (this.listener) return;
    let take: (code: string) => void = () => undefined;
    let fail: (err: Error) => void = () => undefined;
    const code = new Promise<string>((resolve, reject) => {
      take = resolve;
      fail = reject;
    });
    // Settled by the person or the timeout; no one waiting is no crash.
    code.catch(() => undefined);
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') return void res.writeHead(404).end();
      const got = url.searchParams.get('code');
      const state = url.searchParams.get('state');
      if (!got || state !== this.expected) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('milk: this authorization is not the one asked for');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('milk is authorized: you may close this page.');
      take(got);
    });
    // It never keeps milk running (milk run ends while nobody authorizes).
    server.unref();
    const port = await listen(server, this.port).catch(() => listen(server, 0));
    if (port !== this.port) this.keep((k) => void (k.port = port));
    const timer = setTimeout(() => fail(new Error('not authorized in time')), this.o.timeoutMs ?? AUTHORIZE_MS);
    timer.unref();
    void code.finally(() => {
      clearTimeout(timer);
      server.close();
    });
    this.listener = { server, code };
  }

  redirectToAuthorization(url: URL): void {
    this.o.show(this.server, url);
  }

  /** The code the person's browser brought back (rejects at the timeout). */
  async code(): Promise<string> {
    await this.prepare();
    const listener = this.listener as { code: Promise<string> };
    try {
      return await listener.code;
    } finally {
      this.listener = null;
    }
  }

  /** Stops waiting for the person (the server stopped, milk exits). */
  close(): void {
    this.listener?.server.close();
    this.listener = null;
  }
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Whether milk may hand `url` to a browser: https, or http to this machine only. A server's metadata names the URL,
 * and `xdg-open` starts whatever handles a scheme (`file:`, a custom one); anything else is shown, never opened.
 */
export function openable(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Opens the authorization page with $BROWSER where one is set and the URL is one milk opens (the URL is always said
 * too); why it was not opened, or null.
 */
export function openBrowser(url: URL, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!openable(url))
    return `not opened: milk opens only https pages (or http on this machine), and this is ${url.protocol}`;
  const browser = env.BROWSER;
  if (!browser) return null;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  try {
    spawn(browser, [url.href], { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
  } catch {
    // No browser: the URL is on screen.
  }
  return null;
}

// Reaching the model through a proxy, as behind a corporate one: a real
// forward proxy on 127.0.0.1 (scripts/mock-proxy.js), CONNECT for https (the
// mock server with a test certificate, trusted through NODE_EXTRA_CA_CERTS),
// absolute-form requests for http, and `milk run` as a person runs it.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { CLI, ROOT, tempDir } from '../helpers/pty';

const { startMockServer } = require('../../scripts/mock-server');
const { startMockProxy } = require('../../scripts/mock-proxy');

type Proxy = { url: string; tunnels: string[]; forwarded: string[]; close(): Promise<void> };
const TLS = path.join(ROOT, '__tests__', 'fixtures', 'tls');
let https: { url: string; port: number; close(): Promise<void> };
let plain: { url: string; port: number; close(): Promise<void> };
const proxies: Proxy[] = [];
beforeAll(async () => {
  const fs = require('node:fs') as typeof import('node:fs');
  https = await startMockServer({
    tls: { key: fs.readFileSync(path.join(TLS, 'key.pem')), cert: fs.readFileSync(path.join(TLS, 'cert.pem')) },
  });
  plain = await startMockServer();
});
afterAll(async () => {
  await Promise.all([https.close(), plain.close(), ...proxies.map((p) => p.close())]);
});

async function proxy(options: { auth?: string; refuse?: boolean; silent?: boolean } = {}): Promise<Proxy> {
  const p = (await startMockProxy(options)) as Proxy;
  proxies.push(p);
  return p;
}

// Asynchronous: the servers run in this process and must keep answering.
function run(base: string, vars: Record<string, string>) {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: tempDir(),
    NODE_EXTRA_CA_CERTS: path.join(TLS, 'cert.pem'),
    ...vars,
  };
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        CLI,
        '--data-dir',
        tempDir(),
        'run',
        '--provider',
        'openai',
        '--base-url',
        `${base}/v1`,
        '--model',
        'short',
        'hi',
      ],
      { env },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const ANSWER = 'the quick brown fox jumps.\n';

describe('a proxy from the environment', () => {
  it('https goes through HTTPS_PROXY by CONNECT, with TLS end to end', async () => {
    const p = await proxy();
    // DEBUG=* (set for something else) must not make the proxy agents write their own logs.
    const r = await run(https.url, { HTTPS_PROXY: p.url, DEBUG: '*' });
    expect(r).toEqual({ code: 0, out: ANSWER, err: '' });
    expect(p.tunnels).toEqual([`127.0.0.1:${https.port}`]);
    // The certificate is still checked against the host asked for: this one is not for "localhost".
    const other = await run(`https://localhost:${https.port}`, { HTTPS_PROXY: p.url });
    expect(other.err).toContain('is not trusted (ERR_TLS_CERT_ALTNAME_INVALID)');
    expect(p.tunnels).toEqual([`127.0.0.1:${https.port}`, `localhost:${https.port}`]);
  });

  it('http goes through http_proxy (the lower-case name wins), sent to the proxy whole', async () => {
    const p = await proxy();
    const r = await run(plain.url, { http_proxy: p.url, HTTP_PROXY: 'http://127.0.0.1:1' });
    expect(r).toMatchObject({ code: 0, out: ANSWER });
    expect(p.forwarded).toEqual([`POST 127.0.0.1:${plain.port}/v1/chat/completions`]);
  });

  it('NO_PROXY sends a host direct; ALL_PROXY serves a scheme without its own', async () => {
    const p = await proxy();
    expect(await run(https.url, { ALL_PROXY: p.url, NO_PROXY: 'example.com, 127.0.0.1' })).toMatchObject({
      code: 0,
      out: ANSWER,
    });
    expect(p.tunnels).toEqual([]);
    expect(await run(https.url, { ALL_PROXY: p.url, NO_PROXY: 'example.com' })).toMatchObject({ code: 0, out: ANSWER });
    expect(p.tunnels).toHaveLength(1);
  });

  it('a proxy that asks for credentials says so; given in the URL they are sent, and never shown', async () => {
    const p = await proxy({ auth: 'me:s3cr3t-pass' });
    const without = await run(https.url, { HTTPS_PROXY: p.url });
    expect(without.code).toBe(1);
    expect(without.err).toContain(`the proxy ${p.url} asks for credentials (407)`);
    const wrong = await run(https.url, { HTTPS_PROXY: p.url.replace('http://', 'http://me:wrong-pass@') });
    expect(wrong.err).toContain(`the proxy ${p.url} asks for credentials (407)`);
    expect(wrong.err).not.toContain('wrong-pass');
    const right = await run(https.url, { HTTPS_PROXY: p.url.replace('http://', 'http://me:s3cr3t-pass@') });
    expect(right).toMatchObject({ code: 0, out: ANSWER });
  });

  it('a refused tunnel, a proxy that is not there and a proxy variable that is not a URL each get their own message', async () => {
    const p = await proxy({ refuse: true });
    const refused = await run(https.url, { HTTPS_PROXY: p.url });
    expect(refused.err).toContain(`the proxy ${p.url} would not connect to ${https.url}/v1 (it answered 403)`);
    const gone = await run(https.url, { HTTPS_PROXY: 'http://127.0.0.1:1' });
    expect(gone.err).toContain('cannot reach the proxy http://127.0.0.1:1 (connection refused)');
    const bad = await run(https.url, { HTTPS_PROXY: 'http://[not a host' });
    expect(bad.err).toContain('HTTPS_PROXY is not a valid URL');
  });

  it('a proxy that never answers CONNECT ends the run at the idle timeout, naming the proxy', async () => {
    const p = await proxy({ silent: true });
    const started = Date.now();
    const r = await run(https.url, { HTTPS_PROXY: p.url, MILK_IDLE_TIMEOUT_MS: '800' });
    expect(p.tunnels).toHaveLength(1);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain(`the proxy ${p.url} did not answer (no tunnel to ${https.url}/v1 was opened)`);
    // Bounded by the timeout (and a start), not by the proxy: it never answers at all.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

// OAuth for a remote MCP server, against a local authorization server on 127.0.0.1 (scripts/mock-oauth-mcp.js):
// milk registers, sends the person to authorize (the page approves at once, as a click would), takes the code on its
// own listener, and ends with the token used and kept 0600; a later start uses the kept token without asking; an
// expired one is refreshed; a server with its own Authorization header never starts the flow.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { McpServers, killMcpServers } from '../../src/tools/mcp';
import { openBrowser } from '../../src/tools/mcp-oauth';
import { tempDir } from '../helpers/pty';

const { startOAuthMcp } = require('../../scripts/mock-oauth-mcp');

jest.setTimeout(30000);

let oauth: {
  url: string;
  seen: { registered: number; authorized: number; tokens: string[]; refreshed: number; bearers: string[] };
  expire(): void;
  close(): Promise<void>;
};
beforeAll(async () => {
  oauth = await startOAuthMcp();
});
afterAll(() => oauth.close());
afterEach(() => killMcpServers());

/** A start of the remote server; the person "opens" each authorization URL shown (fetch follows the redirect). */
async function started(dir: string, shown: string[], headers?: Record<string, string>) {
  const s = new McpServers({ remote: { url: oauth.url, ...(headers ? { headers } : {}) } }, () => {}, {
    startMs: 10000,
    oauth: {
      dir,
      show: (_server, url) => {
        shown.push(url.href);
        void fetch(url).catch(() => undefined);
      },
    },
  });
  await s.startAll();
  return s;
}

it('authorizes once in the browser, uses and keeps the token (0600), reuses it, and refreshes it when it expires', async () => {
  const dir = path.join(tempDir(), 'mcp-auth');
  const shown: string[] = [];
  const first = await started(dir, shown);
  // Authorized and ready: /mcp no longer says it waits for the person.
  expect(first.list()[0]).toMatchObject({ name: 'remote', state: 'ready', why: null });
  expect(shown).toHaveLength(1);
  expect(shown[0]).toMatch(/\/authorize\?.*code_challenge=.*redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/);
  const never = new AbortController().signal;
  expect((await first.call('remote__whoami', { n: 1 }, never)).content).toBe('you are the person who authorized milk');
  expect(oauth.seen.bearers.at(-1)).toBe('tok-1');
  const file = path.join(dir, 'remote.json');
  expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
  expect((fs.statSync(dir).mode & 0o777).toString(8)).toBe('700');
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).tokens.access_token).toBe('tok-1');
  first.stopAll();

  // The next start: the kept token, no second registration or authorization.
  const second = await started(dir, shown);
  expect(second.list()[0].state).toBe('ready');
  expect(shown).toHaveLength(1);
  expect(oauth.seen).toMatchObject({ registered: 1, authorized: 1 });
  second.stopAll();

  // The server let the token go stale: refreshed with the refresh token, kept, and the person not asked again.
  oauth.expire();
  const third = await started(dir, shown);
  expect(third.list()[0].state).toBe('ready');
  expect(oauth.seen.refreshed).toBe(1);
  expect(shown).toHaveLength(1);
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).tokens.access_token).toBe('tok-2');
  expect((await third.call('remote__whoami', { n: 2 }, never)).content).toContain('authorized milk');
  expect(oauth.seen.bearers.at(-1)).toBe('tok-2');
  third.stopAll();
});

it('a server with its own Authorization header is not put through the flow: its 401 is its failure', async () => {
  const shown: string[] = [];
  const s = await started(path.join(tempDir(), 'mcp-auth'), shown, { Authorization: 'Bearer wrong-token-1234' });
  expect(s.list()[0].state).toBe('failed');
  expect(shown).toEqual([]);
  expect(s.list()[0].why).not.toContain('wrong-token-1234');
  s.stopAll();
});

it("opens only https pages, or http on this machine, with $BROWSER: a server's file: or custom scheme is refused", async () => {
  const dir = tempDir();
  const seen = path.join(dir, 'opened');
  const browser = path.join(dir, 'browser.sh');
  fs.writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${seen}\n`, { mode: 0o755 });
  const env = { BROWSER: browser };
  const urls = ['file:///etc/passwd', 'vscode://x/y', 'http://evil.example/a', 'javascript:alert(1)'];
  for (const u of urls) expect(openBrowser(new URL(u), env)).toMatch(/^not opened: milk opens only https pages/);
  for (const u of ['https://auth.example/a', 'http://127.0.0.1:8080/cb', 'http://localhost/x', 'http://[::1]/x'])
    expect(openBrowser(new URL(u), env)).toBeNull();
  const opened = () => (fs.existsSync(seen) ? fs.readFileSync(seen, 'utf8').split('\n').filter(Boolean) : []);
  for (const deadline = Date.now() + 5000; opened().length < 4 && Date.now() < deadline;)
    await new Promise((r) => setTimeout(r, 20));
  expect(opened().sort()).toEqual(
    ['http://127.0.0.1:8080/cb', 'http://[::1]/x', 'http://localhost/x', 'https://auth.example/a'].sort(),
  );
});

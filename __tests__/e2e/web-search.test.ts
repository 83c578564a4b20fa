// Web search as a person meets it in a real terminal: web_search through a mock SearXNG named in config.json, asked
// about in ask mode (its question names the search and the service; y runs it) and shown with its results; the
// provider's own search (a Responses stream in the API's shape) shown as a search block with its sources.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';

const { startMockSearch } = require('../../scripts/mock-search');

jest.setTimeout(40000);

const mock = useMockServer();
let search: { url: string; requests: Array<{ q: string }>; close(): Promise<void> };
beforeAll(async () => (search = await startMockSearch()));
afterAll(() => search.close());

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

/** A HOME whose config.json says `webSearch`. */
function homeWith(webSearch: unknown): string {
  const home = tempDir();
  fs.mkdirSync(path.join(home, '.milk'));
  fs.writeFileSync(path.join(home, '.milk', 'config.json'), JSON.stringify({ webSearch }));
  return home;
}

it('web_search is asked about, then its results are shown and given to the model', async () => {
  const home = homeWith({ service: 'searxng', url: search.url });
  const args = ['--provider', 'openai', '--base-url', `${mock.current.url}/v1`, '--model', 'websearch'];
  m = new MilkPty({ args, cols: 120, rows: 40, env: { HOME: home } });
  await m.waitForText('history: session');
  m.write('brass widgets' + KEY.enter);
  await m.waitFor(
    () => m!.statusLine().includes('run web_search: brass widgets?') && m!.statusLine().includes('y yes · n no'),
    'approval prompt',
  );
  expect(search.requests.some((r) => r.q === 'brass widgets')).toBe(false);
  m.write('y');
  await m.waitForText('searched: 3 results for "brass widgets"');
  expect(m.text()).toMatch(/Searched the web for brass widgets\s.*3 results · searxng/);
  expect(search.requests.filter((r) => r.q === 'brass widgets')).toHaveLength(1);
});

it("the provider's own search is shown as a search with its sources, and the sources the answer cites", async () => {
  const home = homeWith({ service: 'provider' });
  const args = [
    '--provider',
    'openai-responses',
    '--base-url',
    `${mock.current.url}/v1`,
    '--model',
    'replay-responses-web-search',
  ];
  m = new MilkPty({ args, cols: 120, rows: 40, env: { HOME: home } });
  await m.waitForText('history: session');
  m.write('when was node 24 released?' + KEY.enter);
  await m.waitForText('Node.js 24 was released on 6 May 2025');
  await m.waitForText('sources cited:');
  const text = m.text();
  expect(text).toMatch(/Searched the web for node\.js 24 release date\s.*2 sources · the provider's search/);
  expect(text).toContain('https://github.com/nodejs/node/releases/tag/v24.0.0');
  expect(text).toContain('Node.js — Node v24.0.0 (Current)');
});

it("Anthropic's server search, allowed by a rule, is shown with its sources and the answer's citation", async () => {
  const home = homeWith({});
  const args = ['--provider', 'anthropic', '--base-url', mock.current.url, '--model', 'replay-anthropic-web-search'];
  m = new MilkPty({ args, cols: 120, rows: 40, env: { HOME: home, ANTHROPIC_API_KEY: 'test-key' } });
  await m.waitForText('history: session');
  m.write('/permissions add web_search provider' + KEY.enter);
  await m.waitForText("the provider's own web search");
  m.write('what does --unshare-net do?' + KEY.enter);
  await m.waitForText('only a loopback device');
  await m.waitForText('sources cited:');
  const text = m.text();
  expect(text).toMatch(/Searched the web for bubblewrap --unshare-net\s.*2 sources · the provider's search/);
  expect(text).toContain('containers/bubblewrap: Low-level unprivileged sandboxing tool');
  expect(text).toContain('https://man.archlinux.org/man/bwrap.1');
});

import { BRAVE_URL, searchRequest } from '../../src/tools/web-search';
import { parseConfig } from '../../src/config/config';
import * as rules from '../../src/settings/rules';
// A search service's answer as web_search gives it (src/tools/web-search-results.ts): SearXNG's and Brave's shapes,
// checked field by field, capped, and the text the model reads.
import { braveResults, oneLineOf, resultsText, searxngResults } from '../../src/tools/web-search-results';

describe('web search results', () => {
  it("reads SearXNG's results: title, URL and content as the snippet, at most max", () => {
    const json = {
      query: 'milk acp',
      results: [
        {
          title: 'Agent Client Protocol',
          url: 'https://agentclientprotocol.com/',
          content: 'A protocol\n for editors',
        },
        { title: 'Second', url: 'https://example.com/2', content: 'two' },
        { title: 'Third', url: 'https://example.com/3', content: 'three' },
      ],
    };
    expect(searxngResults(json, 2)).toEqual([
      { title: 'Agent Client Protocol', url: 'https://agentclientprotocol.com/', snippet: 'A protocol for editors' },
      { title: 'Second', url: 'https://example.com/2', snippet: 'two' },
    ]);
    expect(searxngResults({ answers: [] }, 5)).toEqual({ problem: 'the SearXNG answer has no "results" list' });
  });

  it("reads Brave's web results, its <strong> marks taken out; no web results is no results", () => {
    const json = {
      web: {
        results: [
          {
            title: 'Node <strong>22</strong>',
            url: 'https://nodejs.org/',
            description: 'The <strong>runtime</strong>',
          },
        ],
      },
    };
    expect(braveResults(json, 5)).toEqual([{ title: 'Node 22', url: 'https://nodejs.org/', snippet: 'The runtime' }]);
    expect(braveResults({ query: {} }, 5)).toEqual([]);
    expect(braveResults({ web: {} }, 5)).toEqual({ problem: 'the Brave answer has no "web.results" list' });
    expect(braveResults('nope', 5)).toEqual({ problem: 'the Brave answer is not a JSON object' });
  });

  it('leaves out results that are not http(s) links or not objects, and names an untitled one by its URL', () => {
    const json = {
      results: [
        { title: 'x', url: 'javascript:alert(1)' },
        { title: 'y', url: 'data:text/html,hi' },
        'a string',
        { url: 'http://plain.example/' },
        { title: 42, url: 'https://typed.example/', content: 7 },
      ],
    };
    expect(searxngResults(json, 10)).toEqual([
      { title: 'http://plain.example/', url: 'http://plain.example/', snippet: '' },
      { title: 'https://typed.example/', url: 'https://typed.example/', snippet: '' },
    ]);
  });

  it('cuts long titles and snippets, and numbers the results for the model', () => {
    expect(oneLineOf('a'.repeat(10), 5)).toBe('aaaa…');
    expect(resultsText('q', [])).toBe('no results for "q"');
    expect(
      resultsText('milk', [
        { title: 'One', url: 'https://one.example/', snippet: 'first' },
        { title: 'Two', url: 'https://two.example/', snippet: '' },
      ]),
    ).toBe('2 results for "milk":\n1. One\n   https://one.example/\n   first\n2. Two\n   https://two.example/');
  });
});

describe('the request web_search makes (tools/web-search.ts)', () => {
  it("asks SearXNG's JSON API under the instance's path, the query encoded", () => {
    const r = searchRequest({ service: 'searxng', url: 'https://searx.example/sub' }, 'a&b c', 5, {});
    expect('url' in r && r.url.href).toBe('https://searx.example/sub/search?q=a%26b+c&format=json');
  });

  it('asks Brave with its key in X-Subscription-Token, or says which variable is unset', () => {
    const r = searchRequest({ service: 'brave' }, 'q', 3, { BRAVE_API_KEY: 'k1' });
    expect('url' in r && r.url.href).toBe(`${BRAVE_URL}?q=q&count=3`);
    expect('headers' in r && r.headers['x-subscription-token']).toBe('k1');
    expect(searchRequest({ service: 'brave', apiKeyEnv: 'MINE' }, 'q', 3, { BRAVE_API_KEY: 'k1' })).toEqual({
      problem: 'MINE is not set: Brave Search needs its API key there (config webSearch)',
    });
  });
});

describe("config webSearch's check", () => {
  it.each([
    [
      { service: 'bing' },
      /webSearch must be an object whose "service" is "searxng" \(with "url"\), "brave" or "provider"/,
    ],
    [{ service: 'searxng' }, /webSearch \{"service": "searxng"\} takes "url" \(its http\(s\) address\)/],
    [{ service: 'provider', url: 'https://x' }, /webSearch \{"service": "provider"\} takes nothing more/],
    [{ service: 'searxng', url: 'ftp://x' }, /webSearch\.url must be an http\(s\) URL/],
    [{ service: 'brave', apiKeyEnv: 'a b' }, /webSearch\.apiKeyEnv must name an environment variable/],
    [{ service: 'brave', maxResults: 50 }, /webSearch\.maxResults must be a whole number from 1 to 20/],
  ])('refuses %j, saying why', (value, why) => {
    expect(parseConfig({ webSearch: value }).problems.join('\n')).toMatch(why);
  });
});

describe('web_search rules (settings/rules.ts)', () => {
  it('name a service, and say so', () => {
    expect(rules.parseRule(['web_search', 'searxng'])).toEqual({ tool: 'web_search', prefix: 'searxng' });
    expect(rules.parseRule(['web_search', 'google'])).toBeNull();
    expect(rules.describeRule({ tool: 'web_search', prefix: 'provider' })).toBe("the provider's own web search");
    expect(rules.describeRule({ tool: 'web_search', prefix: 'brave' })).toBe('web_search through brave');
    expect(rules.ruleAllows({ tool: 'web_search', prefix: 'brave' }, 'web_search', 'searxng')).toBe(false);
    expect(rules.ruleAllows({ tool: 'web_search' }, 'web_search', 'provider')).toBe(true);
  });
});

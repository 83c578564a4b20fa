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

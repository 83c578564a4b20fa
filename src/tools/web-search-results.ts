// What a search service answers, as web_search gives it to the model: each result's
// title, URL and snippet, from a SearXNG instance's JSON API or Brave's, checked field by field (a service's answer
// is not trusted: no field is assumed), at most `max` results, each part on one line and cut to a length. Pure: the
// request and what is masked and sanitized are the tool's.

import { sanitize } from '../protocol/inert';

export interface SearchResult {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** A result's title and snippet at most this long (a service may send a page's whole text as its "content"). */
const MAX_TITLE = 200;
const MAX_SNIPPET = 500;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * On one line, blanks run together, cut at `max` with an ellipsis; HTML tags (Brave's <strong>) and terminal control
 * sequences (sanitize: the model reads what the screen would show) left out.
 */
export function oneLineOf(text: string, max: number): string {
  const flat = sanitize(text)
    .replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Only http(s) URLs are results: a `javascript:` or `data:` one is left out. */
function webUrl(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

function results(list: unknown, snippetKey: string, max: number): SearchResult[] {
  if (!Array.isArray(list)) return [];
  const out: SearchResult[] = [];
  for (const r of list) {
    if (out.length >= max) break;
    if (!isObject(r)) continue;
    const url = webUrl(r.url);
    if (!url) continue;
    const title = typeof r.title === 'string' ? oneLineOf(r.title, MAX_TITLE) : '';
    const snippet = typeof r[snippetKey] === 'string' ? oneLineOf(r[snippetKey] as string, MAX_SNIPPET) : '';
    out.push({ title: title || url, url, snippet });
  }
  return out;
}

/** A SearXNG instance's `/search?format=json` answer: `{"results": [{"title", "url", "content"}]}`. */
export function searxngResults(json: unknown, max: number): SearchResult[] | { problem: string } {
  if (!isObject(json) || !Array.isArray(json.results)) return { problem: 'the SearXNG answer has no "results" list' };
  return results(json.results, 'content', max);
}

/** Brave Search's web search answer: `{"web": {"results": [{"title", "url", "description"}]}}`. */
export function braveResults(json: unknown, max: number): SearchResult[] | { problem: string } {
  if (!isObject(json)) return { problem: 'the Brave answer is not a JSON object' };
  // No web results at all is an answer (nothing found), not a broken one.
  if (json.web === undefined) return [];
  if (!isObject(json.web) || !Array.isArray(json.web.results))
    return { problem: 'the Brave answer has no "web.results" list' };
  return results(json.web.results, 'description', max);
}

/** The results as the model reads them: numbered, title, URL, snippet; or that there were none. */
export function resultsText(query: string, found: readonly SearchResult[]): string {
  if (found.length === 0) return `no results for ${JSON.stringify(query)}`;
  const lines = found.map((r, i) => `${i + 1}. ${r.title}\n   ${r.url}${r.snippet ? `\n   ${r.snippet}` : ''}`);
  return `${found.length} result${found.length === 1 ? '' : 's'} for ${JSON.stringify(query)}:\n${lines.join('\n')}`;
}

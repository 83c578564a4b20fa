// The provider's own web search, read from its stream as it ran inside the request (config `webSearch`: "provider";
// app/agent-search.ts says when it may go): the Responses API's `web_search_call` items and the `url_citation`
// annotations of its answer, Anthropic's `server_tool_use` and `web_search_tool_result` blocks and its text's
// `web_search_result_location` citations. Every field is checked: a server's answer is not trusted. Pure.

import type { WebSearchSeen } from './provider';

type Source = WebSearchSeen['sources'][number];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Sources at most per search shown; a search engine's page of results is ten or twenty. */
const MAX_SOURCES = 20;

/** An http(s) source, or null: a `javascript:` link is no source. */
function sourceOf(v: unknown): Source | null {
  if (!isObject(v)) return null;
  try {
    const url = new URL(str(v.url));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return { title: str(v.title).slice(0, 300) || url.href, url: url.href };
  } catch {
    return null;
  }
}

/** Each source once, by URL, at most MAX_SOURCES. */
export function sourcesOf(list: readonly unknown[]): Source[] {
  const out: Source[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    const s = sourceOf(item);
    if (!s || seen.has(s.url)) continue;
    seen.add(s.url);
    out.push(s);
    if (out.length >= MAX_SOURCES) break;
  }
  return out;
}

/** The tool the Responses API is sent for its search. */
export const RESPONSES_SEARCH_TOOL = { type: 'web_search' } as const;
/** Anthropic's web search server tool (its version of 2025-03-05), at most five searches a request. */
export const ANTHROPIC_SEARCH_TOOL = { type: 'web_search_20250305', name: 'web_search', max_uses: 5 } as const;

/** A finished Responses output item: a web search (its query, and its sources where asked for), or none. */
export function responsesSearch(item: unknown): WebSearchSeen | null {
  if (!isObject(item) || item.type !== 'web_search_call') return null;
  const action = isObject(item.action) ? item.action : {};
  const queries = Array.isArray(action.queries) ? action.queries.map(str).filter(Boolean) : [];
  const query = str(action.query) || queries.join('; ') || '(the query was not given)';
  const sources = sourcesOf(Array.isArray(action.sources) ? action.sources : []);
  return { query, sources, ...(item.status === 'failed' ? { error: 'the search failed' } : {}) };
}

/** A finished Responses message's `url_citation` annotations, as the sources its answer cites; none: null. */
export function responsesCitations(item: unknown): WebSearchSeen | null {
  if (!isObject(item) || item.type !== 'message' || !Array.isArray(item.content)) return null;
  const cited: unknown[] = [];
  for (const part of item.content)
    if (isObject(part) && Array.isArray(part.annotations))
      for (const a of part.annotations) if (isObject(a) && a.type === 'url_citation') cited.push(a);
  const sources = sourcesOf(cited);
  return sources.length ? { query: null, sources } : null;
}

/** Anthropic's `web_search_tool_result` block: the search's results, or its error code. */
export function anthropicSearchResult(block: unknown, query: string): WebSearchSeen | null {
  if (!isObject(block) || block.type !== 'web_search_tool_result') return null;
  const content = block.content;
  if (isObject(content)) return { query, sources: [], error: str(content.error_code) || 'the search failed' };
  return { query, sources: sourcesOf(Array.isArray(content) ? content : []) };
}

/** A citation in Anthropic's text (`citations_delta`, or a text block's `citations`) that names a web page. */
export function anthropicCitation(citation: unknown): unknown {
  return isObject(citation) && citation.type === 'web_search_result_location' ? citation : null;
}

/** What reading Anthropic's stream keeps of its searches: server tool calls by block, their queries by id, cites. */
export interface AnthropicSearchState {
  readonly calls: Map<number, { id: string; json: string }>;
  readonly queries: Map<string, string>;
  readonly cited: unknown[];
}

export function anthropicSearchState(): AnthropicSearchState {
  return { calls: new Map(), queries: new Map(), cited: [] };
}

/** The query a server tool call's input names. */
function queryOf(json: string): string {
  try {
    const input = JSON.parse(json) as unknown;
    return (isObject(input) && str(input.query)) || '(the query was not given)';
  } catch {
    return '(the query was not given)';
  }
}

/**
 * An Anthropic stream event as far as the web search goes: a search seen (its result block), or nothing; the
 * server tool call's input and the text's citations are kept in `state` meanwhile. `message_stop`: the citations.
 */
export function anthropicSearchEvent(event: unknown, state: AnthropicSearchState): WebSearchSeen | null {
  if (!isObject(event)) return null;
  const index = typeof event.index === 'number' ? event.index : 0;
  const block = event.content_block;
  const delta = isObject(event.delta) ? event.delta : {};
  if (event.type === 'content_block_start' && isObject(block)) {
    if (block.type === 'server_tool_use') state.calls.set(index, { id: str(block.id), json: '' });
    if (block.type === 'text' && Array.isArray(block.citations))
      for (const c of block.citations) if (anthropicCitation(c)) state.cited.push(c);
    const query = state.queries.get(str(block.tool_use_id)) ?? '(the query was not given)';
    return anthropicSearchResult(block, query);
  }
  if (event.type === 'content_block_delta') {
    const call = state.calls.get(index);
    if (call && delta.type === 'input_json_delta' && call.json.length < 10_000) call.json += str(delta.partial_json);
    if (delta.type === 'citations_delta' && anthropicCitation(delta.citation)) state.cited.push(delta.citation);
    return null;
  }
  if (event.type === 'content_block_stop') {
    const call = state.calls.get(index);
    if (call) state.queries.set(call.id, queryOf(call.json));
    state.calls.delete(index);
    return null;
  }
  if (event.type === 'message_stop' && state.cited.length) {
    const sources = sourcesOf(state.cited.splice(0));
    return sources.length ? { query: null, sources } : null;
  }
  return null;
}

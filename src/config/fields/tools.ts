// The keys of what tools run with: the sandbox, snapshots, MCP servers. Each entry: config/fields/field.ts.

import type * as V from 'valibot';
import { isHttpUrl, mcpServers, snapshotCaps, whole } from '../shapes';
import { type FieldSpec, oneOf } from './field';

export const TOOL_FIELDS = {
  sandbox: {
    schema: (v: typeof V) => oneOf(v, 'sandbox', ['on', 'off']),
    what: '`on`: commands run in bubblewrap; `off`: with your full rights (as `--sandbox`)',
    default: 'on',
    applies: 'tools',
  },
  snapshots: {
    schema: snapshotCaps,
    what:
      'the workspace snapshots\' caps: `{"maxFileMb": 10, "maxStoreMb": 2048, "maxAgeDays": 30}` (a bigger file ' +
      "is left out; past the store's size or age, the snapshots of milks no longer running are pruned, daily)",
    shown: 'those',
    applies: 'tools',
  },
  mcpServers: {
    schema: mcpServers,
    what:
      'MCP servers, in the shape other clients use (see [MCP servers](mcp.md)): `{"files": {"command": "npx", ' +
      '"args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}`',
    shown: 'none',
    applies: 'tools',
  },
  webSearch: {
    schema: webSearch,
    what:
      'where web_search looks: `{"service": "searxng", "url": "https://searx.example"}` (its JSON API), ' +
      '`{"service": "brave", "apiKeyEnv": "BRAVE_API_KEY"}`, or `{"service": "provider"}` (the Responses API\'s or ' +
      "Anthropic's own search, inside the request); `maxResults` 1 – 20 (see [web search](web-search.md))",
    shown: 'none (no web_search)',
    applies: 'tools',
  },
} as const satisfies Record<string, FieldSpec>;

/** `webSearch`: the service web_search asks, by its `service`. */
function webSearch(v: typeof V) {
  const url = (key: string) =>
    v.pipe(v.string(`${key} must be an http(s) URL`), v.check(isHttpUrl, `${key} must be an http(s) URL`));
  const maxResults = v.optional(whole(v, 'webSearch.maxResults', 1, 20));
  return v.variant(
    'service',
    [
      v.strictObject(
        { service: v.literal('searxng'), url: url('webSearch.url'), maxResults },
        'webSearch {"service": "searxng"} takes "url" (its http(s) address) and "maxResults" only',
      ),
      v.strictObject(
        {
          service: v.literal('brave'),
          apiKeyEnv: v.optional(
            v.pipe(
              v.string('webSearch.apiKeyEnv must name an environment variable'),
              v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'webSearch.apiKeyEnv must name an environment variable'),
            ),
          ),
          url: v.optional(url('webSearch.url')),
          maxResults,
        },
        'webSearch {"service": "brave"} takes "apiKeyEnv", "url" and "maxResults" only',
      ),
      v.strictObject({ service: v.literal('provider') }, 'webSearch {"service": "provider"} takes nothing more'),
    ],
    'webSearch must be an object whose "service" is "searxng" (with "url"), "brave" or "provider"',
  );
}

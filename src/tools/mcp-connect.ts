// How milk reaches an MCP server (mcp.ts runs them): a stdio server in a
// process group of its own (mcp-stdio.ts), a remote one over streamable HTTP
// (the SDK's transport, loaded only for one), with OAuth where a remote server
// wants it and the person has not given an Authorization header.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServerConfig } from './mcp';
import type { McpOAuth, OAuthOptions } from './mcp-oauth';
import { GroupStdioTransport, live } from './mcp-stdio';

/** OAuth for a remote server with no Authorization header of its own, where there is a data dir to keep tokens. */
export function oauthFor(
  name: string,
  config: { headers?: Readonly<Record<string, string>> },
  opts: OAuthOptions | undefined,
): McpOAuth | null {
  if (!opts || Object.keys(config.headers ?? {}).some((h) => h.toLowerCase() === 'authorization')) return null;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { McpOAuth: OAuth } = require('./mcp-oauth') as typeof import('./mcp-oauth');
  return new OAuth(name, opts);
}

/** The transport to a server: its process (the group's leader noted as live once it runs), or its URL. */
export function transportFor(config: McpServerConfig, oauth: McpOAuth | null): Transport {
  if ('command' in config) {
    const stdio = new GroupStdioTransport(config);
    const started = stdio.start().then(() => {
      if (stdio.child?.pid) live.add(stdio.child.pid);
    });
    stdio.start = () => started;
    return stdio;
  }
  const { StreamableHTTPClientTransport } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof HttpModule;
  return new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: { ...config.headers } },
    ...(oauth ? { authProvider: oauth } : {}),
  });
}

// What an MCP server says, as text: a result's content (text as it is, other
// content named), a resource's contents, and an error in one line with none of
// the server's config secrets it may have echoed.

import { redactSecrets, redactUrl } from '../kernel/redact';
import type { McpServerConfig } from './mcp';
import { MAX_MCP_RESULT } from './mcp-listing';
import type { ToolResult } from './tool';

/** The SDK's UnauthorizedError (its class loaded only with the HTTP transport). */
export function isUnauthorized(err: unknown): boolean {
  return err instanceof Error && (err.name === 'UnauthorizedError' || err.constructor.name === 'UnauthorizedError');
}

/**
 * A result's content as text: text parts as they are, an embedded resource's text in a block naming it, a link to one
 * by its uri, anything else named.
 */
export function resultText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((c: { type?: string; text?: unknown; mimeType?: unknown; resource?: unknown; uri?: unknown }) => {
      if (c.type === 'text') return String(c.text ?? '');
      if (c.type === 'resource' && c.resource && typeof c.resource === 'object') {
        const res = c.resource as { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
        return `<resource uri="${String(res.uri ?? '')}">\n${contentText(res)}\n</resource>`;
      }
      if (c.type === 'resource_link') return `[resource link: ${String(c.uri ?? '')}]`;
      const mime = typeof c.mimeType === 'string' ? ` (${c.mimeType})` : '';
      return `[${c.type ?? 'unknown'} content${mime}: not shown as text]`;
    })
    .join('\n');
}

/** A resource's contents: its text, or its binary named. */
export function contentText(c: { text?: unknown; blob?: unknown; mimeType?: unknown }): string {
  if (typeof c.text === 'string') return c.text;
  const mime = typeof c.mimeType === 'string' ? c.mimeType : 'binary';
  const bytes = typeof c.blob === 'string' ? Math.floor((c.blob.length * 3) / 4) : 0;
  return `[${mime} content of ${bytes} bytes: not shown as text]`;
}

/**
 * An error in a line, without anything the server could have echoed at length, nor a secret of its config (a header's
 * or an env value, a URL's password or query) that it echoed back.
 */
export function reason(err: unknown, config?: McpServerConfig): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/timed out|timeout/i.test(message)) return 'it did not answer in time';
  let line = message.split('\n')[0];
  const values: string[] = config ? Object.values(('url' in config ? config.headers : config.env) ?? {}) : [];
  if (config && 'url' in config) {
    const url = redactUrl(config.url);
    if (url !== config.url) line = line.split(config.url).join(url);
  }
  for (const v of values) if (v.length >= 4) line = line.split(v).join('[redacted]');
  // A bearer token's last word, where only that was echoed.
  for (const v of values) {
    const token = v.split(/\s+/).pop() ?? '';
    if (token.length >= 8) line = line.split(token).join('[redacted]');
  }
  return redactSecrets(line, undefined).slice(0, 200);
}

/** A tool call's result as the model gets it: its text, cut at the cap; the server's own error said as one. */
export function toolAnswer(result: Record<string, unknown>): ToolResult {
  const text = resultText(result.content);
  const cut =
    text.length > MAX_MCP_RESULT
      ? `${text.slice(0, MAX_MCP_RESULT)}\n[cut at ${MAX_MCP_RESULT} characters of ${text.length}]`
      : text;
  const failed = result.isError === true;
  return {
    ok: !failed,
    content: failed ? `error: ${cut}` : cut,
    status: failed ? 'the tool reported an error' : undefined,
  };
}

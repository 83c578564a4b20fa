// What an MCP server lists, as milk offers it (mcp.ts runs the servers): its
// tools checked one by one (a name or schema a provider would refuse is left
// out, saying why), its prompts as slash commands, its resources, and milk's
// own read_resource for a server that has them.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import type { McpToolInfo } from './mcp-tools';

export interface McpTool extends McpToolInfo {
  /** The server's own name for it. */
  readonly name: string;
  /** milk's own: the server's resources read by uri (read_resource), for a server that has them. */
  readonly resources?: true;
}

/** A resource a server lists: `@server:name` in an input attaches it; read_resource reads it for the model. */
export interface McpResource {
  readonly server: string;
  readonly name: string;
  readonly uri: string;
  readonly description: string;
  readonly mimeType?: string;
}

/** Resources of one server listed, at most. */
const MAX_RESOURCES = 200;

export interface McpPrompt {
  readonly server: string;
  readonly name: string;
  /** How a person types it: `/server:name`. */
  readonly command: string;
  readonly description: string;
  /** Its arguments' names, in order: the words typed after the command fill them. */
  readonly args: readonly string[];
}

/** How long a server has to start and list its tools, and a call to answer, by default. */
export const MCP_START_MS = 30_000;
export const MCP_CALL_MS = 120_000;
/** Characters of one result the model gets, at most. */
export const MAX_MCP_RESULT = 64 * 1024;

/** A tool name as a model accepts it (letters, digits, _ and -, at most 64). */
function qualify(server: string, tool: string): string {
  return `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

/** Why a provider would refuse this input schema (every request offering it would fail with a 400); null if none. */
function schemaProblem(schema: unknown): string | null {
  const o = schema as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return 'its input schema is not an object';
  if (o.type !== 'object') return 'its input schema is not of type object';
  if (
    o.properties !== undefined &&
    (typeof o.properties !== 'object' || o.properties === null || Array.isArray(o.properties))
  )
    return "its input schema's properties are not an object";
  if (o.required !== undefined && (!Array.isArray(o.required) || o.required.some((r) => typeof r !== 'string')))
    return "its input schema's required is not a list of names";
  return badType(o, 'input schema', 0);
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** A `type` anywhere in the schema that is no JSON Schema type (a provider answers 400 to every request): where. */
function badType(node: unknown, where: string, depth: number): string | null {
  if (typeof node !== 'object' || node === null || depth > 32) return null;
  const o = node as Record<string, unknown>;
  const types = Array.isArray(o.type) ? o.type : o.type === undefined ? [] : [o.type];
  const bad = types.find((t) => typeof t !== 'string' || !JSON_TYPES.has(t));
  if (bad !== undefined)
    return `its ${where} has type ${JSON.stringify(bad).slice(0, 40)}, which is no JSON Schema type`;
  const children: Array<[string, unknown]> = [];
  for (const key of ['properties', '$defs', 'definitions', 'patternProperties'])
    if (typeof o[key] === 'object' && o[key] !== null)
      for (const [name, sub] of Object.entries(o[key] as Record<string, unknown>))
        children.push([key === 'properties' ? `property ${name}` : `${key} ${name}`, sub]);
  for (const key of ['items', 'additionalProperties', 'not', 'contains'])
    if (typeof o[key] === 'object') children.push([`${where} ${key}`, o[key]]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    if (Array.isArray(o[key])) (o[key] as unknown[]).forEach((sub, i) => children.push([`${key}[${i}]`, sub]));
  for (const [name, sub] of children) {
    const found = badType(sub, name, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * A server's listed tools as milk offers them: one that a provider would refuse (a schema it cannot take, a name that
 * is another tool's once made a model's name) is left out, with why, and the rest are kept.
 */
export function checkTools(
  server: string,
  listed: readonly unknown[],
  taken: ReadonlySet<string>,
): { tools: McpTool[]; dropped: string[] } {
  const tools: McpTool[] = [];
  const dropped: string[] = [];
  const names = new Set(taken);
  for (const raw of listed) {
    const t = raw as {
      name?: unknown;
      description?: unknown;
      inputSchema?: unknown;
      annotations?: Record<string, unknown>;
    };
    if (typeof t?.name !== 'string' || t.name === '') {
      dropped.push('a tool without a name');
      continue;
    }
    const qualified = qualify(server, t.name);
    const why =
      schemaProblem(t.inputSchema) ??
      (names.has(qualified) ? `its name as the model sees it, ${qualified}, is another tool's` : null);
    if (why) {
      dropped.push(`${t.name}: ${why}`);
      continue;
    }
    names.add(qualified);
    tools.push({
      server,
      name: t.name,
      qualified,
      description: (typeof t.description === 'string' ? t.description : '').slice(0, 2000),
      inputSchema: t.inputSchema as Record<string, unknown>,
      hints: hintsOf(t.annotations),
    });
  }
  return { tools, dropped };
}

/** What a tool's annotations claim, in words. */
function hintsOf(a: Record<string, unknown> | undefined): string[] {
  if (!a || typeof a !== 'object') return [];
  return [
    a.readOnlyHint === true ? 'read-only' : '',
    a.destructiveHint === true ? 'destructive' : a.destructiveHint === false ? 'not destructive' : '',
    a.idempotentHint === true ? 'idempotent' : '',
    a.openWorldHint === true ? 'reaching outside' : '',
  ].filter(Boolean);
}

/**
 * The tools as listed, each unchecked: the SDK's own listTools takes the whole list as invalid when one tool's schema
 * is, and the server with it; here each tool is checked on its own (checkTools).
 */
export async function listTools(client: Client, timeout: number): Promise<unknown[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ResultSchema } = require('@modelcontextprotocol/sdk/types.js') as typeof TypesModule;
  const result = await client.request({ method: 'tools/list', params: {} }, ResultSchema, {
    timeout,
  });
  const tools = (result as { tools?: unknown }).tools;
  return Array.isArray(tools) ? tools : [];
}

/** A server's prompts, when it offers any (a server without the capability has none). */
export async function listPrompts(server: string, client: Client, timeout: number): Promise<McpPrompt[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  const listed = await client.listPrompts(undefined, { timeout });
  return listed.prompts
    .filter((p) => /^[A-Za-z][\w-]*$/.test(p.name))
    .map((p) => ({
      server,
      name: p.name,
      command: `${server}:${p.name}`,
      description: (p.description ?? '').split('\n')[0].slice(0, 200),
      args: (p.arguments ?? []).map((a) => a.name),
    }));
}

/** A server's resources, when it offers any. */
export async function listResources(server: string, client: Client, timeout: number): Promise<McpResource[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  const listed = await client.listResources(undefined, { timeout });
  return listed.resources.slice(0, MAX_RESOURCES).map((x) => ({
    server,
    name: x.name,
    uri: x.uri,
    description: (x.description ?? '').split('\n')[0].slice(0, 200),
    ...(x.mimeType ? { mimeType: x.mimeType } : {}),
  }));
}

/** milk's read_resource for a server that lists resources (named among the tools, never a name taken). */
export function resourceReader(
  server: string,
  resources: readonly McpResource[],
  taken: ReadonlySet<string>,
): McpTool | null {
  const qualified = qualify(server, 'read_resource');
  if (resources.length === 0 || taken.has(qualified)) return null;
  const listed = resources
    .slice(0, 20)
    .map((x) => `${x.uri}${x.name !== x.uri ? ` (${x.name})` : ''}${x.description ? `: ${x.description}` : ''}`);
  const more = resources.length > 20 ? `; and ${resources.length - 20} more` : '';
  return {
    server,
    name: 'read_resource',
    qualified,
    description: `Read one of the ${server} MCP server's resources by its uri: ${listed.join('; ')}${more}`.slice(
      0,
      2000,
    ),
    inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
    hints: [],
    resources: true,
  };
}

/** The listed resources an input's `@server:resource` mentions name (by name or uri), each once, in order. */
export function mentionsIn(text: string, all: readonly McpResource[]): Array<{ mention: string; res: McpResource }> {
  if (all.length === 0) return [];
  const named = [...text.matchAll(/(?<=^|\s)@([A-Za-z0-9_-]+):(\S+)/g)].map((m) => ({
    mention: `@${m[1]}:${m[2].replace(/[.,;:!?)]+$/, '')}`,
    server: m[1],
    key: m[2].replace(/[.,;:!?)]+$/, ''),
  }));
  const found = named.flatMap((n) => {
    const res = all.find((x) => x.server === n.server && (x.name === n.key || x.uri === n.key));
    return res ? [{ mention: n.mention, res }] : [];
  });
  return found.filter((f, i) => found.findIndex((o) => o.res === f.res) === i);
}

// Model Context Protocol servers (`mcpServers` in the config), through the
// official SDK's client. Loaded only when servers are configured, and started
// after the screen is up: neither start-up nor a keystroke waits on them. A
// stdio server runs in a process group of its own, so at exit (or a restart)
// the whole group is stopped, SIGKILL after a short grace for one that
// ignores SIGTERM. A server that dies, hangs, floods or sends what is not
// JSON-RPC ends the call it was in with a message and takes nothing else
// down. The values of `env` and `headers` are never printed or logged.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import { redactSecrets, redactUrl } from '../redact';
import type { ToolResult } from './tool';
import type { McpToolInfo } from './mcp-tools';
import { GroupStdioTransport, KILL_GRACE_MS, killMcpServers, live } from './mcp-stdio';
import type { McpOAuth, OAuthOptions } from './mcp-oauth';

// The exit path stops the servers through the module it loaded (agent-parts.ts).
export { killMcpServers };

export type McpServerConfig =
  | {
      readonly command: string;
      readonly args?: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | { readonly url: string; readonly headers?: Readonly<Record<string, string>> };

export type McpState = 'starting' | 'ready' | 'failed' | 'stopped';

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

export interface McpServerInfo {
  readonly name: string;
  readonly state: McpState;
  readonly why: string | null;
  readonly tools: readonly McpTool[];
  readonly prompts: readonly McpPrompt[];
  readonly resources: readonly McpResource[];
  /** The server's tools left out, and why (a name or schema a provider would refuse). */
  readonly dropped: readonly string[];
}

/** How long a server has to start and list its tools, and a call to answer, by default. */
export const MCP_START_MS = 30_000;
export const MCP_CALL_MS = 120_000;
/** Characters of one result the model gets, at most. */
export const MAX_MCP_RESULT = 64 * 1024;
interface Running {
  state: McpState;
  why: string | null;
  tools: McpTool[];
  prompts: McpPrompt[];
  resources: McpResource[];
  dropped: string[];
  client: Client | null;
  transport: Transport | null;
  /** Bumped by each start: a start that a restart overtook leaves things alone. */
  generation: number;
}

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

export class McpServers {
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly configs: Readonly<Record<string, McpServerConfig>>,
    private readonly changed: () => void,
    private readonly limits: { startMs?: number; callMs?: number; oauth?: OAuthOptions } = {},
  ) {
    for (const name of Object.keys(configs))
      this.running.set(name, {
        state: 'stopped',
        why: null,
        tools: [],
        prompts: [],
        resources: [],
        dropped: [],
        client: null,
        transport: null,
        generation: 0,
      });
  }

  /** Starts every server, in the background; resolves when each is ready or has failed (it never rejects). */
  startAll(): Promise<void> {
    return Promise.all([...this.running.keys()].map((name) => this.start(name))).then(() => undefined);
  }

  /** Stops a server (if running) and starts it again; false for a name not configured. */
  restart(name: string): boolean {
    if (!this.running.has(name)) return false;
    void this.start(name);
    return true;
  }

  private async start(name: string): Promise<void> {
    const r = this.running.get(name) as Running;
    this.stopOne(r);
    const generation = ++r.generation;
    Object.assign(r, { state: 'starting', why: null, tools: [], prompts: [], resources: [], dropped: [] });
    this.changed();
    try {
      const { client, transport } = await this.connect(name);
      if (generation !== r.generation) return void transport.close();
      Object.assign(r, { client, transport });
      const listed = await this.listTools(client);
      if (generation !== r.generation) return;
      const taken = new Set(this.tools().map((t) => t.qualified));
      Object.assign(r, checkTools(name, listed, taken));
      r.prompts = await this.listPrompts(name, client);
      r.resources = await this.listResources(name, client);
      if (generation !== r.generation) return;
      const reader = resourceReader(name, r.resources, taken);
      if (reader && !r.tools.some((t) => t.name === 'read_resource')) r.tools.push(reader);
      r.state = 'ready';
    } catch (err) {
      if (generation !== r.generation) return;
      this.stopOne(r);
      const why = reason(err, this.configs[name]);
      Object.assign(r, { state: 'failed', why, tools: [], prompts: [], resources: [], dropped: [] });
    }
    this.changed();
  }

  /** Connects to a server; a remote one that asks for OAuth is authorized first (the person, in a browser). */
  private async connect(name: string, authorized = false): Promise<{ client: Client; transport: Transport }> {
    const config = this.configs[name];
    const oauth = 'url' in config ? this.oauthFor(name, config) : null;
    if (oauth && !oauth.tokens()) await oauth.prepare();
    const transport = this.transport(config, oauth);
    const client = this.client(name);
    try {
      await client.connect(transport, { timeout: this.limits.startMs ?? MCP_START_MS });
    } catch (err) {
      if (!oauth || authorized || !isUnauthorized(err)) throw err;
      this.waiting(name, 'waiting for you to authorize milk in the browser (the address is in the transcript)');
      const code = await oauth.code();
      await (transport as InstanceType<typeof HttpModule.StreamableHTTPClientTransport>).finishAuth(code);
      return this.connect(name, true);
    }
    return { client, transport };
  }

  /** OAuth for a remote server with no Authorization header of its own, where there is a data dir to keep tokens. */
  private oauthFor(name: string, config: { headers?: Readonly<Record<string, string>> }): McpOAuth | null {
    const opts = this.limits.oauth;
    if (!opts || Object.keys(config.headers ?? {}).some((h) => h.toLowerCase() === 'authorization')) return null;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { McpOAuth: OAuth } = require('./mcp-oauth') as typeof import('./mcp-oauth');
    return new OAuth(name, opts);
  }

  private waiting(name: string, why: string): void {
    const r = this.running.get(name);
    if (r) r.why = why;
    this.changed();
  }

  private transport(config: McpServerConfig, oauth: McpOAuth | null): Transport {
    /* eslint-disable @typescript-eslint/no-require-imports */
    if ('command' in config) {
      const stdio = new GroupStdioTransport(config);
      const started = stdio.start().then(() => {
        if (stdio.child?.pid) live.add(stdio.child.pid);
      });
      stdio.start = () => started;
      return stdio;
    }
    const { StreamableHTTPClientTransport } =
      require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof HttpModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...config.headers } },
      ...(oauth ? { authProvider: oauth } : {}),
    });
  }

  private client(name: string): Client {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Client: SdkClient } = require('@modelcontextprotocol/sdk/client/index.js') as typeof ClientModule;
    const client = new SdkClient({ name: 'milk', version: '0.1.0' }, { capabilities: {} });
    // A server that dies or breaks its protocol: marked failed; a call in flight gets its own error.
    client.onerror = () => undefined;
    client.onclose = () => {
      const r = this.running.get(name);
      if (r && r.client === client && r.state === 'ready') {
        Object.assign(r, {
          state: 'failed',
          why: 'the server closed the connection',
          tools: [],
          prompts: [],
          resources: [],
          dropped: [],
          client: null,
          transport: null,
        });
        this.changed();
      }
    };
    return client;
  }

  /**
   * The tools as listed, each unchecked: the SDK's own listTools takes the whole list as invalid when one tool's schema
   * is, and the server with it; here each tool is checked on its own (checkTools).
   */
  private async listTools(client: Client): Promise<unknown[]> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ResultSchema } = require('@modelcontextprotocol/sdk/types.js') as typeof TypesModule;
    const result = await client.request({ method: 'tools/list', params: {} }, ResultSchema, {
      timeout: this.limits.startMs ?? MCP_START_MS,
    });
    const tools = (result as { tools?: unknown }).tools;
    return Array.isArray(tools) ? tools : [];
  }

  private stopOne(r: Running): void {
    const t = r.transport;
    const pid = t instanceof GroupStdioTransport ? t.child?.pid : undefined;
    r.client = null;
    r.transport = null;
    if (t) void t.close().catch(() => undefined);
    if (pid) setTimeout(() => live.delete(pid), KILL_GRACE_MS * 2).unref();
  }

  /** A server's prompts, when it offers any (a server without the capability has none). */
  private async listPrompts(server: string, client: Client): Promise<McpPrompt[]> {
    if (!client.getServerCapabilities()?.prompts) return [];
    const listed = await client.listPrompts(undefined, { timeout: this.limits.startMs ?? MCP_START_MS });
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
  private async listResources(server: string, client: Client): Promise<McpResource[]> {
    if (!client.getServerCapabilities()?.resources) return [];
    const listed = await client.listResources(undefined, { timeout: this.limits.startMs ?? MCP_START_MS });
    return listed.resources.slice(0, MAX_RESOURCES).map((x) => ({
      server,
      name: x.name,
      uri: x.uri,
      description: (x.description ?? '').split('\n')[0].slice(0, 200),
      ...(x.mimeType ? { mimeType: x.mimeType } : {}),
    }));
  }

  /** The ready servers' resources. */
  resources(): McpResource[] {
    return [...this.running.values()].flatMap((r) => (r.state === 'ready' ? r.resources : []));
  }

  /** A resource's contents as text (other content named), capped; rejects saying why. */
  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<string> {
    const r = this.running.get(server);
    if (!r?.client || r.state !== 'ready') throw new Error(`${server} is not running`);
    try {
      const got = await r.client.readResource({ uri }, { signal, timeout: this.limits.callMs ?? MCP_CALL_MS });
      const text = got.contents.map((c) => contentText(c)).join('\n');
      return text.length > MAX_MCP_RESULT
        ? `${text.slice(0, MAX_MCP_RESULT)}\n[cut at ${MAX_MCP_RESULT} characters]`
        : text;
    } catch (err) {
      throw new Error(`${server}: ${reason(err, this.configs[server])}`, { cause: err });
    }
  }

  /**
   * The contents of the resources an input's `@server:resource` mentions name (a listed resource, by its name or uri),
   * a block each, and a note for each.
   */
  async mentioned(text: string, signal?: AbortSignal): Promise<{ blocks: string[]; notes: string[] }> {
    const all = this.resources();
    if (all.length === 0) return { blocks: [], notes: [] };
    const named = [...text.matchAll(/(?<=^|\s)@([A-Za-z0-9_-]+):(\S+)/g)].map((m) => ({
      mention: `@${m[1]}:${m[2].replace(/[.,;:!?)]+$/, '')}`,
      server: m[1],
      key: m[2].replace(/[.,;:!?)]+$/, ''),
    }));
    const found = named.flatMap((n) => {
      const res = all.find((x) => x.server === n.server && (x.name === n.key || x.uri === n.key));
      return res ? [{ ...n, res }] : [];
    });
    const blocks: string[] = [];
    const notes: string[] = [];
    for (const f of found.filter((f, i) => found.findIndex((o) => o.res === f.res) === i)) {
      try {
        const body = await this.readResource(f.res.server, f.res.uri, signal);
        blocks.push(`<resource server="${f.res.server}" uri="${f.res.uri}">\n${body}\n</resource>`);
        notes.push(`attached ${f.mention} (${body.length} characters)`);
      } catch (err) {
        blocks.push(`[${f.mention}: not attached: ${(err as Error).message}]`);
        notes.push(`${f.mention} not attached: ${(err as Error).message}`);
      }
    }
    return { blocks, notes };
  }

  /** Every server with its state, tools and prompts, in config order. */
  list(): McpServerInfo[] {
    return [...this.running.entries()].map(([name, r]) => ({
      name,
      state: r.state,
      why: r.why,
      tools: r.tools,
      prompts: r.prompts,
      resources: r.resources,
      dropped: r.dropped,
    }));
  }

  /** The ready servers' prompts. */
  prompts(): McpPrompt[] {
    return [...this.running.values()].flatMap((r) => (r.state === 'ready' ? r.prompts : []));
  }

  /**
   * A prompt's messages as the text of one input: the words typed fill its
   * arguments in order (the last takes the rest). Null: no such prompt or
   * server. Rejects, saying why, when the server could not give it.
   */
  async getPrompt(command: string, typed: string): Promise<string | null> {
    const prompt = this.prompts().find((p) => p.command === command);
    const r = prompt ? this.running.get(prompt.server) : undefined;
    if (!prompt || !r?.client) return null;
    const words = typed.trim() ? typed.trim().split(/\s+/) : [];
    const args: Record<string, string> = {};
    prompt.args.forEach((name, i) => {
      const value = i === prompt.args.length - 1 ? words.slice(i).join(' ') : words[i];
      if (value) args[name] = value;
    });
    try {
      const got = await r.client.getPrompt(
        { name: prompt.name, arguments: args },
        { timeout: this.limits.callMs ?? MCP_CALL_MS },
      );
      return got.messages.map((m) => resultText([m.content])).join('\n\n');
    } catch (err) {
      throw new Error(`${prompt.server}: ${reason(err, this.configs[prompt.server])}`, { cause: err });
    }
  }

  /** The ready servers' tools. */
  tools(): McpTool[] {
    return [...this.running.values()].flatMap((r) => (r.state === 'ready' ? r.tools : []));
  }

  /** The tool a model's call names, if it is one of the servers'. */
  find(qualified: string): McpTool | undefined {
    return this.tools().find((t) => t.qualified === qualified);
  }

  /** Calls a tool: its text (other content named), capped; a dead, hung or broken server ends the call with why. */
  async call(qualified: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const tool = this.find(qualified);
    const r = tool ? this.running.get(tool.server) : undefined;
    if (!tool || !r?.client)
      return {
        ok: false,
        content: `error: ${qualified} is not available (its MCP server is not running)`,
        status: 'server not running',
      };
    if (tool.resources) return this.readForModel(tool.server, args, signal);
    try {
      const result = await r.client.callTool({ name: tool.name, arguments: args }, undefined, {
        signal,
        timeout: this.limits.callMs ?? MCP_CALL_MS,
      });
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
    } catch (err) {
      const why = signal.aborted ? 'interrupted' : reason(err, this.configs[tool.server]);
      return { ok: false, content: `error: ${tool.server}: ${why}`, status: why.slice(0, 120) };
    }
  }

  /** read_resource: one of the server's resources for the model. */
  private async readForModel(server: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const uri = typeof args.uri === 'string' ? args.uri : '';
    const listed = this.running.get(server)?.resources.find((x) => x.uri === uri || x.name === uri);
    if (!listed) return { ok: false, content: `error: ${server} lists no resource ${JSON.stringify(uri)}` };
    try {
      return { ok: true, content: await this.readResource(server, listed.uri, signal) };
    } catch (err) {
      return { ok: false, content: `error: ${(err as Error).message}`, status: 'not read' };
    }
  }

  /** Stops every server (at exit, or when the config goes). */
  stopAll(): void {
    for (const r of this.running.values()) {
      r.generation++;
      this.stopOne(r);
      if (r.state !== 'failed') r.state = 'stopped';
    }
  }
}

/** The SDK's UnauthorizedError (its class loaded only with the HTTP transport). */
function isUnauthorized(err: unknown): boolean {
  return err instanceof Error && (err.name === 'UnauthorizedError' || err.constructor.name === 'UnauthorizedError');
}

/**
 * A result's content as text: text parts as they are, an embedded resource's text in a block naming it, a link to one
 * by its uri, anything else named.
 */
function resultText(content: unknown): string {
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
function contentText(c: { text?: unknown; blob?: unknown; mimeType?: unknown }): string {
  if (typeof c.text === 'string') return c.text;
  const mime = typeof c.mimeType === 'string' ? c.mimeType : 'binary';
  const bytes = typeof c.blob === 'string' ? Math.floor((c.blob.length * 3) / 4) : 0;
  return `[${mime} content of ${bytes} bytes: not shown as text]`;
}

/** milk's read_resource for a server that lists resources (named among the tools, never a name taken). */
function resourceReader(server: string, resources: readonly McpResource[], taken: ReadonlySet<string>): McpTool | null {
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

/**
 * An error in a line, without anything the server could have echoed at length, nor a secret of its config (a header's
 * or an env value, a URL's password or query) that it echoed back.
 */
function reason(err: unknown, config?: McpServerConfig): string {
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

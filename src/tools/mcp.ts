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
import type { ToolResult } from './tool';
import {
  MCP_CALL_MS,
  MCP_START_MS,
  MAX_MCP_RESULT,
  McpPrompt,
  McpResource,
  McpTool,
  checkTools,
  listPrompts,
  listResources,
  listTools,
  mentionsIn,
  resourceReader,
} from './mcp-listing';
import { contentText, isUnauthorized, reason, resultText, toolAnswer } from './mcp-results';
import { oauthFor, transportFor } from './mcp-connect';
import { GroupStdioTransport, KILL_GRACE_MS, killMcpServers, live } from './mcp-stdio';
import type { OAuthOptions } from './mcp-oauth';

// The exit path stops the servers through the module it loaded (app/agent.ts).
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

/** A server's lists while it is not ready: empty. */
function nothingListed(): Pick<Running, 'tools' | 'prompts' | 'resources' | 'dropped'> {
  return { tools: [], prompts: [], resources: [], dropped: [] };
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
        ...nothingListed(),
        client: null,
        transport: null,
        generation: 0,
      });
  }

  private get startMs(): number {
    return this.limits.startMs ?? MCP_START_MS;
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
    Object.assign(r, { state: 'starting', why: null, ...nothingListed() });
    this.changed();
    try {
      const { client, transport } = await this.connect(name);
      if (generation !== r.generation) return void transport.close();
      Object.assign(r, { client, transport });
      const listed = await listTools(client, this.startMs);
      if (generation !== r.generation) return;
      const taken = new Set(this.tools().map((t) => t.qualified));
      Object.assign(r, checkTools(name, listed, taken));
      r.prompts = await listPrompts(name, client, this.startMs);
      r.resources = await listResources(name, client, this.startMs);
      if (generation !== r.generation) return;
      const reader = resourceReader(name, r.resources, taken);
      if (reader && !r.tools.some((t) => t.name === 'read_resource')) r.tools.push(reader);
      Object.assign(r, { state: 'ready', why: null }); // what it waited for (an authorization) is over
    } catch (err) {
      if (generation !== r.generation) return;
      this.stopOne(r);
      const why = reason(err, this.configs[name]);
      Object.assign(r, { state: 'failed', why, ...nothingListed() });
    }
    this.changed();
  }

  /** Connects to a server; a remote one that asks for OAuth is authorized first (the person, in a browser). */
  private async connect(name: string, authorized = false): Promise<{ client: Client; transport: Transport }> {
    const config = this.configs[name];
    const oauth = 'url' in config ? oauthFor(name, config, this.limits.oauth) : null;
    if (oauth && !oauth.tokens()) await oauth.prepare();
    const transport = transportFor(config, oauth);
    const client = this.client(name);
    try {
      await client.connect(transport, { timeout: this.limits.startMs ?? MCP_START_MS });
    } catch (err) {
      if (!oauth || authorized || !isUnauthorized(err)) throw err;
      this.waiting(name, 'waiting for you to authorize milk in the browser (the address is in the transcript)');
      const code = await oauth.code();
      this.waiting(name, 'authorized: connecting');
      await (transport as InstanceType<typeof HttpModule.StreamableHTTPClientTransport>).finishAuth(code);
      return this.connect(name, true);
    }
    return { client, transport };
  }

  private waiting(name: string, why: string): void {
    Object.assign(this.running.get(name) ?? {}, { why });
    this.changed();
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
        const why = 'the server closed the connection';
        Object.assign(r, { state: 'failed', why, ...nothingListed(), client: null, transport: null });
        this.changed();
      }
    };
    return client;
  }

  private stopOne(r: Running): void {
    const t = r.transport;
    const pid = t instanceof GroupStdioTransport ? t.child?.pid : undefined;
    r.client = null;
    r.transport = null;
    if (t) void t.close().catch(() => undefined);
    if (pid) setTimeout(() => live.delete(pid), KILL_GRACE_MS * 2).unref();
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
    const found = mentionsIn(text, this.resources());
    const blocks: string[] = [];
    const notes: string[] = [];
    for (const f of found) {
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
      return toolAnswer(result);
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

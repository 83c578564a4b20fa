// The agent's MCP servers: the person's and a trusted workspace's, held together (a workspace trusted later adds its
// own), started after the first paint, their OAuth sign-ins kept in the data dir, their resources read into an input
// that names them, and /mcp's lines.

import type { Bus } from '../kernel/bus';
import { dataLayout } from '../kernel/data-dir';
import { sanitize } from '../protocol/inert';
import type { McpServerConfig, McpServers } from '../tools/mcp';
import { mcpTool } from '../tools/mcp-tools';
import type { AnyTool } from '../tools/tool';
import type { AgentOptions } from './agent';
import { type RunCommand, serverCommand, serverCommands } from './control-files';

/**
 * The MCP servers, made (and the SDK loaded) only when some are configured,
 * and started by start(); until then, and with none, they offer no tools.
 */
export function mcpHolder(
  bus: Bus,
  options: AgentOptions,
  vouch: (command: RunCommand, what: string) => Promise<string | null> = async () => null,
) {
  // The person's servers, and a trusted project's (added when it is trusted, maybe after the first have started).
  const waiting: Array<Readonly<Record<string, McpServerConfig>>> = [options.mcpServers ?? {}];
  const groups: McpServers[] = [];
  let started = false;
  let count = Object.keys(options.mcpServers ?? {}).length;
  const added: Array<Readonly<Record<string, McpServerConfig>>> = [];
  const startGroup = async (all: Readonly<Record<string, McpServerConfig>>): Promise<void> => {
    const configs = await vouched(all);
    if (Object.keys(configs).length === 0) return;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { McpServers: Servers } = require('../tools/mcp') as typeof import('../tools/mcp');
    const servers = new Servers(configs, () => bus.requestRender(), { oauth: oauthFor(bus, options.dataDir) });
    groups.push(servers);
    return servers.startAll();
  };
  /** The servers that may start: one that runs a workspace file changed since it was trusted, only after a yes. */
  const vouched = async (configs: Readonly<Record<string, McpServerConfig>>) => {
    const judged = await Promise.all(
      Object.entries(configs).map(async ([name, c]) => {
        const command = serverCommand(c);
        const why = command ? await vouch(command, `MCP server ${name}`) : null;
        if (why) options.warn(`MCP server ${name} not started: ${why}`);
        return why ? [] : [[name, c] as const];
      }),
    );
    return Object.fromEntries(judged.flat());
  };
  /** Starts every server; resolves when each is ready or has failed. */
  const start = (): Promise<void> => {
    if (started) return Promise.resolve();
    started = true;
    return Promise.all(waiting.splice(0).map(startGroup)).then(() => undefined);
  };
  /** Stops the servers; `everyone`: every stdio server's group killed too (at exit; a session's end stops its own). */
  const stop = (everyone = true): void => {
    if (groups.length === 0) return;
    for (const g of groups) g.stopAll();
    if (!everyone) return;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('../tools/mcp') as typeof import('../tools/mcp')).killMcpServers();
  };
  /** More servers (a project's, once trusted): started at once if the others have been, else with them. */
  const add = (configs: Readonly<Record<string, McpServerConfig>>): Promise<void> => {
    const fresh = Object.fromEntries(Object.entries(configs).filter(([name]) => !(name in (options.mcpServers ?? {}))));
    added.push(fresh);
    count += Object.keys(fresh).length;
    if (!started) {
      waiting.push(fresh);
      return Promise.resolve();
    }
    return startGroup(fresh);
  };
  /** The local servers' commands, the person's and an added project's, as they are started. */
  const commands = (): RunCommand[] => [options.mcpServers ?? {}, ...added].flatMap(serverCommands);
  return { start, stop, add, commands, ...mcpReaders(groups, () => count) };
}

/** Where remote MCP servers' OAuth tokens are kept, and how the person is sent to authorize; none without data. */
export function oauthFor(bus: Bus, dataDir: string | null): import('../tools/mcp-oauth').OAuthOptions | undefined {
  if (dataDir === null) return undefined;
  return {
    dir: dataLayout(dataDir).mcpAuth,
    show: (server, url) => {
      bus.emit('transcript.note', {
        text: sanitize(`MCP server ${server} asks you to authorize milk: open ${url.href}`),
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const refused = (require('../tools/mcp-oauth') as typeof import('../tools/mcp-oauth')).openBrowser(url);
      if (refused) bus.emit('transcript.note', { text: sanitize(`MCP server ${server}: ${refused}`) });
    },
  };
}

/** What the MCP servers of every group offer: tools, prompts, resources, and the lines and counts shown of them. */
export function mcpReaders(groups: readonly McpServers[], count: () => number) {
  const list = () => groups.flatMap((g) => g.list());
  return {
    /** The ready servers' tools, as milk's own are (tools/mcp-tools.ts). */
    tools: (): AnyTool[] =>
      groups.flatMap((g) => g.tools().map((t) => mcpTool(t, (name, args, signal) => g.call(name, args, signal)))),
    /** Each server that failed, and why. */
    failures: (): string[] =>
      list().flatMap((x) => (x.state === 'failed' ? [`MCP server ${x.name}: ${x.why ?? 'failed'}`] : [])),
    prompts: () => groups.flatMap((g) => g.prompts()),
    /** The servers still starting, by name. */
    starting: (): string[] => list().flatMap((x) => (x.state === 'starting' ? [x.name] : [])),
    /** An input with the resources its `@server:resource` mentions name after it; notes for the person. */
    expand: async (text: string, signal: AbortSignal): Promise<{ text: string; notes: string[] }> => {
      const found = await Promise.all(groups.map((g) => g.mentioned(text, signal)));
      const blocks = found.flatMap((f) => f.blocks);
      return { text: blocks.length ? [text, ...blocks].join('\n\n') : text, notes: found.flatMap((f) => f.notes) };
    },
    getPrompt: async (command: string, typed: string): Promise<string | null> => {
      for (const g of groups) {
        const got = await g.getPrompt(command, typed);
        if (got !== null) return got;
      }
      return null;
    },
    status: (): string | null =>
      count() === 0 ? null : `mcp ${list().filter((x) => x.state === 'ready').length}/${count()}`,
    forSlash: {
      lines: (): string[] =>
        groups.length
          ? groups.flatMap(mcpLines)
          : ["no MCP servers: add them as mcpServers in the data dir's config.json"],
      restart: (name: string): boolean => groups.some((g) => g.restart(name)),
    },
  };
}

/** /mcp: each server's state (and why it failed) and its tools. */
export function mcpLines(servers: McpServers): string[] {
  return servers.list().flatMap((x) => [
    `${x.name}: ${x.state}${x.why ? ` (${x.why})` : ''}${x.tools.length ? ` · ${toolCount(x.tools.length)}` : ''}`,
    ...x.tools.map((t) => {
      const about = t.description ? `: ${t.description.split('\n')[0].slice(0, 80)}` : '';
      return `  ${t.qualified}${t.hints.length ? ` (says ${t.hints.join(', ')})` : ''}${about}`;
    }),
    ...x.dropped.map((d) => `  left out: ${d}`),
    ...x.prompts.map((p) => {
      const args = p.args.map((a) => ` ${a.toUpperCase()}`).join('');
      return `  /${p.command}${args} (prompt)${p.description ? `: ${p.description.slice(0, 80)}` : ''}`;
    }),
    ...x.resources.map(
      (r) => `  @${x.name}:${r.name} (resource ${r.uri})${r.description ? `: ${r.description.slice(0, 80)}` : ''}`,
    ),
  ]);
}

export function toolCount(n: number): string {
  return `${n} tool${n === 1 ? '' : 's'}`;
}

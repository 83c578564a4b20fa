// The plugins on in a workspace, put to use (issue 59): those installed in the data dir (config/plugin-store.ts),
// turned on here and trusted as they are now, give the agent their commands (`/plugin:command`), agents and skills
// (read again at each load) and their hooks and MCP servers (added once); a plugin changed since it was trusted, or
// broken, is not used and milk says why.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { PluginStore, enabledIn } from '../config/plugin-store';
import { inlineCommands } from '../config/plugins';
import { sourced } from '../config/hooks';
import { type PluginAdds, type PromptCommand, type PromptFile, parsePromptFile } from '../agent/prompt-commands';
import type { AgentContext } from '../agent/context';
import type { Hooks } from '../turn/hook-runner';
import type { mcpHolder } from './agent-mcp';
import { type PluginFiles, readPlugin, trustOf, turnsOn } from './plugins';

/** A command's or an agent's file larger than this is left out. */
const MAX_FILE = 256 * 1024;

export interface PluginsOn {
  readonly plugins: readonly PluginFiles[];
  /** What milk says of those it does not use. */
  readonly notes: readonly string[];
}

/** The plugins on in `workspace` and trusted as they are now. */
export function pluginsOn(dataDir: string | null, workspace: string): PluginsOn {
  if (dataDir === null) return { plugins: [], notes: [] };
  const store = new PluginStore(dataDir);
  const { records, problem } = store.read();
  const plugins: PluginFiles[] = [];
  const notes = problem ? [problem] : [];
  for (const r of records) {
    if (!enabledIn(r, workspace)) continue;
    const p = readPlugin(store.folder(r.name));
    if ('problem' in p) notes.push(`plugin ${r.name} not loaded: ${p.problem}`);
    else if (trustOf(p) !== r.trusted)
      notes.push(`plugin ${r.name} changed since you trusted it: not loaded (milk plugin update ${r.name} asks again)`);
    else plugins.push(p);
  }
  return { plugins, notes };
}

/** A file's text, or null (left out) when it cannot be read or is too large. */
function small(file: string, problems: string[]): string | null {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_FILE) throw new Error('not a regular file of at most 256 KB');
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    problems.push(`${file}: ${(err as Error).message}; left out`);
    return null;
  }
}

/** The commands, agents and skills the plugins add, read from their files now. */
export function pluginAdds(on: PluginsOn): PluginAdds {
  const problems: string[] = [];
  const commands: PromptCommand[] = [];
  const agentFiles: PromptFile[] = [];
  for (const p of on.plugins) {
    for (const file of p.commands) {
      const text = small(file, problems);
      if (text === null) continue;
      const { description, body, hint } = parsePromptFile(text);
      const name = `${p.manifest.name}:${path.basename(file, '.md')}`;
      commands.push({
        name,
        description: description ?? `a command of ${p.manifest.name}`,
        source: 'plugin',
        body: inlineCommands(body),
        ...(hint ? { hint } : {}),
      });
    }
    for (const file of p.agents) {
      const text = small(file, problems);
      if (text !== null) agentFiles.push({ file: path.basename(file), text, source: 'personal' });
    }
  }
  const skillDirs = on.plugins.filter((p) => p.skills.length).map((p) => path.join(p.root, 'skills'));
  return { commands, agentFiles, skillDirs, problems: [...on.notes, ...problems] };
}

/** The plugins on here put to use: their hooks and servers added, the agent told where their commands are. */
export function usePlugins(
  o: { dataDir: string | null; workspace: string },
  parts: { agent: AgentContext; hooks: Hooks; mcp: ReturnType<typeof mcpHolder> },
): void {
  const on = pluginsOn(o.dataDir, o.workspace);
  if (on.plugins.length === 0 && on.notes.length === 0) return;
  parts.agent.plugins = () => pluginAdds(on);
  for (const p of on.plugins) parts.hooks.add(sourced({ hooks: p.hooks, source: `plugin ${p.manifest.name}` }));
  const servers: Record<string, PluginFiles['servers'][string]> = {};
  for (const p of on.plugins) Object.assign(servers, p.servers);
  void parts.mcp.add(servers);
}

/** /plugins: each plugin installed, on here or not, trusted as it is or not, and what it has. */
export function pluginLines(o: { dataDir: string | null; workspace: string }): string[] {
  if (o.dataDir === null) return ['no data dir: no plugins'];
  const store = new PluginStore(o.dataDir);
  const { records, problem } = store.read();
  const lines = problem ? [problem] : [];
  if (records.length === 0) lines.push('no plugins installed (milk plugin add FOLDER|GIT-URL[#NAME]; docs/plugins.md)');
  for (const r of records) {
    const p = readPlugin(store.folder(r.name));
    const state = !enabledIn(r, o.workspace)
      ? 'off in this workspace'
      : 'problem' in p || trustOf(p) !== r.trusted
        ? 'not loaded: changed since trusted or broken'
        : 'on';
    lines.push(`${r.name}${r.version ? ` ${r.version}` : ''} (${state}) from ${r.source}`);
    if ('problem' in p) {
      lines.push(`  ${p.problem}`);
      continue;
    }
    const names = (files: readonly string[]) => files.map((f) => path.basename(f, '.md')).join(', ');
    if (p.commands.length)
      lines.push(`  commands: ${p.commands.map((f) => `/${r.name}:${path.basename(f, '.md')}`).join(', ')}`);
    if (p.agents.length) lines.push(`  agents: ${names(p.agents)}`);
    if (p.skills.length) lines.push(`  skills: ${names(p.skills)}`);
    for (const l of turnsOn(p)) lines.push(`  ${l}`);
    for (const u of p.unsupported) lines.push(`  unsupported: ${u}`);
  }
  return lines;
}

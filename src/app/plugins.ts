// A plugin's folder read (issue 59): its manifest or its folder's name, its commands, agents and skills, its hooks and
// MCP servers in milk's shapes (config/plugins.ts), and what trusting it would turn on: the commands its hooks and
// servers run, each a line, whose SHA-256 is what the person says yes to (an update that changes a line asks again).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { type PluginManifest, type PluginServer, readHooks, readManifest, readMcp } from '../config/plugins';
import type { HookEvent, HooksConfig } from '../config/hooks';
import { sha256Hex } from '../kernel/sha256';

/** A manifest, a hooks file or an MCP file larger than this is not read. */
const MAX_FILE = 1024 * 1024;

export interface PluginFiles {
  readonly root: string;
  readonly manifest: PluginManifest;
  /** Its prompt commands' files (`commands/*.md`). */
  readonly commands: readonly string[];
  /** Its agents' files (`agents/*.md`). */
  readonly agents: readonly string[];
  /** Its skills' folders (`skills/NAME/SKILL.md`). */
  readonly skills: readonly string[];
  readonly hooks: HooksConfig;
  readonly servers: Readonly<Record<string, PluginServer>>;
  /** What it has that milk cannot run (an event with no counterpart, a prompt hook). */
  readonly unsupported: readonly string[];
  /** What was wrong in its files, and left out. */
  readonly problems: readonly string[];
}

/** A regular file's text (null: none there); never through a link, never a large one. */
function text(file: string): string | null {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return null;
  if (!st.isFile()) throw new Error(`${file} is not a regular file`);
  if (st.size > MAX_FILE) throw new Error(`${file} is over ${MAX_FILE} bytes`);
  return fs.readFileSync(file, 'utf8');
}

/** The regular entries of a folder of the plugin, by a test of their names (none: no folder). */
function entries(dir: string, keep: (e: fs.Dirent) => boolean): string[] {
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter(keep)
    .map((e) => path.join(dir, e.name))
    .sort();
}

/**
 * The plugin in `root`, or why it cannot be loaded (a broken manifest); `at`: where it will be (its hooks' and servers'
 * `${CLAUDE_PLUGIN_ROOT}`), when it is read before it is moved there.
 */
export function readPlugin(root: string, at: (name: string) => string = () => root): PluginFiles | { problem: string } {
  try {
    const { manifest, problems } = readManifest(
      text(path.join(root, '.claude-plugin', 'plugin.json')),
      path.basename(root),
    );
    if (!manifest) return { problem: problems.join('; ') };
    const home = at(manifest.name);
    const hooksText = text(path.join(root, 'hooks', 'hooks.json'));
    const hooks = hooksText === null ? { hooks: {}, unsupported: [], problems: [] } : readHooks(hooksText, home);
    const mcpText = text(path.join(root, '.mcp.json'));
    const mcp = mcpText === null ? { servers: {}, problems: [] } : readMcp(mcpText, home);
    return {
      root,
      manifest,
      commands: entries(path.join(root, 'commands'), (e) => e.isFile() && e.name.endsWith('.md')),
      agents: entries(path.join(root, 'agents'), (e) => e.isFile() && e.name.endsWith('.md')),
      skills: entries(path.join(root, 'skills'), (e) => e.isDirectory()).filter((d) =>
        fs.existsSync(path.join(d, 'SKILL.md')),
      ),
      hooks: hooks.hooks,
      servers: mcp.servers,
      unsupported: hooks.unsupported,
      problems: [...problems, ...hooks.problems, ...mcp.problems],
    };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

/** What trusting the plugin turns on: each hook's and each local server's command, each remote server's URL. */
export function turnsOn(p: PluginFiles): string[] {
  const hooks = (Object.entries(p.hooks) as Array<[HookEvent, NonNullable<HooksConfig[HookEvent]>]>).flatMap(
    ([event, list]) => list.map((h) => `hook ${event}${h.match ? ` (${h.match})` : ''}: ${h.command}`),
  );
  const servers = Object.entries(p.servers).map(([name, s]) =>
    'command' in s ? `MCP server ${name}: ${[s.command, ...(s.args ?? [])].join(' ')}` : `MCP server ${name}: ${s.url}`,
  );
  return [...hooks, ...servers];
}

/** The SHA-256 the person's yes is kept as: of what it turns on, and of its name. */
export function trustOf(p: PluginFiles): string {
  return sha256Hex(JSON.stringify([p.manifest.name, ...turnsOn(p)]));
}

/** One line of what a plugin has, for `milk plugin list` and /plugins. */
export function pluginSummary(p: PluginFiles): string {
  const n = (count: number, what: string): string => `${count} ${what}${count === 1 ? '' : 's'}`;
  const hooks = Object.values(p.hooks).reduce((sum, list) => sum + (list?.length ?? 0), 0);
  return [
    n(p.commands.length, 'command'),
    n(p.agents.length, 'agent'),
    n(p.skills.length, 'skill'),
    n(hooks, 'hook'),
    n(Object.keys(p.servers).length, 'MCP server'),
  ].join(', ');
}

// The workspace files milk itself runs: those its hooks' commands and its MCP servers' commands name (the person's
// and a trusted project's), as real paths inside the workspace. Worked out when a tool call first asks (never at
// start-up), and again once a trusted project adds hooks or servers. The file tools ask before changing one in every
// mode, and the sandbox binds each read-only (tools/control-files.ts, tools/sandbox-places.ts).

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandWords, fileWords } from '../tools/control-files';
import { inside } from '../tools/confine';
import type { ProjectSettings } from '../config/project-settings';
import type { McpServerConfig } from '../tools/mcp';

/** A command milk runs, as the words of a shell command or a program's argv, and where it runs. */
export type RunCommand = { shell: string; cwd: string } | { argv: readonly string[]; cwd?: string };

/** A local MCP server's command as it is started (a remote one runs nothing here: null). */
export function serverCommand(c: McpServerConfig): RunCommand | null {
  return 'command' in c ? { argv: [c.command, ...(c.args ?? [])], cwd: c.cwd } : null;
}

/** The local servers' commands among `configs`. */
export function serverCommands(configs: Readonly<Record<string, McpServerConfig>>): RunCommand[] {
  return Object.values(configs).flatMap((c) => serverCommand(c) ?? []);
}

/** The commands a workspace's settings would run: its hooks', its local MCP servers' and its status line's. */
export function projectCommands(p: ProjectSettings, workspace: string): RunCommand[] {
  const hooks = Object.values(p.hooks ?? {}).flatMap((list) =>
    (list ?? []).map((h) => ({ shell: h.command, cwd: workspace })),
  );
  const line = p.statusLine && 'command' in p.statusLine ? [{ shell: p.statusLine.command, cwd: workspace }] : [];
  return [...hooks, ...serverCommands(p.mcpServers ?? {}), ...line];
}

export interface ControlFiles {
  /** The named files, real paths, each a regular file inside the workspace. */
  get(): Promise<readonly string[]>;
  /** The commands changed (a project's hooks or servers were added): worked out again at the next ask. */
  changed(): void;
}

export function controlFiles(workspace: string, commands: () => readonly RunCommand[]): ControlFiles {
  let found: Promise<string[]> | null = null;
  return {
    get: () => (found ??= namedFiles(workspace, commands()).catch(() => [])),
    changed: () => {
      found = null;
    },
  };
}

/** The workspace files the commands name: real paths of regular files inside it. */
export async function namedFiles(workspace: string, commands: readonly RunCommand[]): Promise<string[]> {
  const root = await fs.promises.realpath(workspace);
  const candidates = new Set<string>();
  for (const c of commands) {
    const words = 'shell' in c ? commandWords(c.shell) : [...c.argv];
    // A server with no cwd runs in the home folder (tools/mcp-stdio.ts).
    const cwd = c.cwd ?? os.homedir();
    for (const w of fileWords(words)) candidates.add(path.resolve(cwd, w));
  }
  const files = await Promise.all(
    [...candidates].map(async (p) => {
      try {
        const real = await fs.promises.realpath(p);
        return inside(root, real) && real !== root && (await fs.promises.stat(real)).isFile() ? real : null;
      } catch {
        return null;
      }
    }),
  );
  return [...new Set(files.filter((f): f is string => f !== null))];
}

// The data dir's layout: every path under it, from this one place. A file
// milk keeps is named here, and nowhere else joins a name onto the data dir
// (where the data dir itself is: config/paths.ts). Pure.

import * as path from 'node:path';

/** The paths under `dataDir`. */
export function dataLayout(dataDir: string) {
  const sessions = path.join(dataDir, 'sessions');
  return {
    dataDir,
    /** Settings, MCP servers, keys (config/config.ts). */
    config: path.join(dataDir, 'config.json'),
    /** Approval rules kept per workspace (config/permissions.ts). */
    permissions: path.join(dataDir, 'permissions.json'),
    /** Which workspaces' own settings (.milk/settings.json) the person trusts (config/trust.ts). */
    trust: path.join(dataDir, 'trust.json'),
    /** Copies of the workspace files hooks and MCP servers run, as trusted, by SHA-256: a change is shown as a diff. */
    trusted: path.join(dataDir, 'trusted'),
    /** Remote MCP servers' OAuth registrations and tokens, a file each, 0600 (tools/mcp-oauth.ts). */
    mcpAuth: path.join(dataDir, 'mcp-auth'),
    /** The person's own instructions for every workspace. */
    agents: path.join(dataDir, 'AGENTS.md'),
    /** The person's prompt commands, one Markdown file each. */
    commands: path.join(dataDir, 'commands'),
    /** The person's subagents (the task tool), one Markdown file each. */
    subagents: path.join(dataDir, 'agents'),
    /** The person's Agent Skills, a folder each with its SKILL.md (agent/skills.ts). */
    skills: path.join(dataDir, 'skills'),
    /** The plugins installed (config/plugin-store.ts): a folder each, and what milk keeps of them. */
    plugins: path.join(dataDir, 'plugins'),
    pluginsFile: path.join(dataDir, 'plugins.json'),
    /** Session folders, their history files and older one-file logs. */
    sessions,
    /** One session's conversation logs, a file each. */
    sessionLogs: (sessionId: string): string => path.join(sessions, sessionId),
    /** Where versions before one file per conversation kept a session's log. */
    legacyLog: (sessionId: string): string => path.join(sessions, `${sessionId}.jsonl`),
    /** One session's input history. */
    sessionHistory: (sessionId: string): string => path.join(sessions, `${sessionId}.history`),
    /** The input history of every session. */
    globalHistory: path.join(dataDir, 'input_history'),
    /** Every running milk's copies of the files tools change: a folder per session, in it one per process. */
    checkpointsRoot: path.join(dataDir, 'checkpoints'),
    /** A workspace's snapshots (session/snapshots.ts): a private git store, by a hash of the workspace's path. */
    snapshots: (workspaceKey: string): string => path.join(dataDir, 'snapshots', `${workspaceKey}.git`),
    /** A running milk's copies of the files tools change, for a rewind (`run`: the process's own folder, pid-time). */
    checkpoints: (sessionId: string, run: string): string => path.join(dataDir, 'checkpoints', sessionId, run),
    /** Answers copied where the terminal's clipboard could not take them. */
    copied: path.join(dataDir, 'copied'),
    /** Images pasted from the clipboard (Ctrl+V), kept so that a resumed conversation can read them again. */
    images: path.join(dataDir, 'images'),
    /** Files handed to an external editor. */
    tmp: path.join(dataDir, 'tmp'),
    /** Bug reports /bug wrote (app/bug-report.ts), a file each. */
    reports: path.join(dataDir, 'reports'),
    /** /stats' summary of each conversation log, by its size and modification time (app/stats.ts). */
    statsCache: path.join(dataDir, 'stats-cache.json'),
    /** Worktrees milk --worktree made of a repository (app/worktrees.ts), a folder per workspace id. */
    worktrees: (workspaceKey: string): string => path.join(dataDir, 'worktrees', workspaceKey),
    /** V8's compiled code of milk (cli.ts). */
    cache: path.join(dataDir, 'cache'),
  };
}

export type DataLayout = ReturnType<typeof dataLayout>;

// A workspace's own settings, `<workspace>/.milk/settings.json`: MCP servers,
// hooks, allow and deny rules and a default approval mode that the project
// shares with whoever works in it. A repository is not trusted by being
// cloned: they apply only once the person trusts the workspace (config/trust.ts),
// and never to turn the sandbox off. Read as config.json is: a regular file of
// at most 1 MiB, never waited on; a bad key is one line and is left out.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as V from 'valibot';
import { hooks, mcpServers } from './config';
import { statusLine } from './shapes';
import type { StatusLineConfig } from '../protocol/status-line';
import { type Rule, describeRule, validRules } from '../settings/rules';
import { type DenyRule, describeDeny, validDeny } from '../settings/deny';
import { APPROVAL_MODES } from '../settings/approval';
import { type ApprovalMode } from '../protocol/approvals';
import { HOOK_EVENTS, type HooksConfig } from './hooks';
import { redactUrl } from '../kernel/redact';
import { sha256Hex } from '../kernel/sha256';

const MAX_BYTES = 1024 * 1024;
/** Where it is in the workspace, as milk names it (and the source its hooks are listed under in /hooks). */
export const PROJECT_SETTINGS = '.milk/settings.json';

export interface ProjectSettings {
  mcpServers?: ReturnType<typeof parse>['mcpServers'];
  hooks?: HooksConfig;
  allow: Rule[];
  deny: DenyRule[];
  approval?: ApprovalMode;
  /** The project's status line (a command it runs: a control file, vouched for as a hook's). */
  statusLine?: StatusLineConfig;
}

export interface ProjectRead {
  /** Where it is. */
  file: string;
  settings: ProjectSettings;
  /** What was left out, a line each. */
  problems: string[];
  /** The SHA-256 of the file as read (and of `files`, when there are any): trust is given to what was seen. */
  sha256: string;
  /** The agents, commands, skills and plugins beside it (config/project-files.ts), relative to the workspace. */
  files?: string[];
}

function parse(v: typeof V, value: Record<string, unknown>, problems: string[]) {
  const take = <T>(key: string, schema: V.GenericSchema<unknown, T>): T | undefined => {
    if (value[key] === undefined) return undefined;
    const r = v.safeParse(schema, value[key], { abortPipeEarly: true });
    if (r.success) return r.output;
    problems.push(`${key}: ${r.issues[0]?.message ?? 'not understood'}`);
    return undefined;
  };
  return {
    mcpServers: take('mcpServers', mcpServers(v)),
    hooks: take('hooks', hooks(v)),
    statusLine: take('statusLine', statusLine(v)),
    approval: take('approval', v.picklist(APPROVAL_MODES, `approval must be one of ${APPROVAL_MODES.join(', ')}`)),
  };
}

const KNOWN = new Set(['mcpServers', 'hooks', 'allow', 'deny', 'approval', 'statusLine']);

/** Reads the workspace's settings file; null when there is none. */
export function readProjectSettings(workspace: string): ProjectRead | null {
  const file = path.join(workspace, PROJECT_SETTINGS);
  let text: string;
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.size > MAX_BYTES) return broken(file, 'not a regular file of at most 1 MiB');
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return broken(file, `unreadable (${code ?? 'error'})`);
  }
  return parseProjectSettings(file, text);
}

function broken(file: string, why: string): ProjectRead {
  return { file, settings: { allow: [], deny: [] }, problems: [why], sha256: '' };
}

/** The settings of a file's text, each key checked. */
export function parseProjectSettings(file: string, text: string): ProjectRead {
  const sha256 = sha256Hex(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ...broken(file, `not valid JSON (${(err as Error).message})`), sha256 };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ...broken(file, 'not a JSON object'), sha256 };
  const o = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(o)) {
    if (key === 'sandbox') problems.push('sandbox: a project cannot turn the sandbox off (only your config.json can)');
    else if (!KNOWN.has(key))
      problems.push(`unknown key ${JSON.stringify(key).slice(0, 40)} (known: ${[...KNOWN].join(', ')})`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const v = require('valibot') as typeof V;
  const parsed = parse(v, o, problems);
  const allow = validRules(o.allow);
  const deny = validDeny(o.deny);
  if (allow.bad) problems.push(`allow: ${allow.bad} rule${allow.bad === 1 ? '' : 's'} not understood, left out`);
  if (deny.bad) problems.push(`deny: ${deny.bad} rule${deny.bad === 1 ? '' : 's'} not understood, left out`);
  const settings: ProjectSettings = {
    allow: allow.rules,
    deny: deny.deny,
    ...(parsed.mcpServers ? { mcpServers: parsed.mcpServers } : {}),
    ...(parsed.hooks ? { hooks: parsed.hooks } : {}),
    ...(parsed.approval ? { approval: parsed.approval } : {}),
    ...(parsed.statusLine ? { statusLine: parsed.statusLine } : {}),
  };
  return { file, settings, problems, sha256 };
}

/** What a line says of a command that runs the workspace's own code (app/trust.ts marks them). */
export const RUNS_EDITABLE = ' — runs code the agent can edit';

/**
 * What trusting the workspace would turn on, a line each (for the question and milk trust). `indirect`: whether a
 * command (a shell command's text, or a program's argv) runs workspace code indirectly; such a line says so before
 * the command, which a long line's cut could hide.
 */
export function projectLines(
  s: ProjectSettings,
  indirect: (command: string | readonly string[]) => boolean = () => false,
): string[] {
  const lines: string[] = [];
  const mark = (command: string | readonly string[]): string => (indirect(command) ? RUNS_EDITABLE : '');
  for (const [name, c] of Object.entries(s.mcpServers ?? {})) {
    const argv = 'url' in c ? null : [c.command, ...(c.args ?? [])];
    lines.push(
      `MCP server ${name}${argv ? `${mark(argv)}: ${argv.join(' ')}` : `: ${redactUrl((c as { url: string }).url)}`}`,
    );
  }
  for (const event of HOOK_EVENTS)
    for (const h of s.hooks?.[event] ?? [])
      lines.push(`hook ${event}${h.match ? ` [${h.match}]` : ''}${mark(h.command)}: ${h.command}`);
  for (const r of s.allow)
    lines.push(`allow: ${describeRule(r)} run without asking${r.prefix && r.tool === 'shell' ? mark(r.prefix) : ''}`);
  for (const r of s.deny) lines.push(`deny: ${describeDeny(r)}`);
  if (s.approval) lines.push(`approval mode: ${s.approval}`);
  const line = s.statusLine;
  if (line && 'command' in line) lines.push(`status line${mark(line.command)}: ${line.command}`);
  return lines;
}

// Plugins in the layout Claude Code's use (issue 59): a folder with an optional `.claude-plugin/plugin.json`,
// `commands/`, `agents/`, `skills/`, `hooks/hooks.json` and `.mcp.json`. Here, what their files say, read into milk's
// own shapes: the manifest (or the folder's name without one), the hooks with Claude Code's event and tool names
// mapped to milk's (the table docs/plugins.md shows), the MCP servers, `${CLAUDE_PLUGIN_ROOT}` put in their commands,
// and a marketplace's entry for a plugin. What has no counterpart in milk is named, never dropped in silence. Pure:
// the files' text is handed in.

import type { HookEvent, HookSpec, HooksConfig } from './hooks';

/** Claude Code's hook events and milk's. */
export const HOOK_EVENT_MAP: Readonly<Record<string, HookEvent>> = {
  PreToolUse: 'before_tool',
  PostToolUse: 'after_tool',
  UserPromptSubmit: 'user_prompt',
  Stop: 'turn_end',
  SessionStart: 'session_start',
  Notification: 'notification',
};

/** Claude Code's tool names, as a hook's matcher names them, and milk's. */
export const TOOL_NAME_MAP: Readonly<Record<string, string>> = {
  Bash: 'shell',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Write: 'write_file',
  Read: 'read_file',
  Grep: 'grep',
  Glob: 'glob',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  Task: 'task',
};

/**
 * The fields a Claude Code hook reads on its stdin, beside milk's own (`event`, `tool`, `args`…): its event's and
 * tool's names as Claude Code calls them, the tool's input, the folder and the conversation.
 */
export function claudeFields(
  event: HookEvent,
  fields: Readonly<Record<string, unknown>>,
  where: { workspace: string; conversation: string },
): Record<string, unknown> {
  const name = Object.entries(HOOK_EVENT_MAP).find(([, ours]) => ours === event)?.[0];
  const tool = typeof fields.tool === 'string' ? fields.tool : undefined;
  const claudeTool = tool && Object.entries(TOOL_NAME_MAP).find(([, ours]) => ours === tool)?.[0];
  return {
    ...(name ? { hook_event_name: name } : {}),
    ...(tool ? { tool_name: claudeTool ?? tool } : {}),
    ...(fields.args !== undefined ? { tool_input: fields.args } : {}),
    ...(fields.result !== undefined ? { tool_response: fields.result } : {}),
    cwd: where.workspace,
    session_id: where.conversation,
  };
}

/**
 * A command's inline ``!`cmd` `` (Claude Code runs it before the prompt is sent) as words asking the model to run it
 * with the shell tool: it is asked about as any command is, never run in silence.
 */
export function inlineCommands(body: string): string {
  return body.replace(
    /!`([^`\n]+)`/g,
    (_m, cmd: string) => `(run \`${cmd}\` with the shell tool and use what it prints)`,
  );
}

/** What a plugin's manifest says of it. */
export interface PluginManifest {
  readonly name: string;
  readonly version?: string;
  readonly description?: string;
}

/** A plugin's name: lowercase letters, digits and dashes (it prefixes its commands: `/name:command`). */
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The name a plugin goes by when its manifest names none: its folder's, made to fit. */
export function nameOfFolder(folder: string): string {
  const made = folder
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return made || 'plugin';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON's value, or why the text is not JSON (its file named). */
function json(text: string, file: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { problem: `${file}: not JSON (${(err as Error).message})` };
  }
}

/**
 * The manifest (`.claude-plugin/plugin.json`, null: none), or the folder's name without one; a broken manifest is a
 * problem and the plugin is not loaded (`manifest` null).
 */
export function readManifest(
  text: string | null,
  folder: string,
): { manifest: PluginManifest | null; problems: string[] } {
  if (text === null) return { manifest: { name: nameOfFolder(folder) }, problems: [] };
  const file = '.claude-plugin/plugin.json';
  const parsed = json(text, file);
  if ('problem' in parsed) return { manifest: null, problems: [parsed.problem] };
  const m = parsed.value;
  if (!isObject(m)) return { manifest: null, problems: [`${file}: must be a JSON object`] };
  if (typeof m.name !== 'string' || !NAME.test(m.name))
    return { manifest: null, problems: [`${file}: "name" must be lowercase letters, digits and dashes`] };
  const text_ = (key: string): string | undefined => (typeof m[key] === 'string' ? (m[key] as string) : undefined);
  const problems = ['version', 'description']
    .filter((k) => m[k] !== undefined && typeof m[k] !== 'string')
    .map((k) => `${file}: "${k}" must be a string (left out)`);
  const version = text_('version');
  const description = text_('description');
  return {
    manifest: { name: m.name, ...(version ? { version } : {}), ...(description ? { description } : {}) },
    problems,
  };
}

/** `${CLAUDE_PLUGIN_ROOT}` (and `$CLAUDE_PLUGIN_ROOT`) as the plugin's folder. */
export function withRoot(text: string, root: string): string {
  return text.replace(/\$\{CLAUDE_PLUGIN_ROOT\}|\$CLAUDE_PLUGIN_ROOT\b/g, root);
}

/**
 * A Claude Code matcher (a regular expression over its tool names: `Bash`, `Edit|Write`, `mcp__.*`, `.*`) as milk's
 * match: each alternative's tool name mapped, `.*` as `*`; null for one milk cannot read (it would match nothing).
 */
export function mapMatcher(matcher: string | undefined): string | undefined | null {
  if (matcher === undefined || matcher.trim() === '' || matcher.trim() === '*' || matcher.trim() === '.*')
    return undefined;
  const alts = matcher.split('|').map((a) => a.trim());
  const mapped = alts.map((a) => {
    if (/^[A-Za-z0-9_-]+$/.test(a)) return TOOL_NAME_MAP[a] ?? a;
    if (/^[A-Za-z0-9_-]*(\.\*[A-Za-z0-9_-]*)+$/.test(a)) return a.replace(/\.\*/g, '*');
    return null;
  });
  if (mapped.some((m) => m === null)) return null;
  return [...new Set(mapped)].join('|');
}

/** A plugin's hooks: milk's events and matches, its root put in each command; what milk cannot run, named. */
export function readHooks(
  text: string,
  root: string,
): { hooks: HooksConfig; unsupported: string[]; problems: string[] } {
  const file = 'hooks/hooks.json';
  const parsed = json(text, file);
  if ('problem' in parsed) return { hooks: {}, unsupported: [], problems: [parsed.problem] };
  const all = isObject(parsed.value) && isObject(parsed.value.hooks) ? parsed.value.hooks : null;
  if (!all) return { hooks: {}, unsupported: [], problems: [`${file}: must be {"hooks": {EVENT: […]}}`] };
  const hooks: Partial<Record<HookEvent, HookSpec[]>> = {};
  const unsupported: string[] = [];
  const problems: string[] = [];
  for (const [event, groups] of Object.entries(all)) {
    const ours = HOOK_EVENT_MAP[event];
    if (!ours) {
      unsupported.push(`hook event ${event} (milk has no such event)`);
      continue;
    }
    for (const group of Array.isArray(groups) ? groups : []) {
      const matcher = isObject(group) && typeof group.matcher === 'string' ? group.matcher : undefined;
      const match = mapMatcher(matcher);
      if (match === null) {
        unsupported.push(`${event} matcher ${matcher} (milk matches names, a|b and *)`);
        continue;
      }
      for (const h of isObject(group) && Array.isArray(group.hooks) ? group.hooks : []) {
        const spec = hookSpec(h, root, match);
        if (typeof spec === 'string') unsupported.push(`${event}: ${spec}`);
        else (hooks[ours] ??= []).push(spec);
      }
    }
    if (!Array.isArray(groups)) problems.push(`${file}: ${event} must be a list`);
  }
  return { hooks, unsupported, problems };
}

/** One of Claude Code's hooks as milk's, or why milk cannot run it. */
function hookSpec(h: unknown, root: string, match: string | undefined): HookSpec | string {
  if (!isObject(h) || typeof h.command !== 'string' || h.command.trim() === '')
    return 'a hook without a command (milk runs commands)';
  if (h.type !== undefined && h.type !== 'command') return `a hook of type ${String(h.type)} (milk runs commands)`;
  const timeout = typeof h.timeout === 'number' && h.timeout >= 1 ? Math.min(600, Math.round(h.timeout)) : undefined;
  return {
    command: withRoot(h.command, root),
    ...(match !== undefined ? { match } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
    env: { CLAUDE_PLUGIN_ROOT: root },
  };
}

/** An MCP server as a plugin gives it: stdio (its root put in its command, args and env) or HTTP. */
export type PluginServer =
  | { readonly command: string; readonly args?: readonly string[]; readonly env?: Readonly<Record<string, string>> }
  | { readonly url: string; readonly headers?: Readonly<Record<string, string>> };

const strings = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((x) => typeof x === 'string');

/** A plugin's `.mcp.json` (`{"mcpServers": {…}}`, or the servers alone): its servers, and what was left out. */
export function readMcp(text: string, root: string): { servers: Record<string, PluginServer>; problems: string[] } {
  const file = '.mcp.json';
  const parsed = json(text, file);
  if ('problem' in parsed) return { servers: {}, problems: [parsed.problem] };
  const v = parsed.value;
  const all = isObject(v) && isObject(v.mcpServers) ? v.mcpServers : isObject(v) ? v : null;
  if (!all) return { servers: {}, problems: [`${file}: must be {"mcpServers": {NAME: {…}}}`] };
  const servers: Record<string, PluginServer> = {};
  const problems: string[] = [];
  for (const [name, s] of Object.entries(all)) {
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(name)) problems.push(`${file}: server ${JSON.stringify(name)}: a bad name`);
    else if (isObject(s) && typeof s.command === 'string' && s.command !== '') {
      const args = Array.isArray(s.args) && s.args.every((a) => typeof a === 'string') ? s.args : [];
      const env = strings(s.env) ? s.env : {};
      servers[name] = {
        command: withRoot(s.command, root),
        args: args.map((a) => withRoot(a, root)),
        env: {
          ...Object.fromEntries(Object.entries(env).map(([k, x]) => [k, withRoot(x, root)])),
          CLAUDE_PLUGIN_ROOT: root,
        },
      };
    } else if (isObject(s) && typeof s.url === 'string' && /^https?:\/\//.test(s.url))
      servers[name] = { url: s.url, ...(strings(s.headers) ? { headers: s.headers } : {}) };
    else problems.push(`${file}: server ${name}: neither a command nor an http(s) url`);
  }
  return { servers, problems };
}

/** Where a marketplace's plugin comes from: a folder of the marketplace's repository, or a git URL of its own. */
export type PluginSource = { readonly path: string } | { readonly git: string };

/** Plugin `name` in a marketplace's `.claude-plugin/marketplace.json`, or why not. */
export function marketplaceEntry(text: string, name: string): { source: PluginSource } | { problem: string } {
  const file = '.claude-plugin/marketplace.json';
  const parsed = json(text, file);
  if ('problem' in parsed) return parsed;
  const v = parsed.value;
  const plugins = isObject(v) && Array.isArray(v.plugins) ? v.plugins : null;
  if (!plugins) return { problem: `${file}: must list its "plugins"` };
  const entry = plugins.find((p) => isObject(p) && p.name === name);
  if (!isObject(entry)) {
    const names = plugins.flatMap((p) => (isObject(p) && typeof p.name === 'string' ? [p.name] : []));
    return { problem: `no plugin ${name} in this marketplace (it lists ${names.join(', ') || 'none'})` };
  }
  const s = entry.source;
  if (typeof s === 'string') {
    if (s.split('/').includes('..') || s.startsWith('/')) return { problem: `${name}'s source leaves the marketplace` };
    return { source: { path: s } };
  }
  if (isObject(s) && s.source === 'github' && typeof s.repo === 'string' && /^[\w.-]+\/[\w.-]+$/.test(s.repo))
    return { source: { git: `https://github.com/${s.repo}.git` } };
  if (isObject(s) && (s.source === 'url' || s.source === 'git') && typeof s.url === 'string')
    return { source: { git: s.url } };
  return { problem: `${name}'s source is not a folder, a GitHub repo or a git URL` };
}

// The slash commands typed into the composer, as data: name, arguments,
// description and handler; /help, Tab completion and docs/commands.md's table
// read them from here. Nothing here draws, reads a file or holds state: a
// handler acts only through the context it is handed.

import { maxOf } from '../kernel/arrays';
import { COMPACT_AT } from '../turn/compact';
import type { KeyNames, Mode } from './views/registry';
import { withKeys } from '../kernel/commands';
import type { SlashContext } from './slash-context';
import { type SlashCommand, slash } from './slash/command';
import { SETTINGS_COMMANDS } from './slash/settings';
import { SESSION_COMMANDS } from './slash/session';
import { AGENT_COMMANDS } from './slash/agent';
import { HelpView } from './views/help';

export type { SlashContext };
export type { SlashCommand } from './slash/command';
export { turnRunning } from './slash/command';

const HELP: SlashCommand = slash('help', {
  args: '',
  description: 'What to know first, then every key of the current mode and every command',
  run(ctx, args, usage) {
    if (args.length > 0) return usage;
    ctx.screen.open(
      HelpView.open([
        { title: 'first steps', lines: essentialsHelp(ctx.keys).slice(1) },
        { title: `the keys (${ctx.screen.composerMode()})`, lines: keyHelp(ctx.keys, ctx.screen.composerMode()) },
        { title: 'commands', lines: slashHelpLines(ctx.keys) },
        { title: "this project's and your own commands", lines: ctx.services.prompts?.help() ?? [] },
      ]),
    );
  },
});

/** The keys of the mode the person is in, then those a search adds (scope switch, delete). */
function keyHelp(keys: KeyNames, mode: Mode): string[] {
  const search = [keys.key(mode, 'history.searchReverse'), keys.key(mode, 'history.searchForward')]
    .filter(Boolean)
    .join(', ');
  return [...keys.helpLines(mode), '', `in a search (${search}):`, ...keys.helpLines('search')];
}

/** Every slash command, by name, in the order /help, the menu and docs/commands.md list them. */
const BY_NAME = { help: HELP, ...SETTINGS_COMMANDS, ...SESSION_COMMANDS, ...AGENT_COMMANDS };

export type SlashName = keyof typeof BY_NAME;

const ORDER = [
  'help',
  'force',
  'approval',
  'theme',
  'new',
  'resume',
  'rename',
  'worktree',
  'add-dir',
  'export',
  'fork',
  'session',
  'context',
  'agents',
  'skills',
  'plugins',
  'hooks',
  'init',
  'review',
  'clear',
  'status',
  'provider',
  'doctor',
  'bug',
  'version',
  'cost',
  'stats',
  'model',
  'effort',
  'copy',
  'todo',
  'quit',
  'exit',
  'always',
  'mcp',
  'steer',
  'memory',
  'shells',
  'secrets',
  'rewind',
  'undo',
  'search',
  'diff',
  'compact',
  'permissions',
  'history',
] as const satisfies readonly SlashName[];

// A command left out of the order does not compile (and one listed twice fails the registry's test).
const EVERY_COMMAND_LISTED: Exclude<SlashName, (typeof ORDER)[number]> extends never ? true : never = true;
void EVERY_COMMAND_LISTED;

export const SLASH_COMMANDS: readonly SlashCommand[] = ORDER.map((name) => BY_NAME[name]);

export function findSlash(name: string): SlashCommand | undefined {
  return SLASH_COMMANDS.find((c) => c.name === name);
}

/**
 * `/name args…` when the text is one (`rest`: the arguments as typed); null for ordinary input. A name may hold a colon
 * (`/github:review-pr`, an MCP prompt).
 */
export function parseSlash(text: string): { name: string; args: string[]; rest: string } | null {
  // A command's word: letters, digits, `_`, `.` and `-`, and one `:server` part (an MCP prompt); `/usr/bin/x` is none.
  const m = /^\/([A-Za-z][\w.-]*(?::[\w.-]+)?)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  return { name: m[1], args: m[2] ? m[2].trim().split(/\s+/) : [], rest: m[2]?.trim() ?? '' };
}

/**
 * Completes a slash command from what is typed so far (`/hi` → `/history `).
 * Several matches extend to their common prefix and list the candidates.
 */
export function completeSlash(
  typed: string,
  more: readonly string[] = [],
): { text: string; candidates: string[] } | null {
  const m = /^\/([\w:-]*)$/.exec(typed);
  if (!m) return null;
  const names = [...SLASH_COMMANDS.map((c) => c.name), ...more].filter((n) => n.startsWith(m[1]));
  if (names.length === 0) return null;
  if (names.length === 1) return { text: `/${names[0]} `, candidates: names };
  let common = names[0];
  for (const n of names) while (!n.startsWith(common)) common = common.slice(0, -1);
  return { text: `/${common}`, candidates: names };
}

/**
 * What a newcomer needs first, from the keys as bound: sending, a new line, the menu, files, commands, history search,
 * stopping, a tool's question, rewinding, the editor, folds, full-auto, and what the status bar's counters mean.
 */
export function essentialsHelp(keys: KeyNames): string[] {
  const k = (command: Parameters<KeyNames['key']>[1], mode: Parameters<KeyNames['key']>[0] = 'idle'): string =>
    keys.key(mode, command) || '(unbound)';
  const answers = (['approval.yes', 'approval.no', 'approval.always', 'approval.rule', 'approval.network'] as const)
    .map((c) => k(c, 'approval'))
    .join(' ');
  const rows: Array<[string, string]> = [
    [k('composer.submit'), `send; ${keys.keys('idle', 'editor.newline', ', ')}: a new line`],
    ['/', 'every command, in a menu that filters as you type'],
    ['@path', 'attach a file or folder (a list of the workspace opens as you type)'],
    ['!command', 'run a command yourself; the model sees it and its output with your next message'],
    [k('history.searchReverse'), `search what you typed before (${k('history.searchForward')}: forwards)`],
    [
      `${k('turn.cancel', 'busy')}, ${k('app.interrupt')}`,
      `stop the turn; on an empty line, ${k('app.interrupt')} or ${k('editor.deleteOrQuit')} quits`,
    ],
    [answers, "at a tool's question: yes, no, always this tool, a rule for this workspace, with the network"],
    [`${k('session.rewind')} ${k('session.rewind')}`, 'go back to an earlier input (rewind), files included'],
    [k('composer.externalEditor'), 'edit the input in your $EDITOR'],
    [k('transcript.toggleFold'), 'show the newest folded output or thought whole'],
    ['mouse', "drag to select and copy; double-click a word, triple-click a line; Shift+drag: the terminal's own"],
    [k('transcript.copyMode'), 'copy mode: select and copy from the keyboard'],
    [k('transcript.find'), 'search the transcript (n and N step, Esc goes back)'],
    [k('app.cycleMode'), 'the next approval mode: ask, auto-edit, plan, full-auto'],
  ];
  const width = maxOf(
    rows.map(([key]) => key.length),
    0,
  );
  return [
    'first:',
    ...rows.map(([key, what]) => `  ${key.padEnd(width)}  ${what}`),
    'the status bar: ↑ tokens the last turn sent, ↓ it received, Σ the conversation so far; ctx N%: the share of the ' +
      `model's context window in use (compacted past ${Math.round(COMPACT_AT * 100)}%)`,
  ];
}

/** One line per slash command, for /help. */
export function slashHelpLines(keys: KeyNames): string[] {
  const rows = SLASH_COMMANDS.map(
    (c) => [`/${c.name}${c.args ? ' ' + c.args : ''}`, withKeys(c.description, keys, 'idle')] as const,
  );
  const width = maxOf(
    rows.map(([k]) => k.length),
    0,
  );
  return rows.map(([k, d]) => `${k.padEnd(width)}  ${d}`);
}

/** The slash commands as a Markdown table, for docs/commands.md. */
export function slashTableMarkdown(keys: KeyNames): string {
  const lines = ['| command | what it does |', '| --- | --- |'];
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  for (const c of SLASH_COMMANDS)
    lines.push(
      `| \`${cell(`/${c.name}${c.args ? ' ' + c.args : ''}`)}\` | ${cell(withKeys(c.description, keys, 'idle'))} |`,
    );
  return lines.join('\n');
}

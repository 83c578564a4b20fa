// The slash commands typed into the composer, as data: name, arguments,
// description and handler; /help, Tab completion and the README's command table
// read them from here. Nothing here draws, reads a file or holds state: a
// handler acts only through the context it is handed.

import { EFFORTS, isEffort } from '../settings/effort';
import { APPROVAL_MEANING, isApprovalMode } from '../settings/approval';
import { PERMISSIONS_ARGS, permissionsCommand } from './slash-permissions';
import { maxOf } from '../kernel/arrays';
import { COMPACT_AT } from '../turn/compact';
import { isThemeChoice } from '../settings/theme';
import { KeyNames, withKeys } from '../kernel/commands';
import type { SlashContext } from './slash-context';

export type { SlashContext };

/** What a command that needs an idle conversation says while a turn runs. */
export function turnRunning(keys: KeyNames): string {
  return `a turn is running: wait for it or interrupt it (${keys.key('busy', 'app.interrupt')}) first`;
}

export interface SlashCommand {
  /** Without the slash. */
  readonly name: string;
  /** How its arguments are written, for help; empty when it takes none. */
  readonly args: string;
  readonly description: string;
  /** Runs it; returns a usage line when the arguments are wrong. */
  readonly run: (ctx: SlashContext, args: readonly string[]) => string | void;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: 'help',
    args: '',
    description: 'What to know first, then every key of the current mode and every command',
    run(ctx, args) {
      if (args.length > 0) return usage('help');
      const prompts = ctx.screen.promptHelp();
      ctx.note(
        [
          ...essentialsHelp(ctx.keys),
          '',
          'every key:',
          ...ctx.screen.keyHelp(),
          '',
          'commands:',
          ...slashHelpLines(ctx.keys),
          ...(prompts.length ? ['', 'prompt commands:', ...prompts] : []),
        ].join('\n'),
      );
    },
  },
  {
    name: 'force',
    args: '',
    description: 'Turn full-auto on or off (tool calls run without asking), as {app.toggleForce}',
    run(ctx, args) {
      if (args.length > 0) return usage('force');
      ctx.run('app.toggleForce');
    },
  },
  {
    name: 'approval',
    args: '[MODE]',
    description:
      'Show the approval mode, or set it: read-only, ask, plan, auto-edit, full-auto ({app.cycleMode} steps through)',
    run(ctx, args) {
      if (args.length > 1) return usage('approval');
      const s = ctx.settings;
      if (args.length === 0) return ctx.note(`approval: ${s.mode} · ${APPROVAL_MEANING[s.mode]}`);
      const mode = args[0];
      if (!isApprovalMode(mode))
        return ctx.note(`no approval mode ${JSON.stringify(mode)}: read-only, ask, plan, auto-edit or full-auto`);
      s.setMode(mode);
      ctx.note(`approval: ${s.mode} · ${APPROVAL_MEANING[s.mode]}`);
    },
  },
  {
    name: 'theme',
    args: '[auto|dark|light]',
    description:
      'Show the palette, or draw for a dark or light background (auto: as the terminal says); for this session',
    run(ctx, args) {
      if (args.length > 1) return usage('theme');
      const s = ctx.settings;
      const say = (): void =>
        ctx.note(
          `theme: ${s.theme} · drawing for a ${s.palette} background · the terminal's: ${s.background ?? 'not known'}`,
        );
      if (args.length === 0) return say();
      if (!isThemeChoice(args[0])) return ctx.note(`no theme ${JSON.stringify(args[0])}: auto, dark or light`);
      s.setTheme(args[0]);
      say();
    },
  },
  {
    name: 'new',
    args: '',
    description: 'Start a new conversation (the model forgets this one; the log keeps it)',
    run(ctx, args) {
      if (args.length > 0) return usage('new');
      if (ctx.session.busy()) return turnRunning(ctx.keys);
      ctx.session.startNew();
    },
  },
  {
    name: 'resume',
    args: '',
    description: "Pick one of this session's conversations to continue",
    run(ctx, args) {
      if (args.length > 0) return usage('resume');
      if (ctx.session.busy()) return turnRunning(ctx.keys);
      if (!ctx.session.openPicker()) ctx.note('no earlier conversations in this session');
    },
  },
  {
    name: 'add-dir',
    args: 'DIR',
    description:
      'Let the file tools and @ read and edit in DIR too, and commands write there in the sandbox (this session; ' +
      'shown in /status and told to the model)',
    run(ctx, args) {
      if (args.length === 0) return usage('add-dir');
      ctx.note(ctx.session.addDir(args.join(' ')));
    },
  },
  {
    name: 'export',
    args: '[FILE]',
    description:
      'Write the conversation to FILE (default: milk-ID.md in the workspace) as Markdown, or as JSON when it ends in ' +
      '.json: inputs, answers, tool calls and their output, secrets masked as in the log',
    run(ctx, args) {
      ctx.note(ctx.session.exportTo(args.length ? args.join(' ') : undefined));
    },
  },
  {
    name: 'fork',
    args: '',
    description: 'Go on in a new conversation from here; this one stays as it was (as milk --resume ID --fork)',
    run(ctx, args) {
      if (args.length > 0) return usage('fork');
      if (ctx.session.busy()) return turnRunning(ctx.keys);
      ctx.note(ctx.session.fork());
    },
  },
  {
    name: 'session',
    args: '',
    description: 'Show the session: id, workspace, its files, provider and model',
    run(ctx, args) {
      if (args.length > 0) return usage('session');
      ctx.note(ctx.session.info().join('\n'));
    },
  },
  {
    name: 'context',
    args: '',
    description: 'Show what the model is sent: the system prompt by part, and the AGENTS.md files loaded',
    run(ctx, args) {
      if (args.length > 0) return usage('context');
      ctx.note(ctx.session.context().join('\n'));
    },
  },
  {
    name: 'agents',
    args: '',
    description:
      "List the subagents the model can hand a task to: milk's explore, and those in the data dir's agents/ and the " +
      "workspace's .milk/agents/ (front matter: name, description, tools, model; the body is the prompt)",
    run(ctx, args) {
      if (args.length > 0) return usage('agents');
      ctx.note(ctx.session.agents().join('\n'));
    },
  },
  {
    name: 'hooks',
    args: '',
    description:
      'List the hooks config.json sets ("hooks": before_tool, after_tool, user_prompt, turn_end, notification, ' +
      'session_start): the command, what it matches, its timeout',
    run(ctx, args) {
      if (args.length > 0) return usage('hooks');
      ctx.note(ctx.session.hooks().join('\n'));
    },
  },
  {
    name: 'init',
    args: '',
    description: 'Ask the model to write an AGENTS.md for this workspace (the write asks as any does)',
    run(ctx, args) {
      if (args.length > 0) return usage('init');
      if (!ctx.session.ask(INIT_PROMPT, '/init')) ctx.note('a turn is running: /init once it ends');
    },
  },
  {
    name: 'clear',
    args: '',
    description: 'Start a new conversation on a clear screen, as /new ({app.redraw} only redraws the screen)',
    run(ctx, args) {
      if (args.length > 0) return usage('clear');
      if (ctx.session.busy()) return turnRunning(ctx.keys);
      ctx.session.startNew();
    },
  },
  {
    name: 'status',
    args: '',
    description:
      "Show where things stand: the conversation, the model, the approval mode, the context's use, what it cost",
    run(ctx, args) {
      if (args.length > 0) return usage('status');
      ctx.note(ctx.session.status().join('\n'));
    },
  },
  {
    name: 'provider',
    args: '',
    description: 'Connect a model step by step: the server, its URL, the model, its key (kept in config.json)',
    run(ctx, args) {
      if (args.length > 0) return usage('provider');
      if (!ctx.session.setupProvider()) return turnRunning(ctx.keys);
    },
  },
  {
    name: 'doctor',
    args: '',
    description: 'What milk found here (sandbox, ripgrep, git, clipboard, the terminal, config, provider) and each fix',
    run(ctx, args) {
      if (args.length > 0) return usage('doctor');
      ctx.session.doctor();
    },
  },
  {
    name: 'cost',
    args: '',
    description: 'Show what the last turn, the conversation and the session cost: tokens (cached ones too) and money',
    run(ctx, args) {
      if (args.length > 0) return usage('cost');
      ctx.note(ctx.session.cost().join('\n'));
    },
  },
  {
    name: 'model',
    args: '[NAME]',
    description:
      "Pick the model from the server's list (typing filters it), or switch to NAME; for the next turns, and kept " +
      'with the conversation',
    run(ctx, args) {
      if (args.length > 1) return usage('model');
      const now = ctx.settings.model;
      if (args.length === 0) {
        const wrong = ctx.session.pickModel();
        if (wrong) ctx.note(wrong);
        return;
      }
      if (!ctx.settings.setModel(args[0])) return 'this provider has no models to switch';
      ctx.note(`model: ${args[0]} (was ${now}); the next turn asks it`);
    },
  },
  {
    name: 'effort',
    args: '[minimal|low|medium|high|default]',
    description:
      "Show the reasoning effort asked, or set it for the next turns (default: the model's own, or config.json's)",
    run(ctx, args) {
      if (args.length > 1) return usage('effort');
      const say = (): void => {
        const e = ctx.session.effort();
        const whose = ctx.settings.effort ? '' : e ? ' (config.json, for this model)' : '';
        ctx.note(e ? `effort: ${e}${whose}` : "effort: the model's own (none asked)");
      };
      if (args.length === 0) return say();
      const word = args[0];
      if (word === 'default') ctx.settings.setEffort(null);
      else if (isEffort(word)) ctx.settings.setEffort(word);
      else return ctx.note(`no effort ${JSON.stringify(word).slice(0, 40)}: ${EFFORTS.join(', ')} or default`);
      say();
    },
  },
  {
    name: 'copy',
    args: '',
    description: 'Copy the last answer as Markdown: to the clipboard (OSC 52) and to a file under the data dir',
    run(ctx, args) {
      if (args.length > 0) return usage('copy');
      ctx.note(ctx.screen.copyLastAnswer());
    },
  },
  {
    name: 'todo',
    args: '',
    description: "Fold the model's checklist (above the input) to its count, or show it whole again",
    run(ctx, args) {
      if (args.length > 0) return usage('todo');
      ctx.note(ctx.screen.toggleChecklist());
    },
  },
  {
    name: 'quit',
    args: '',
    description: 'Quit milk (history and the conversation log are saved)',
    run(ctx, args) {
      if (args.length > 0) return usage('quit');
      ctx.quit();
    },
  },
  {
    name: 'exit',
    args: '',
    description: 'Quit milk, as /quit',
    run(ctx, args) {
      if (args.length > 0) return usage('exit');
      ctx.quit();
    },
  },
  {
    name: 'always',
    args: '[clear]',
    description:
      'List the tools that run without asking this session ({approval.always} at a question); clear asks again for all',
    run(ctx, args) {
      if (args.length > 1 || (args[0] !== undefined && args[0] !== 'clear')) return usage('always');
      const tools = ctx.settings.alwaysTools();
      if (args[0] === 'clear') {
        ctx.settings.clearAlways();
        ctx.note(
          tools.length ? `every tool call asks again (was always: ${tools.join(', ')})` : 'no tool was on always',
        );
        return;
      }
      ctx.note(
        tools.length
          ? `always, without asking: ${tools.join(', ')} (/always clear to ask again)`
          : 'every tool call asks first',
      );
    },
  },
  {
    name: 'mcp',
    args: '[restart NAME]',
    description:
      "List the MCP servers: each one's state (starting, ready, failed and why, stopped) and tools; restart NAME " +
      'starts one again',
    run(ctx, args) {
      if (args.length === 0) return ctx.note(ctx.mcp.lines().join('\n'));
      if (args.length !== 2 || args[0] !== 'restart') return usage('mcp');
      ctx.note(
        ctx.mcp.restart(args[1])
          ? `restarting the MCP server ${args[1]}`
          : `no MCP server named ${args[1]} (/mcp lists them)`,
      );
    },
  },
  {
    name: 'steer',
    args: 'TEXT',
    description:
      'Send TEXT into the running turn (as {composer.steer}): the model gets it after the tool call in progress, ' +
      'before its next request; when idle, it is sent as any input is',
    run(ctx, args) {
      if (args.length === 0) return usage('steer');
      ctx.session.steer(args.join(' '));
    },
  },
  {
    name: 'memory',
    args: '',
    description:
      "Open the instructions the model reads every turn (this workspace's AGENTS.md and your own) in your editor; " +
      'an input starting with "# " adds a line to one of them',
    run(ctx, args) {
      if (args.length > 0) return usage('memory');
      ctx.memory.edit();
    },
  },
  {
    name: 'shells',
    args: '[kill ID]',
    description:
      'List the commands the model started in the background (id, how long each has run, the command, its last ' +
      'line); kill ID ends one',
    run(ctx, args) {
      if (args.length === 0) return ctx.note(ctx.shells.lines().join('\n'));
      const id = Number(args[1]);
      if (args.length !== 2 || args[0] !== 'kill' || !Number.isInteger(id) || id < 1) return usage('shells');
      ctx.note(ctx.shells.kill(id));
    },
  },
  {
    name: 'secrets',
    args: '[allow N]',
    description:
      'List the secrets masked before anything was sent to the model (their kinds and placeholders, never the ' +
      'values); allow N lets that one through from the next request',
    run(ctx, args) {
      if (args.length === 0) return ctx.note(ctx.secrets.lines().join('\n'));
      if (args.length !== 2 || args[0] !== 'allow') return usage('secrets');
      ctx.note(ctx.secrets.allow(args[1]));
    },
  },
  {
    name: 'rewind',
    args: '',
    description:
      'Go back to before an earlier input of this conversation (as {session.rewind} {session.rewind}): it returns ' +
      'to the input box, later turns leave the context, and the files changed since can be put back',
    run(ctx, args) {
      if (args.length > 0) return usage('rewind');
      const problem = ctx.session.rewind();
      if (problem) return ctx.note(problem);
    },
  },
  {
    name: 'undo',
    args: '',
    description:
      "Undo the last turn's changes to the workspace's files (what commands changed too), after showing which; the " +
      'conversation stays',
    run(ctx, args) {
      if (args.length > 0) return usage('undo');
      ctx.session.undo();
    },
  },
  {
    name: 'search',
    args: 'QUERY',
    description:
      "Find QUERY in every conversation's inputs, answers and tool output (all workspaces, newest first); " +
      "{picker.choose} opens one of this workspace's at the match ({history.searchReverse} searches what you typed)",
    run(ctx, args) {
      if (args.length === 0) return usage('search');
      ctx.session.search(args.join(' '));
    },
  },
  {
    name: 'diff',
    args: '[N]',
    description: 'Everything changed in the workspace since the conversation began (or since input N), as a diff',
    run(ctx, args) {
      if (args.length > 1 || (args.length === 1 && !/^[1-9]\d*$/.test(args[0]))) return usage('diff');
      ctx.session.diff(args.length ? Number(args[0]) : null);
    },
  },
  {
    name: 'compact',
    args: '[FOCUS]',
    description:
      'Replace the conversation, in what the model gets, by its summary of it (FOCUS: what to keep above all); the ' +
      'log keeps everything',
    run(ctx, args) {
      const problem = ctx.session.compact(args.join(' ').trim() || undefined);
      if (problem) return ctx.note(problem);
    },
  },
  {
    name: 'permissions',
    args: PERMISSIONS_ARGS,
    description:
      'List the approval rules of this workspace ({approval.rule} at a question) and its deny rules (which win over ' +
      'every mode), add one, or remove one; kept in the data dir',
    run: permissionsCommand,
  },
  {
    name: 'history',
    args: '[global|session]',
    description: 'Show the history mode and counts; with an argument, switch what Up/Down and search walk',
    run(ctx, args) {
      const [mode, ...rest] = args;
      if (rest.length > 0 || (mode !== undefined && mode !== 'global' && mode !== 'session')) return usage('history');
      if (mode) ctx.history.switchTo(mode);
      const c = ctx.history.counts();
      const now = ctx.settings.historyMode;
      ctx.note(
        `history: ${now} (${ctx.keys.key('idle', 'editor.up')}/${ctx.keys.key('idle', 'editor.down')} walk the ` +
          `${now} history) · session ${c.session} entries · global ${c.global} entries`,
      );
    },
  },
];

/** What /init asks of the model. */
export const INIT_PROMPT = [
  'Write an AGENTS.md at the root of this workspace for agents (and people) who will work in it.',
  'First look around: the README, the build and package files, the folder layout, the tests and how they are run, ' +
    'any style or lint configuration.',
  'Then write, briefly and only what is true of this project: what it is; how to build, run and test it (the exact ' +
    'commands);',
  'how the code is laid out; the conventions to follow; and what to be careful with.',
  'If an AGENTS.md is there already, improve it rather than starting over. Write it with write_file (or edit_file ' +
    'for an existing one).',
].join(' ');

function usage(name: string): string {
  const cmd = findSlash(name);
  return `usage: /${name}${cmd?.args ? ' ' + cmd.args : ''}`;
}

export function findSlash(name: string): SlashCommand | undefined {
  return SLASH_COMMANDS.find((c) => c.name === name);
}

/**
 * `/name args…` when the text is one (`rest`: the arguments as typed); null for ordinary input. A name may hold a colon
 * (`/github:review-pr`, an MCP prompt).
 */
export function parseSlash(text: string): { name: string; args: string[]; rest: string } | null {
  const m = /^\/([A-Za-z][\w:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
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

/** The slash commands as a Markdown table, for the README. */
export function slashTableMarkdown(keys: KeyNames): string {
  const lines = ['| command | what it does |', '| --- | --- |'];
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  for (const c of SLASH_COMMANDS)
    lines.push(
      `| \`${cell(`/${c.name}${c.args ? ' ' + c.args : ''}`)}\` | ${cell(withKeys(c.description, keys, 'idle'))} |`,
    );
  return lines.join('\n');
}

// `milk history …` and `milk sessions …`: the commands that manage a data
// dir from the shell. Errors they expect print one line and exit 1; a bad
// flag or id is a usage error (exit 2) like any other.

import type { Command } from 'commander';
import { MainOptions, UsageError, locate, parsePositive, parseSession, requireDataDir } from './cli-support';
import { homedir } from 'node:os';

/** The periods milk stats and /stats take (session/stats.ts' PERIOD_WORDS, which loads with them). */
const PERIOD_HELP = 'today, week, month, year, all, Nd, YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD';
import type { Target } from '../history/commands';

// Loaded only when a shell command runs: starting milk itself never pays for them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const historyCommands = (): typeof import('../history/commands') => require('../history/commands');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sessionCommands = (): typeof import('../session/commands') => require('../session/commands');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mcpCommands = (): typeof import('../config/mcp-commands') => require('../config/mcp-commands');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const logPurge = (): typeof import('../session/purge') => require('../session/purge');

/** Runs a command, turning the errors it expects into one line on stderr and exit code 1. */
function expected(kind: () => new (...args: never[]) => Error) {
  return async (fn: () => unknown): Promise<void> => {
    try {
      await fn();
    } catch (err) {
      if (!(err instanceof kind())) throw err;
      process.stderr.write(`milk: ${err.message}\n`);
      process.exitCode = 1;
    }
  };
}

export function addShellCommands(program: Command): void {
  addHistoryCommands(program);
  addSessionCommands(program);
  addMcpCommands(program);
  addStatsCommand(program);
}

/** milk stats [PERIOD] [--json]. */
function addStatsCommand(program: Command): void {
  program
    .command('stats')
    .description("tokens, cost and turns by day, model and workspace, from every workspace's conversation logs")
    .argument('[period]', `${PERIOD_HELP} (default: month)`)
    .option('--json', 'the table as one JSON object')
    .action((word: string | undefined, o: { json?: boolean }, cmd: Command) => {
      const { dataDir } = locate(cmd.optsWithGlobals() as MainOptions);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { config } = (require('../config/config') as typeof import('../config/config')).loadConfig(dataDir);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const stats = require('./stats') as typeof import('./stats');
      const got = stats.statsFor(requireDataDir(dataDir), config, word);
      if ('error' in got) throw new UsageError(got.error);
      const { table, read } = got;
      process.stdout.write(
        o.json
          ? JSON.stringify({ ...table, logs: read.logs, unreadable: read.unreadable }) + '\n'
          : stats.statsText(table, read.unreadable, homedir()).join('\n') + '\n',
      );
    });
}

/** milk mcp list | add | remove. */
function addMcpCommands(program: Command): void {
  const mcp = program.command('mcp').description("list, add and remove the MCP servers in the data dir's config.json");
  const dataDirOf = (cmd: Command): string => requireDataDir(locate(cmd.optsWithGlobals() as MainOptions).dataDir);
  const guard = expected(() => mcpCommands().McpCommandError);
  const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
  mcp
    .command('list', { isDefault: true })
    .description('one line per server: its name and how it is reached (env and headers by name only)')
    .action((_o: unknown, cmd: Command) => guard(() => mcpCommands().mcpList(dataDirOf(cmd), process.stdout)));
  mcp
    .command('add')
    .description(
      'add a stdio server (milk mcp add NAME -- COMMAND ARGS…) or an HTTP one (--url); the file is written atomically',
    )
    .argument('<name>', "the server's name, which prefixes its tools (name__tool)")
    .argument('[command...]', 'the command and its arguments, after --')
    .option('--url <url>', 'a streamable HTTP server instead of a command')
    .option('--env <KEY=VALUE>', 'an environment variable for the command (repeatable)', collect)
    .option('--header <"Name: value">', 'a header for the HTTP server (repeatable)', collect)
    .option('--cwd <dir>', 'where the command runs (default: your home folder, never the workspace unasked)')
    .action(
      (
        name: string,
        command: string[],
        o: { url?: string; env?: string[]; header?: string[]; cwd?: string },
        cmd: Command,
      ) => guard(() => mcpCommands().mcpAdd(dataDirOf(cmd), name, command, o, process.stdout)),
    );
  mcp
    .command('remove')
    .description('remove a server')
    .argument('<name>', "the server's name")
    .action((name: string, _o: unknown, cmd: Command) =>
      guard(() => mcpCommands().mcpRemove(dataDirOf(cmd), name, process.stdout)),
    );
}

/** milk history list | path | clear | delete. */
function addHistoryCommands(program: Command): void {
  const history = program.command('history').description('read and manage input history from the shell');
  const guard = expected(() => historyCommands().HistoryCommandError);
  history
    .command('list', { isDefault: true })
    .description('print history entries, oldest first')
    .option('--global', 'the global history instead of the session one')
    .option('--session <name>', 'another session', parseSession)
    .option('--json', 'one JSON object per line')
    .action((o: { json?: boolean }, cmd: Command) =>
      guard(() => {
        // A session named with --session that has no history is a mistake (a typo); this directory's, not yet used, is
        // not.
        const named = (cmd.optsWithGlobals() as MainOptions).session !== undefined;
        historyCommands().historyList(
          historyTarget(cmd),
          { json: !!o.json, missing: named ? 'error' : 'empty' },
          process.stdout,
        );
      }),
    );
  history
    .command('path')
    .description('print the session and global history file paths')
    .option('--session <name>', 'another session', parseSession)
    .action((_o: unknown, cmd: Command) => {
      const t = historyTarget(cmd);
      historyCommands().historyPath(t.dataDir, t.sessionId, process.stdout);
    });
  history
    .command('clear')
    .description('empty a history file (asks first)')
    .option('--global', 'the global history instead of the session one')
    .option('--session <name>', 'another session', parseSession)
    .option('-y, --yes', 'do not ask')
    .action((o: { yes?: boolean }, cmd: Command) =>
      guard(async () => {
        const ok = await historyCommands().historyClear(historyTarget(cmd), { yes: !!o.yes }, process.stdout);
        if (!ok) process.exitCode = 1;
      }),
    );
  addHistoryDelete(history, guard);
}

/** The history file a subcommand's options name (the session's, or the global one with --global). */
function historyTarget(cmd: Command): Target {
  const all = cmd.optsWithGlobals() as MainOptions & { global?: boolean };
  const { dataDir, sessionId } = locate(all);
  return { dataDir: requireDataDir(dataDir), sessionId, scope: all.global ? 'global' : 'session' };
}

/** milk history delete --match TEXT: from the history files and the conversation logs. */
function addHistoryDelete(history: Command, guard: ReturnType<typeof expected>): void {
  history
    .command('delete')
    .description('delete every entry containing TEXT from the session and global history (lists them and asks first)')
    .requiredOption('--match <text>', 'the text the entries to delete contain (exact case)')
    .option('--global', 'only the global history')
    .option('--session <name>', 'another session (with the global history)', parseSession)
    .option('-y, --yes', 'do not ask')
    .action((o: { match: string; yes?: boolean; global?: boolean }, cmd: Command) =>
      guard(async () => {
        const t = historyTarget(cmd);
        const files: Target[] = o.global ? [t] : [t, { ...t, scope: 'global' }];
        const ok = await historyCommands().historyDelete(
          files,
          o.match,
          { yes: !!o.yes },
          process.stdout,
          logPurge().logInputs(t.dataDir),
        );
        if (!ok) process.exitCode = 1;
      }),
    );
}

/** milk sessions list | show | rm. */
function addSessionCommands(program: Command): void {
  const sessions = program.command('sessions').description('list, show and remove sessions and their conversations');
  const dataDirOf = (cmd: Command): string => requireDataDir(locate(cmd.optsWithGlobals() as MainOptions).dataDir);
  const sessionGuard = expected(() => sessionCommands().SessionCommandError);
  sessions
    .command('list', { isDefault: true })
    .description('one row per session, newest first: id, last used, conversations, inputs, workspace')
    .option('--json', 'one JSON object per line')
    .action((o: { json?: boolean }, cmd: Command) =>
      sessionCommands().sessionsList(dataDirOf(cmd), { json: !!o.json }, process.stdout),
    );
  sessions
    .command('show')
    .description('print a conversation as plain text (default: the newest)')
    .argument('<id>', 'the session id (milk sessions lists them)')
    .option('--conversation <n>', 'which conversation, 1 being the oldest', parsePositive)
    .option(
      '--list',
      "list the session's conversations instead: number, id (for --resume), start, inputs, name, first line",
    )
    .action((id: string, o: { conversation?: number; list?: boolean }, cmd: Command) =>
      sessionGuard(() => sessionCommands().sessionsShow(dataDirOf(cmd), id, o, process.stdout)),
    );
  sessions
    .command('search')
    .description(
      "find QUERY in every conversation's inputs, answers and tool output (smart case), newest first: date, " +
        'workspace, conversation, a line of context',
    )
    .argument('<query...>', 'the text to find')
    .option('--here', "only this workspace's conversations")
    .option('--json', 'one JSON object per line')
    .action((words: string[], o: { here?: boolean; json?: boolean }, cmd: Command) =>
      sessionGuard(async () => {
        const here = o.here ? locate(cmd.optsWithGlobals() as MainOptions).sessionId : null;
        const q = words.join(' ');
        if (!(await sessionCommands().sessionsSearch(dataDirOf(cmd), q, { here, json: !!o.json }, process.stdout)))
          process.exitCode = 1;
      }),
    );
  sessions
    .command('rm')
    .description("remove a session's conversation log and input history (asks first)")
    .argument('<id>', 'the session id')
    .option('-y, --yes', 'do not ask')
    .action((id: string, o: { yes?: boolean }, cmd: Command) =>
      sessionGuard(async () => {
        if (!(await sessionCommands().sessionsRm(dataDirOf(cmd), id, { yes: !!o.yes }, process.stdout)))
          process.exitCode = 1;
      }),
    );
}

#!/usr/bin/env node
// The command line: flags, validation, exit codes. A bad flag or value is one
// line on stderr and exit code 2, before the terminal is touched.

import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Cleanup, installExitHandlers } from './cleanup';
import { checkSessionName, pickHome, resolveDataDir, sessionIdForWorkspace } from './config/paths';
import { Config, loadConfig } from './config/config';
import { ProviderSetupError, buildProvider } from './agent/build';
import { PROVIDER_NAMES, chooseProvider } from './agent/select';
import { runOnce } from './agent/run-once';
import { HistoryCommandError, Target, historyClear, historyList, historyPath } from './history/commands';
import { SessionCommandError, sessionsList, sessionsRm, sessionsShow } from './session/commands';
import type { Provider } from './agent/provider';

export const EXIT_USAGE = 2;

class UsageError extends Error {}

const NO_HOME = 'no home directory (HOME is empty or relative, and the account has none); set MILK_HOME or --data-dir';

function passwdHome(): string | null {
  try {
    return os.userInfo().homedir;
  } catch {
    return null;
  }
}

/**
 * Where this run's data lives and which session it is: the flags, else the
 * environment and the directory. The data dir is null when there is no home
 * to put it in: never a `.milk` in the workspace.
 */
function locate(opts: MainOptions): { dataDir: string | null; workspace: string; sessionId: string } {
  const workspace = fs.realpathSync(process.cwd());
  return {
    dataDir: resolveDataDir(opts.dataDir, process.env, pickHome(process.env.HOME, passwdHome)),
    workspace,
    sessionId: opts.session ?? sessionIdForWorkspace(workspace),
  };
}

/** The data dir, for commands that cannot do without one. */
function requireDataDir(dataDir: string | null): string {
  if (dataDir === null) throw new UsageError(NO_HOME);
  return dataDir;
}

function version(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return 'unknown';
  }
}

function parseSession(value: string): string {
  const problem = checkSessionName(value);
  if (problem) throw new InvalidArgumentError(problem + '.');
  return value;
}

function parseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new InvalidArgumentError('expected an http:// or https:// URL.');
  }
  return value;
}

function parsePositive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number from 1.');
  return n;
}

function parseNonEmpty(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('must not be empty.');
  return value;
}

interface MainOptions {
  dataDir?: string;
  session?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  script?: string;
  continue?: boolean;
  resume?: string | boolean;
}

function providerFor(opts: MainOptions, config: Config): { provider: Provider; model: string } {
  try {
    const choice = chooseProvider(opts, config, process.env);
    return { provider: buildProvider(choice, process.env), model: choice.model };
  } catch (err) {
    if (err instanceof ProviderSetupError) throw new UsageError(err.message);
    throw err;
  }
}

async function runInteractive(opts: MainOptions): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError('milk needs an interactive terminal (stdin and stdout must be a TTY)');
  }
  const { dataDir, workspace, sessionId } = locate(opts);
  const { config, warnings } = loadConfig(dataDir);
  if (dataDir === null) warnings.push(`${NO_HOME}; history kept in memory only`);
  const { provider, model } = providerFor(opts, config);
  const cleanup = new Cleanup();
  installExitHandlers(cleanup);
  // Node prints its warnings (e.g. TimeoutOverflowWarning) to stderr, over the
  // screen; while the screen is up they go to the status bar instead.
  process.removeAllListeners('warning');
  const early: string[] = [];
  let report = (text: string): void => void early.push(text);
  process.on('warning', (w) => report(`${w.name}: ${w.message}`));
  // The screen and its dependencies load only for the interactive path; --help, run and history stay quick.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startApp } = require('./app') as typeof import('./app');
  const app = startApp({
    input: process.stdin,
    output: process.stdout,
    sessionId,
    provider,
    cleanup,
    dataDir,
    workspace,
    displayName: opts.session ?? (path.basename(workspace) || workspace),
    maxEntries: config.history.maxEntries,
    answer: { maxAnswerChars: config.maxAnswerChars, maxKeptChars: config.maxKeptAnswerChars, maxContextChars: config.context?.maxChars },
    model,
    resume: opts.continue ? { kind: 'continue' } : opts.resume === true ? { kind: 'pick' } : typeof opts.resume === 'string' ? { kind: 'id', id: opts.resume } : null,
    warnings: [...warnings, ...early],
  });
  report = (text) => app.bus.emit('status.warning', { text });
  await app.done;
  cleanup.run();
  return 0;
}

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (d) => (text += d));
    process.stdin.on('end', () => resolve(text));
    process.stdin.on('error', reject);
  });
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('milk')
    .description('A full-screen terminal client for a coding agent.')
    .version(version(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .option('--data-dir <dir>', 'where milk keeps history and sessions (default: $MILK_HOME or ~/.milk)', parseNonEmpty)
    .option('--session <name>', 'use a named session instead of one derived from the directory', parseSession)
    .addOption(new Option('--provider <name>', 'the model provider (default: config, environment, else offline)').choices(PROVIDER_NAMES))
    .option('--model <name>', 'the model to ask', parseNonEmpty)
    .option('--base-url <url>', 'the provider endpoint', parseUrl)
    .option('--script <file>', 'replay a JSON script of deltas, delays and errors (the script provider)', parseNonEmpty)
    .option('-c, --continue', "resume the session's last conversation")
    .option('-r, --resume [id]', 'resume a conversation: pick one, or give its id')
    .exitOverride()
    .configureOutput({
      outputError: (message, write) => write('milk: ' + message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').trim() + '\n'),
    })
    .action(async (opts: MainOptions) => {
      process.exitCode = await runInteractive(opts);
    });

  program
    .command('run')
    .description('one turn without the screen: the answer streams to stdout (the prompt from the arguments or stdin)')
    .argument('[prompt...]', 'the prompt; read from stdin when omitted')
    .action(async (words: string[], _o: unknown, cmd: Command) => {
      const all = cmd.optsWithGlobals() as MainOptions;
      let prompt = words.join(' ');
      if (!prompt) {
        if (process.stdin.isTTY) throw new UsageError('milk run needs a prompt: milk run "PROMPT", or pipe one in');
        prompt = await readStdin();
      }
      if (!prompt.trim()) throw new UsageError('milk run: the prompt is empty');
      const { provider } = providerFor(all, loadConfig(locate(all).dataDir).config);
      process.exitCode = await runOnce(provider, prompt, { out: process.stdout, err: process.stderr });
    });

  const history = program.command('history').description('read and manage input history from the shell');
  const target = (cmd: Command): Target => {
    const all = cmd.optsWithGlobals() as MainOptions & { global?: boolean };
    const { dataDir, sessionId } = locate(all);
    return { dataDir: requireDataDir(dataDir), sessionId, scope: all.global ? 'global' : 'session' };
  };
  const guard = async (fn: () => unknown): Promise<void> => {
    try {
      await fn();
    } catch (err) {
      if (err instanceof HistoryCommandError) {
        process.stderr.write(`milk: ${err.message}\n`);
        process.exitCode = 1;
        return;
      }
      throw err;
    }
  };
  history
    .command('list', { isDefault: true })
    .description('print history entries, oldest first')
    .option('--global', 'the global history instead of the session one')
    .option('--session <name>', 'another session', parseSession)
    .option('--json', 'one JSON object per line')
    .action((o: { json?: boolean }, cmd: Command) => guard(() => historyList(target(cmd), { json: !!o.json }, process.stdout)));
  history
    .command('path')
    .description('print the session and global history file paths')
    .option('--session <name>', 'another session', parseSession)
    .action((_o: unknown, cmd: Command) => {
      const t = target(cmd);
      historyPath(t.dataDir, t.sessionId, process.stdout);
    });
  history
    .command('clear')
    .description('empty a history file (asks first)')
    .option('--global', 'the global history instead of the session one')
    .option('--session <name>', 'another session', parseSession)
    .option('-y, --yes', 'do not ask')
    .action((o: { yes?: boolean }, cmd: Command) =>
      guard(async () => {
        const ok = await historyClear(target(cmd), { yes: !!o.yes }, process.stdout);
        if (!ok) process.exitCode = 1;
      }));
  const sessions = program.command('sessions').description('list, show and remove sessions and their conversations');
  const dataDirOf = (cmd: Command): string => requireDataDir(locate(cmd.optsWithGlobals() as MainOptions).dataDir);
  const sessionGuard = async (fn: () => unknown): Promise<void> => {
    try {
      await fn();
    } catch (err) {
      if (err instanceof SessionCommandError) {
        process.stderr.write(`milk: ${err.message}\n`);
        process.exitCode = 1;
        return;
      }
      throw err;
    }
  };
  sessions
    .command('list', { isDefault: true })
    .description('one row per session, newest first: id, last used, conversations, inputs, workspace')
    .option('--json', 'one JSON object per line')
    .action((o: { json?: boolean }, cmd: Command) => sessionsList(dataDirOf(cmd), { json: !!o.json }, process.stdout));
  sessions
    .command('show')
    .description('print a conversation as plain text (default: the newest)')
    .argument('<id>', 'the session id (milk sessions lists them)')
    .option('--conversation <n>', 'which conversation, 1 being the oldest', parsePositive)
    .action((id: string, o: { conversation?: number }, cmd: Command) => sessionGuard(() => sessionsShow(dataDirOf(cmd), id, o, process.stdout)));
  sessions
    .command('rm')
    .description("remove a session's conversation log and input history (asks first)")
    .argument('<id>', 'the session id')
    .option('-y, --yes', 'do not ask')
    .action((id: string, o: { yes?: boolean }, cmd: Command) =>
      sessionGuard(async () => {
        if (!(await sessionsRm(dataDirOf(cmd), id, { yes: !!o.yes }, process.stdout))) process.exitCode = 1;
      }));
  for (const cmd of [history, ...history.commands, sessions, ...sessions.commands, ...program.commands.filter((c) => c.name() === 'run')]) {
    cmd.exitOverride().configureOutput(program.configureOutput());
  }
  return program;
}

export async function main(argv: string[]): Promise<number> {
  // `milk history list | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      return EXIT_USAGE;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`milk: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

if (require.main === module) {
  main(process.argv).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`milk: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

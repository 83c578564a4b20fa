// The command line: flags, validation, exit codes. A bad flag or value is one
// line on stderr and exit code 2, before the terminal is touched.

import { Command, CommanderError, Option } from 'commander';
import * as path from 'node:path';
import { Cleanup, installExitHandlers } from './cleanup';
import { MainOptions, NO_HOME, UsageError, locate, parseNonEmpty, parseSession, parseUrl, version } from './cli-support';
import { Config, contextWindowFor, loadConfig } from './config/config';
import { ProviderSetupError, buildProvider } from './providers/build';
import { PROVIDER_NAMES, chooseProvider } from './providers/select';
import { addShellCommands } from './subcommands';
import type { Provider } from './providers/provider';
import { APPROVAL_MODES } from './settings/approval';
import { sanitize } from './inert';

export const EXIT_USAGE = 2;

function providerFor(opts: MainOptions, config: Config): { provider: Provider } {
  try {
    const choice = chooseProvider(opts, config, process.env);
    return { provider: buildProvider(choice, process.env) };
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
  const { provider } = providerFor(opts, config);
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
    contextWindow: (model: string | null) => contextWindowFor(config, model),
    approval: opts.approval,
    sandbox: opts.sandbox ?? config.sandbox ?? 'on',
    resume: opts.continue ? { kind: 'continue' } : opts.resume === true ? { kind: 'pick' } : typeof opts.resume === 'string' ? { kind: 'id', id: opts.resume } : null,
    warnings: [...warnings, ...early],
    mcpServers: config.mcpServers,
    theme: config.theme,
    hyperlinks: config.hyperlinks,
    keys: config.keys,
  });
  report = (text) => app.bus.emit('status.warning', { text: sanitize(text) });
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
    .addOption(new Option('--approval <mode>', 'what tool calls may do unasked: read-only, ask (default), auto-edit or full-auto').choices([...APPROVAL_MODES]))
    .addOption(new Option('--sandbox <on|off>', 'run commands in bubblewrap: the workspace writable, the rest read-only, no network unless allowed (default: on)').choices(['on', 'off']))
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
    .option('--json', 'one JSON object per line for each event: text, tool_call, tool_result, usage, end')
    .action(async (words: string[], o: { json?: boolean }, cmd: Command) => {
      const all = cmd.optsWithGlobals() as MainOptions;
      let prompt = words.join(' ');
      if (!prompt) {
        if (process.stdin.isTTY) throw new UsageError('milk run needs a prompt: milk run "PROMPT", or pipe one in');
        // A pipe ends its text with a newline (echo, a heredoc) that is no part of the prompt.
        prompt = (await readStdin()).replace(/\r?\n$/, '');
      }
      if (!prompt.trim()) throw new UsageError('milk run: the prompt is empty');
      const { dataDir, workspace, sessionId } = locate(all);
      const { config, warnings } = loadConfig(dataDir);
      for (const w of warnings) process.stderr.write(`milk: ${w}\n`);
      const { provider } = providerFor(all, config);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { runCommand } = require('./run-command') as typeof import('./run-command');
      process.exitCode = await runCommand(prompt, { provider, config, dataDir, workspace, sessionId, opts: all, json: !!o.json, io: { out: process.stdout, err: process.stderr } });
    });

  addShellCommands(program);
  for (const cmd of [...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
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

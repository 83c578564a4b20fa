// The command line: flags, validation, exit codes. A bad flag or value is one
// line on stderr and exit code 2, before the terminal is touched. An argv of
// plain interactive flags is read without commander (app/cli-support.ts's
// quickParse); everything else goes through it.

import type { Command } from 'commander';
import * as path from 'node:path';
import { Cleanup, installExitHandlers } from './kernel/cleanup';
import { parseRule, type Rule } from './settings/rules';
import { sourced } from './config/hooks';
import { PROJECT_SETTINGS, projectLines } from './config/project-settings';
import { judgedSettings } from './config/trust';
import { parseDeny, splitToolSpec, type DenyRule } from './settings/deny';
import {
  MAIN_FLAGS,
  MainOptions,
  NO_HOME,
  UsageError,
  appended,
  checkFork,
  locate,
  quickParse,
  resolveDirs,
  version,
} from './app/cli-support';
import { Config, contextWindowFor, loadConfig } from './config/config';
import { ProviderSetupError, buildProvider } from './providers/build';
import { PROVIDER_NAMES, ProviderChoice, ProviderName, chooseProvider, keyVariable } from './providers/select';
import { ProviderSwitch, choiceForResume } from './providers/resume';
import type { Provider } from './providers/provider';
import { sanitize } from './protocol/inert';
import { OUTPUT_FORMATS, type OutputFormat } from './turn/run-once';

export const EXIT_USAGE = 2;

function providerFor(
  opts: MainOptions,
  config: Config,
): { provider: Provider; switchProvider: ProviderSwitch; choice: ProviderChoice } {
  let choice: ProviderChoice;
  let provider: Provider;
  try {
    choice = chooseProvider(opts, config, process.env);
    provider = buildProvider(choice, process.env);
  } catch (err) {
    if (err instanceof ProviderSetupError) throw new UsageError(err.message);
    throw err;
  }
  // A resumed conversation goes on with the provider, server and model its log names, unless the flags name one.
  const switchProvider: ProviderSwitch = (recorded) => {
    const to = choiceForResume(recorded, choice, opts, config, process.env);
    return { provider: to.choice ? buildProvider(to.choice, process.env) : null, note: to.note };
  };
  return { provider, switchProvider, choice };
}

/** What the flags and config.json say of the agent: its steps, prompt, effort, mode, sandbox, servers, hooks, dirs. */
function agentChoices(opts: MainOptions, config: Config, workspace: string, dataDir: string | null) {
  return {
    maxSteps: config.maxSteps,
    appendSystemPrompt: appended(config.appendSystemPrompt, opts.appendSystemPrompt),
    effort: opts.effort,
    approval: opts.approval,
    sandbox: opts.sandbox ?? config.sandbox ?? 'on',
    mcpServers: config.mcpServers,
    hooks: sourced({ hooks: config.hooks, source: 'config.json' }),
    addDirs: resolveDirs(opts.addDir, workspace),
    workspaceSettings: judgedSettings(workspace, dataDir),
  };
}

/** Which conversation the flags bring back: the last, a picker, one by id, or none. */
function resumeOf(opts: MainOptions): import('./app/screen').AppOptions['resume'] {
  const fork = opts.fork === true;
  if (opts.continue) return { kind: 'continue', fork };
  if (opts.resume === true) return { kind: 'pick', fork };
  return typeof opts.resume === 'string' ? { kind: 'id', id: opts.resume, fork } : null;
}

/** /provider's last step: the provider its answers describe (a key typed there wins over the environment's). */
function connectorFor(config: Config) {
  return (answers: import('./composer/views/provider-setup').SetupAnswers): Provider => {
    const own = { ...config, provider: answers.provider, apiKey: answers.apiKey || undefined };
    const flags = { provider: answers.provider, model: answers.model, baseUrl: answers.baseUrl };
    const chosen = chooseProvider(flags, own, process.env);
    return buildProvider({ ...chosen, apiKey: answers.apiKey || chosen.apiKey }, process.env);
  };
}

async function runInteractive(opts: MainOptions): Promise<number> {
  checkFork(opts);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError('milk needs an interactive terminal (stdin and stdout must be a TTY)');
  }
  const { dataDir, workspace, sessionId } = locate(opts);
  const { config, warnings } = loadConfig(dataDir);
  if (dataDir === null) warnings.push(`${NO_HOME}; history kept in memory only`);
  const { provider, switchProvider, choice } = providerFor(opts, config);
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
  const { startApp } = require('./app/screen') as typeof import('./app/screen');
  const app = startApp({
    input: process.stdin,
    output: process.stdout,
    sessionId,
    provider,
    switchProvider,
    providerOrigin: choice.from,
    doctor: doctorFor(dataDir, warnings),
    connectProvider: connectorFor(config),
    keyVariable: keyVariable(choice.name),
    cleanup,
    dataDir,
    workspace,
    displayName: opts.session ?? (path.basename(workspace) || workspace),
    maxEntries: config.history.maxEntries,
    answer: {
      maxAnswerChars: config.maxAnswerChars,
      maxKeptChars: config.maxKeptAnswerChars,
      maxContextChars: config.context?.maxChars,
    },
    contextWindow: (model: string | null) => contextWindowFor(config, model),
    modelSettings: (model: string) => config.models?.[model],
    ...agentChoices(opts, config, workspace, dataDir),
    resume: resumeOf(opts),
    warnings: [...warnings, ...early],
    theme: config.theme,
    hyperlinks: config.hyperlinks,
    notify: config.notify,
    exitTranscript: config.exitTranscript,
    snapshots: config.snapshots,
    maskSecrets: config.maskSecrets,
    keys: config.keys,
  });
  report = (text) => app.bus.emit('status.warning', { text: sanitize(text) });
  await app.done;
  cleanup.run();
  // After the screen is gone, in the terminal's own scrollback: the conversation, then the way back to it.
  const conversation = app.scrollback();
  if (conversation) process.stdout.write(conversation);
  const goodbye = app.farewell();
  if (goodbye) process.stdout.write(`${sanitize(goodbye)}\n`);
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
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Command, Option } = require('commander') as typeof import('commander');
  const { addShellCommands } = require('./app/subcommands') as typeof import('./app/subcommands');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const program = new Command();
  program
    .name('milk')
    .description('A full-screen terminal client for a coding agent.')
    .version(version(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help');
  for (const f of MAIN_FLAGS) {
    const option = new Option(f.flags, f.description);
    if (f.choices) option.choices(f.choices);
    const parse = f.parse;
    if (f.repeats) option.argParser((v: string, had: string[] | undefined) => [...(had ?? []), parse ? parse(v) : v]);
    else if (parse) option.argParser(parse);
    program.addOption(option);
  }
  program
    .exitOverride()
    .configureOutput({
      outputError: (message, write) =>
        write(
          'milk: ' +
            message
              .replace(/^error: /, '')
              .replace(/\s*\n\s*/g, ' ')
              .trim() +
            '\n',
        ),
    })
    .action(async (opts: MainOptions) => {
      process.exitCode = await runInteractive(opts);
    });

  addRunCommand(program, Option);
  addDoctorCommand(program);
  addTrustCommands(program);
  addShellCommands(program);
  for (const cmd of [...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
    cmd.exitOverride().configureOutput(program.configureOutput());
  }
  return program;
}

/**
 * What `milk doctor` and /doctor are given: the config's problems, the provider's settings and key (for its check
 * only), and the sandbox's probe; the terminal's answers and the provider in use come from the caller.
 */
function doctorFor(dataDir: string | null, warnings: readonly string[]) {
  return async (
    terminal: import('./app/doctor').TerminalFacts | null,
    provider: { name: string; model: string; baseUrl: string },
  ): Promise<{ lines: string[]; failed: boolean }> => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { doctorChecks, doctorLines } = require('./app/doctor') as typeof import('./app/doctor');
    const { probeSandbox } = require('./tools/bwrap') as typeof import('./tools/bwrap');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const keyVar = (PROVIDER_NAMES as readonly string[]).includes(provider.name)
      ? keyVariable(provider.name as ProviderName)
      : null;
    const checks = await doctorChecks({
      env: process.env,
      configFile: dataDir === null ? null : `${dataDir}/config.json`,
      configProblems: warnings
        .filter((w) => w.startsWith('config.json'))
        .map((w) => w.replace(/^config\.json:?\s*/, '')),
      provider: { ...provider, key: keyVar ? process.env[keyVar] : undefined },
      terminal,
      sandbox: probeSandbox,
    });
    return { lines: doctorLines(checks), failed: checks.some((c) => c.state === 'fail') };
  };
}

/** `milk trust` and `milk untrust`: whether this workspace's .milk/settings.json applies. */
function addTrustCommands(program: Command): void {
  const judge = (state: 'trusted' | 'refused') => (_o: unknown, cmd: Command) => {
    const { dataDir, workspace } = locate(cmd.optsWithGlobals() as MainOptions);
    const w = judgedSettings(workspace, dataDir);
    if (!w) {
      process.stdout.write(
        `no ${PROJECT_SETTINGS} in ${workspace}: nothing to ${state === 'trusted' ? 'trust' : 'untrust'}\n`,
      );
      return;
    }
    const failed = w.trust.set(workspace, state, w.read.sha256);
    if (failed) throw new UsageError(failed);
    const lines =
      state === 'trusted'
        ? [
            `trusted ${w.read.file}; milk applies it from its next start:`,
            ...projectLines(w.read.settings).map((l) => `  ${l}`),
          ]
        : [`${w.read.file} is not applied from now on (milk trust applies it again)`];
    for (const p of w.read.problems) lines.push(`  left out: ${p}`);
    process.stdout.write(lines.map((l) => sanitize(l)).join('\n') + '\n');
  };
  program
    .command('trust')
    .description(
      `apply this workspace's ${PROJECT_SETTINGS} (its MCP servers, hooks, rules, approval mode) from now on`,
    )
    .action(judge('trusted'));
  program.command('untrust').description(`stop applying this workspace's ${PROJECT_SETTINGS}`).action(judge('refused'));
}

/** `milk doctor`: what milk found here and what it does without each part; exit 1 when something needs fixing. */
function addDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('what milk found here (sandbox, ripgrep, git, clipboard, config, provider) and the fix for each')
    .action(async (_o: unknown, cmd: Command) => {
      const all = cmd.optsWithGlobals() as MainOptions;
      const { dataDir } = locate(all);
      const { config, warnings } = loadConfig(dataDir);
      const choice = chooseProvider(all, config, process.env);
      const { lines, failed } = await doctorFor(dataDir, warnings)(null, choice);
      process.stdout.write(lines.map((l) => sanitize(l)).join('\n') + '\n');
      process.exitCode = failed ? 1 : 0;
    });
}

interface RunFlags {
  json?: boolean;
  hooks?: boolean;
  outputFormat?: OutputFormat;
  allowTool: string[];
  denyTool: string[];
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** --allow-tool and --deny-tool as rules; a usage error names one that is none. */
function runRules(o: RunFlags): { allow: Rule[]; deny: DenyRule[] } {
  const allow = o.allowTool.map((spec) => {
    const rule = parseRule(splitToolSpec(spec));
    if (!rule) throw new UsageError(`--allow-tool ${spec}: give TOOL, or shell:PREFIX (no ; | & < > $ or backquotes)`);
    return rule;
  });
  const deny = o.denyTool.map((spec) => {
    const rule = parseDeny(splitToolSpec(spec));
    if (!rule) throw new UsageError(`--deny-tool ${spec}: give TOOL, shell:PREFIX, web_fetch:DOMAIN or path:GLOB`);
    return rule;
  });
  return { allow, deny };
}

/** `milk run`: one turn without the screen. */
function addRunCommand(program: Command, Option: typeof import('commander').Option): void {
  program
    .command('run')
    .description(
      'one turn without the screen: the answer streams to stdout (the prompt from the arguments or stdin); ' +
        'tools are read-only unless --approval says otherwise',
    )
    // milk's own flags (--provider, --continue, --approval…) work here too: its help lists them.
    .configureHelp({ showGlobalOptions: true })
    .argument('[prompt...]', 'the prompt; read from stdin when omitted')
    .addOption(
      new Option(
        '--output-format <format>',
        'text: the answer as it streams; stream-json: one JSON object per line for each event (text, tool_call, ' +
          'tool_result, usage, end); json: one JSON object at the end (type "result")',
      ).choices(OUTPUT_FORMATS),
    )
    .option('--json', 'the same as --output-format stream-json')
    .option('--hooks', "run config.json's hooks (milk run runs none unless asked)")
    .option(
      '--allow-tool <TOOL[:PREFIX]>',
      "for this run, calls that run without asking: a tool, or shell with a command's first words ('shell:npm test')",
      collect,
      [],
    )
    .option(
      '--deny-tool <TOOL[:ARG]>',
      'for this run, calls that never run, whatever --approval says: a tool, shell:PREFIX (wherever it runs in a ' +
        'command), web_fetch:DOMAIN or path:GLOB',
      collect,
      [],
    )
    .action(async (words: string[], o: RunFlags, cmd: Command) => {
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
      const { provider, switchProvider } = providerFor(all, config);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { runCommand } = require('./app/run') as typeof import('./app/run');
      process.exitCode = await runCommand(prompt, {
        provider,
        switchProvider,
        config,
        dataDir,
        workspace,
        sessionId,
        opts: all,
        format: o.outputFormat ?? (o.json ? 'stream-json' : 'text'),
        runRules: runRules(o),
        hooks: o.hooks === true,
        io: { out: process.stdout, err: process.stderr },
      });
    });
}

export async function main(argv: string[]): Promise<number> {
  // `milk history list | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  try {
    const quick = quickParse(argv.slice(2));
    if (quick) return await runInteractive(quick);
    await buildProgram().parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (err instanceof (require('commander') as typeof import('commander')).CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return 0;
      return EXIT_USAGE;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`milk: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

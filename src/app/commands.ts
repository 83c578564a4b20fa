// milk's commands beside the full screen and the shell's history and sessions (app/subcommands.ts): `milk run` (one
// turn without the screen, its flags, rules for this run), `milk doctor`, and `milk trust` / `milk untrust`.

import type { Command } from 'commander';
import { doctorFor, providerFor } from './launch';
import { parseRule, type Rule } from '../settings/rules';
import { PROJECT_SETTINGS, type ProjectSettings } from '../config/project-settings';
import { trustLines } from './trust';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { namedFiles, projectCommands } from './control-files';
import { vouching } from './vouch';
import { judgedSettings } from '../config/trust';
import { parseDeny, splitToolSpec, type DenyRule } from '../settings/deny';
import { MainOptions, UsageError, locate } from './cli-support';
import { version } from './about';
import { loadConfig } from '../config/config';
import { chooseProvider } from '../providers/select';
import { isProviderName } from '../providers/kinds';
import { sanitize } from '../protocol/inert';
import { OUTPUT_FORMATS, type OutputFormat } from '../turn/run-once';

export function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (d) => (text += d));
    process.stdin.on('end', () => resolve(text));
    process.stdin.on('error', reject);
  });
}

/** `milk trust` and `milk untrust`: whether this workspace's .milk/settings.json applies. */
export function addTrustCommands(program: Command): void {
  const judge = (state: 'trusted' | 'refused') => async (_o: unknown, cmd: Command) => {
    const all = cmd.optsWithGlobals() as MainOptions;
    const { dataDir, workspace } = locate(all);
    const w = judgedSettings(workspace, dataDir);
    // The workspace files hooks and MCP servers run, the person's and the project's, trusted as they are now.
    const files = state === 'trusted' ? await trustFiles(dataDir, workspace, all, w?.read.settings) : [];
    if (!w) {
      const none = `no ${PROJECT_SETTINGS} in ${workspace}: nothing to ${state === 'trusted' ? 'trust' : 'untrust'}`;
      process.stdout.write(`${[none, ...files].map((l) => sanitize(l)).join('\n')}\n`);
      return;
    }
    const failed = w.trust.set(workspace, state, w.read.sha256);
    if (failed) throw new UsageError(failed);
    const lines =
      state === 'trusted'
        ? [
            `trusted ${w.read.file}; milk applies it from its next start:`,
            ...trustLines(w.read.settings, w.read.files).map((l) => `  ${l}`),
          ]
        : [`${w.read.file} is not applied from now on (milk trust applies it again)`];
    for (const p of w.read.problems) lines.push(`  left out: ${p}`);
    process.stdout.write([...lines, ...files].map((l) => sanitize(l)).join('\n') + '\n');
  };
  program
    .command('trust')
    .description(
      `apply this workspace's ${PROJECT_SETTINGS} (its MCP servers, hooks, rules, approval mode) from now on`,
    )
    .action(judge('trusted'));
  program.command('untrust').description(`stop applying this workspace's ${PROJECT_SETTINGS}`).action(judge('refused'));
}

/** Trusts the workspace files the person's and the project's hooks and MCP servers run; a line naming them. */
async function trustFiles(
  dataDir: string | null,
  workspace: string,
  opts: MainOptions,
  project: ProjectSettings | undefined,
): Promise<string[]> {
  const { config } = loadConfig(dataDir, opts);
  const own = projectCommands({ hooks: config.hooks, mcpServers: config.mcpServers, allow: [], deny: [] }, workspace);
  const commands = [...own, ...(project ? projectCommands(project, workspace) : [])];
  const named = await namedFiles(workspace, commands);
  if (named.length === 0) return [];
  const problems: string[] = [];
  await vouching(workspace, dataDir, (t) => problems.push(t)).trustAll(commands);
  const root = fs.realpathSync(workspace);
  return [`trusted as they are now: ${named.map((f) => path.relative(root, f)).join(', ')}`, ...problems];
}

/** `milk doctor`: what milk found here and what it does without each part; exit 1 when something needs fixing. */
export function addDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('what milk found here (sandbox, ripgrep, git, clipboard, config, provider) and the fix for each')
    .action(async (_o: unknown, cmd: Command) => {
      const all = cmd.optsWithGlobals() as MainOptions;
      const { dataDir } = locate(all);
      const { config, warnings } = loadConfig(dataDir, all);
      // A provider milk does not know is the doctor's finding here, not an error that stops it.
      const named = all.provider ?? config.provider ?? process.env.MILK_PROVIDER ?? '';
      const choice =
        isProviderName(named) || named === ''
          ? chooseProvider(all, config, process.env)
          : { name: named, model: '', baseUrl: '' };
      const { lines, failed } = await doctorFor(dataDir, warnings)(null, choice);
      process.stdout.write(lines.map((l) => sanitize(l)).join('\n') + '\n');
      process.exitCode = failed ? 1 : 0;
    });
}

export interface RunFlags {
  json?: boolean;
  /** --review: true (the uncommitted changes) or the range. */
  review?: boolean | string;
  failOn?: 'low' | 'medium' | 'high';
  hooks?: boolean;
  outputFormat?: OutputFormat;
  allowTool: string[];
  denyTool: string[];
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** --allow-tool and --deny-tool as rules; a usage error names one that is none. */
export function runRules(o: RunFlags): { allow: Rule[]; deny: DenyRule[] } {
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

/** --review and --fail-on read: the review's flags, or null for a run of a prompt. */
function reviewFlags(o: RunFlags, words: readonly string[]) {
  if (o.review === undefined) {
    if (o.failOn) throw new UsageError('--fail-on goes with --review');
    return null;
  }
  if (words.length > 0)
    throw new UsageError('milk run --review takes no prompt: the range goes with it (--review BASE.. or a commit)');
  if (o.outputFormat) throw new UsageError('--output-format does not go with --review (--json: the findings as JSON)');
  if (o.failOn !== undefined && !['low', 'medium', 'high'].includes(o.failOn))
    throw new UsageError(`--fail-on ${o.failOn}: give low, medium or high`);
  const arg = typeof o.review === 'string' ? o.review : '';
  const flags = { arg, json: o.json === true, failOn: o.failOn ?? null };
  return { flags, display: `/review${arg ? ` ${arg}` : ''}` };
}

/** `milk run`: one turn without the screen. */
export function addRunCommand(program: Command, Option: typeof import('commander').Option): void {
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
      '--review [range]',
      'review the uncommitted changes, BASE.. (the branch against BASE; .. for its upstream, else main or master) or ' +
        'a COMMIT, with tools that only read; the findings to stdout (--json: a JSON list of {file, line, severity, ' +
        'title, body})',
    )
    .option('--fail-on <severity>', 'with --review: exit 1 when a finding is this severe or more (low, medium, high)')
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
    .action(runAction);
}

/** What `milk run` does with its words and flags. */
async function runAction(words: string[], o: RunFlags, cmd: Command): Promise<void> {
  const all = cmd.optsWithGlobals() as MainOptions;
  const review = reviewFlags(o, words);
  let prompt = review ? review.display : words.join(' ');
  if (!prompt) {
    if (process.stdin.isTTY) throw new UsageError('milk run needs a prompt: milk run "PROMPT", or pipe one in');
    // A pipe ends its text with a newline (echo, a heredoc) that is no part of the prompt.
    prompt = (await readStdin()).replace(/\r?\n$/, '');
  }
  if (!prompt.trim()) throw new UsageError('milk run: the prompt is empty');
  const { dataDir, workspace, sessionId } = locate(all);
  const { config, warnings } = loadConfig(dataDir, all);
  for (const w of warnings) process.stderr.write(`milk: ${w}\n`);
  const { provider, switchProvider } = providerFor(all, config);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runCommand } = require('./run') as typeof import('./run');
  process.exitCode = await runCommand(prompt, {
    provider,
    switchProvider,
    config,
    dataDir,
    workspace,
    sessionId,
    opts: all,
    format: o.outputFormat ?? (o.json ? 'stream-json' : 'text'),
    review: review?.flags,
    runRules: runRules(o),
    hooks: o.hooks === true,
    io: { out: process.stdout, err: process.stderr },
  });
}

/** `milk acp`: the agent behind the Agent Client Protocol on stdin and stdout, for an editor to start. */
export function addAcpCommand(program: Command): void {
  program
    .command('acp')
    .description(
      'serve the Agent Client Protocol on stdin/stdout for an editor (Zed, JetBrains, Neovim, Emacs): ' +
        "milk's agent, one session per editor thread; see docs/acp.md",
    )
    .action(async (_o: unknown, cmd: Command) => {
      const all = cmd.optsWithGlobals() as MainOptions;
      const { dataDir } = locate(all);
      const { config, warnings } = loadConfig(dataDir, all);
      for (const w of warnings)
        process.stderr.write(`milk: ${sanitize(w)}
`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { acpCommand } = require('./acp') as typeof import('./acp');
      process.exitCode = await acpCommand({
        opts: all,
        config,
        dataDir,
        version: version(),
        io: { in: process.stdin, out: process.stdout, err: process.stderr },
      });
    });
}

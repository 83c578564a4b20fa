// The full screen from the flags: the provider they choose (and the one a resumed conversation goes on with), the
// conversation they bring back, config.json's settings, and what /provider and /doctor are handed; then milk runs
// until the person quits, and leaves its conversation and the way back to it in the terminal.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Cleanup, installExitHandlers } from '../kernel/cleanup';
import { judgedSettings, trustAs } from '../config/trust';
import { sessionIdForWorkspace } from '../config/paths';
import { MainOptions, NO_HOME, UsageError, locate, requireDataDir, resolveDirs } from './cli-support';
import { resumeOf } from './resume';
import { Config, loadConfig } from '../config/config';
import { agentConfig } from '../config/agent-config';
import { ProviderSetupError, buildProvider } from '../providers/build';
import { ProviderChoice, chooseProvider, keyVariable } from '../providers/select';
import { ProviderSwitch, choiceForResume } from '../providers/resume';
import type { Provider } from '../providers/provider';
import { sanitize } from '../protocol/inert';
import { againCommand, keptFlags, startedHere } from './relaunch';

export function providerFor(
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

/** /provider's last step: the provider its answers describe (a key typed there wins over the environment's). */
export function connectorFor(config: Config) {
  return (answers: import('../composer/views/provider-setup').SetupAnswers): Provider => {
    const own = { ...config, provider: answers.provider, apiKey: answers.apiKey || undefined };
    const flags = { provider: answers.provider, model: answers.model, baseUrl: answers.baseUrl };
    const chosen = chooseProvider(flags, own, process.env);
    return buildProvider({ ...chosen, apiKey: answers.apiKey || chosen.apiKey }, process.env);
  };
}

export async function runInteractive(opts: MainOptions): Promise<number> {
  const resume = resumeOf(opts);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError('milk needs an interactive terminal (stdin and stdout must be a TTY)');
  }
  const { dataDir, workspace, sessionId, worktree } = await located(opts);
  const { config, warnings } = loadConfig(dataDir, opts);
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
  const { startApp } = require('./screen') as typeof import('./screen');
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
    ...agentConfig(opts, config, resolveDirs(opts.addDir, workspace)),
    workspaceSettings: judgedSettings(workspace, dataDir),
    resume,
    warnings: [...warnings, ...early],
    theme: config.theme,
    hyperlinks: config.hyperlinks,
    notify: config.notify,
    exitTranscript: config.exitTranscript,
    statusLine: config.statusLine,
    editingMode: opts.vi ? 'vi' : config.editingMode,
    snapshots: config.snapshots,
    keys: config.keys,
  });
  report = (text) => app.bus.emit('status.warning', { text: sanitize(text) });
  await app.done;
  cleanup.run();
  // After the screen is gone, in the terminal's own scrollback: the conversation, then the way back to it.
  const conversation = app.scrollback();
  if (conversation) process.stdout.write(conversation);
  const goodbye = app.farewell(againCommand(startedHere(), keptFlags(opts, process.cwd())));
  if (goodbye) process.stdout.write(`${sanitize(goodbye)}\n`);
  if (worktree) process.stdout.write(`${sanitize(worktree.farewell)}\n`);
  return 0;
}

/**
 * Where this run is: as the flags and the directory say, or, with --worktree, in that worktree (made or taken again;
 * milk moves there), its input history and trust the main repository's.
 */
async function located(opts: MainOptions) {
  const where = locate(opts);
  if (!opts.worktree) return { ...where, worktree: null };
  const dataDir = requireDataDir(where.dataDir);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const wt = require('./worktrees') as typeof import('./worktrees');
  let entered: Awaited<ReturnType<typeof wt.enterWorktree>>;
  try {
    entered = await wt.enterWorktree(dataDir, where.workspace, opts.worktree);
  } catch (err) {
    if (err instanceof wt.WorktreeError) throw new UsageError(`--worktree: ${err.message}`);
    throw err;
  }
  const { repo, worktree } = entered;
  process.chdir(worktree.path);
  trustAs(worktree.path, repo.root);
  return {
    dataDir,
    workspace: worktree.path,
    sessionId: opts.session ?? sessionIdForWorkspace(repo.root),
    worktree: { farewell: wt.worktreeFarewell(worktree, repo) },
  };
}

/**
 * What `milk doctor` and /doctor are given: the config's problems, the provider's settings and key (for its check
 * only), and the sandbox's probe; the terminal's answers and the provider in use come from the caller.
 */
export function doctorFor(dataDir: string | null, warnings: readonly string[]) {
  return async (
    terminal: import('./doctor').TerminalFacts | null,
    provider: { name: string; model: string; baseUrl: string },
  ): Promise<{ lines: string[]; failed: boolean }> => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { doctorChecks, doctorLines } = require('./doctor') as typeof import('./doctor');
    const { probeSandbox } = require('../tools/bwrap') as typeof import('../tools/bwrap');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const keyVar = keyVariable(provider.name);
    const checks = await doctorChecks({
      env: process.env,
      configFile: dataDir === null ? null : `${dataDir}/config.json`,
      configExists: dataDir !== null && fs.existsSync(path.join(dataDir, 'config.json')),
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

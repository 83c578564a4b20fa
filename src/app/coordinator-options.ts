// What the full screen's coordinator is handed, part by part: the memory files, background commands, pasted images,
// /doctor's lines, the provider set-up, prompt commands, the workspace's paths for @, added folders, the files a rewind
// puts back, masked secrets, the logs /search reads, and what /context, /agents, /hooks, /status and /cost say.

import { resolveDirs } from './cli-support';
import type { Bus } from '../kernel/bus';
import * as os from 'node:os';
import * as path from 'node:path';
import { clipboardImage } from './clipboard-image';
import { probeImage } from '../tools/image-file';
import type { AppOptions, Services } from './screen';
import { costLines } from './status-lines';
import { describeModel } from '../providers/resume';
import type { SetupKind } from '../composer/views/provider-setup';
import { PROVIDERS, PROVIDER_NAMES } from '../providers/kinds';
import type { CoordinatorOptions } from '../composer/coordinator-types';
import { TurnCoordinator } from '../composer/coordinator';
import type { MemoryFile } from '../agent/memory';
import type { BackgroundShells } from '../tools/background';
import { type HandOver, editorModule, env } from './env';

/** /status's and /cost's lines. */
export function spendInfo(s: Services) {
  return {
    statusInfo: s.statusInfo,
    costInfo: () => {
      s.spending.settle();
      return costLines(s.spending);
    },
  };
}

/** /context's, /agents', /hooks', /skills' and /plugins' lines; /review. */
export function agentInfo(s: Services, options: Pick<AppOptions, 'dataDir' | 'workspace'>, bus: Bus) {
  return {
    review: (arg: string, start: (prompt: string, display: string) => number) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('./review') as typeof import('./review')).reviewFor(bus, options.workspace, () => s.agent)(arg, start),
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    pluginsInfo: () => (require('./agent-plugins') as typeof import('./agent-plugins')).pluginLines(options),
    contextInfo: () => s.agent.info(),
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    agentsInfo: () => (require('../agent/subagents') as typeof import('../agent/subagents')).agentLines(s.agent.agents),
    hooksInfo: () => s.hooks.lines(),
    skillsInfo: () => s.agent.skillsInfo(),
  };
}

/** Memory: a `# ` input kept in an AGENTS.md (then read again for the next turn); /memory opens them in the editor. */
export function memoryFor(s: Services, options: AppOptions, handOver: HandOver): CoordinatorOptions['memory'] {
  // The memory's module (and the file tools it writes with) loads when memory is first used.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const memory = () => require('../agent/memory') as typeof import('../agent/memory');
  let found: MemoryFile[] | null = null;
  const files = (): MemoryFile[] => (found ??= memory().memoryFiles(options.workspace, options.dataDir));
  const where = (f: MemoryFile): string => path.join(f.root, f.name);
  return {
    files: () => files().map((f) => `${f.label} (${where(f)})`),
    add: async (index, text) => {
      const file = files()[index] ?? files()[0];
      const written = await memory().remember(file, text);
      for (const problem of s.agent.load()) s.warn(problem);
      return `remembered in ${written}: "${text}" (the model reads it from the next turn)`;
    },
    edit: async () => {
      const said = await editorModule().editFiles(files().map(where), handOver);
      for (const problem of s.agent.load()) s.warn(problem);
      return said;
    },
  };
}

/** /shells: the model's background commands listed, and one ended. */
export function shellsFor(shells: () => BackgroundShells): CoordinatorOptions['shells'] {
  return {
    lines: () =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('../tools/background') as typeof import('../tools/background')).shellLines(shells().all(), Date.now()),
    kill: (id) => {
      const background = shells();
      const shell = background.find(id);
      if (!shell) return `no background command ${id} (/shells lists them)`;
      return background.kill(id) ? `stopping shell ${id}: ${shell.command}` : `shell ${id} has ended (${shell.ended})`;
    },
  };
}

/** Images: a dropped file's path or an @-mentioned one read to see if it is an image; Ctrl+V's clipboard image. */
export function pastedImages(options: AppOptions): CoordinatorOptions['images'] {
  return {
    // A dropped file's path from the home folder, or an @-mention's from the workspace.
    probe: (pasted) =>
      probeImage(
        pasted.startsWith('~/') ? path.join(os.homedir(), pasted.slice(2)) : path.resolve(options.workspace, pasted),
      ),
    clipboard: () => clipboardImage(options.dataDir, env(options)),
  };
}

/** /doctor: the checks main.ts set up, with what the terminal answered and the provider in use now. */
function doctorLinesFor(s: Services, options: AppOptions): () => Promise<string[]> {
  return async () => {
    const provider = { name: s.provider.name, model: s.modelName(), baseUrl: s.provider.baseUrl ?? '' };
    const terminal = { keyboard: s.terminalFacts.keyboard(), sync: s.terminalFacts.sync() };
    return (await options.doctor?.(terminal, provider))?.lines ?? [];
  };
}

/** /doctor's lines, and /bug, whose report holds them. */
export function checksFor(s: Services, options: AppOptions) {
  const doctor = doctorLinesFor(s, options);
  return { doctor, bug: bugFor(s, options, doctor) };
}

/** /bug: the report's sources, the module loaded when it first runs. */
function bugFor(s: Services, options: AppOptions, doctor: () => Promise<string[]>): CoordinatorOptions['bug'] {
  let made: NonNullable<CoordinatorOptions['bug']> | null = null;
  const reporter = (): NonNullable<CoordinatorOptions['bug']> =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (made ??= (require('./bug-report') as typeof import('./bug-report')).bugReporter({
      dataDir: options.dataDir,
      env: env(options),
      lastTurn: () => s.sessions?.lastTurn() ?? [],
      doctor,
      terminal: () => [`keyboard: ${s.terminalFacts.keyboard()}`, `synchronized output: ${s.terminalFacts.sync()}`],
    }));
  return { draft: () => reporter().draft(), write: (withText) => reporter().write(withText) };
}

/**
 * /provider: the kinds of server it offers, and connecting: the answers kept in config.json (the key too, in a file
 * only its owner reads) and the provider switched to for the next turn. Loaded when /provider runs.
 */
export function providerSetup(s: Services, options: AppOptions): CoordinatorOptions['providerSetup'] {
  const connectTo = options.connectProvider;
  if (!connectTo) return undefined;
  return {
    kinds: () => {
      const kinds: SetupKind[] = PROVIDER_NAMES.flatMap((name) => {
        const { setup, http } = PROVIDERS[name];
        return setup && http
          ? [{ name, label: setup, baseUrl: http.baseUrl, model: http.model, keyVar: http.keyVar }]
          : [];
      });
      return { kinds, keysSet: new Set(kinds.map((k) => k.keyVar).filter((v) => env(options)[v])) };
    },
    models: async (server, signal) => {
      // A provider made for the answers so far (not switched to; the kind's own model): only its list is asked for.
      const probe = connectTo({ ...server, model: '' });
      if (!probe.listModels) throw new Error('this kind of server does not list its models');
      return probe.listModels(signal);
    },
    connect: (answers) => {
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { saveProvider } = require('../config/config-write') as typeof import('../config/config-write');
        const file = options.dataDir === null ? null : saveProvider(options.dataDir, answers);
        const provider = connectTo(answers);
        s.provider.use(provider);
        s.settings.setProvider(provider.name, provider.model ?? null);
        const kept = file
          ? `kept in ${file}${answers.apiKey ? ', the key too' : ''}`
          : 'no data dir: for this run only';
        return `connected: ${describeModel({ ...answers, name: answers.provider })}; the next turn asks it (${kept})`;
      } catch (err) {
        return `not connected: ${(err as Error).message}`;
      }
    },
  };
}

/**
 * The workspace's paths for @-mentions and what a mention attaches. The
 * modules load, and the workspace is first listed, once the person starts
 * typing (with the other warm-ups): neither start-up nor an idle milk pays
 * for it, and the list is there by the time a message reaches its @.
 */
export function mentionFiles(
  workspace: string,
  also: () => readonly string[],
): NonNullable<ConstructorParameters<typeof TurnCoordinator>[3]['files']> {
  let index: import('../tools/file-index').FileIndex | null = null;
  const files = () => {
    if (index) return index;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { FileIndex } = require('../tools/file-index') as typeof import('../tools/file-index');
    return (index = new FileIndex(workspace, undefined, also));
  };
  return {
    search: (query, limit, done) => files().search(query, limit, done),
    refresh: () => files().refresh(),
    close: () => index?.close(),
    attach: (segments) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('../tools/attach') as typeof import('../tools/attach')).attachMentions(workspace, segments, also()),
  };
}

/** /add-dir: a directory (from the workspace, `~/` for the home folder) the file tools, @ and the sandbox reach. */
export function addDirFor(s: Services, workspace: string): (dir: string) => string {
  return (dir) => {
    let real: string;
    try {
      [real] = resolveDirs([dir], workspace);
    } catch (err) {
      return (err as Error).message.replace(/^--add-dir/, '/add-dir');
    }
    if (real === workspace) return `${real} is the workspace`;
    if (!s.settings.addDir(real)) return `${real} is added already`;
    return `added ${real}: the file tools and @ read and edit there, and commands may write there (this session)`;
  };
}

/** What a rewind and /undo put back, and /diff: what the file tools' copies and the commands' snapshots recorded. */
export function rewindFiles(s: Services): Pick<CoordinatorOptions, 'checkpoints' | 'changes'> {
  const files = () => s.changes.rewind();
  return {
    checkpoints: {
      files: (turn) => files().files(turn),
      restore: (turn) => files().restore(turn),
      uncovered: (list) => files().uncovered(list),
    },
    changes: {
      lastTurn: () => files().lastTurn(),
      wasUndone: (turn) => files().wasUndone(turn),
      diff: (turn) => files().diff(turn),
    },
  };
}

/** /secrets: what was masked this session, numbered, never the values; a value let through by its number. */
export function secretsFor(s: Services, options: AppOptions): CoordinatorOptions['secrets'] {
  if (options.maskSecrets === false) return undefined;
  const mask = (): NonNullable<Services['secrets']> => s.secrets as NonNullable<Services['secrets']>;
  return {
    lines: () => {
      const list = mask().list();
      if (list.length === 0) return ['no secret has been masked in this session'];
      return [
        'masked before sending (the model gets the placeholder; a call that uses one asks you first):',
        ...list.map((e, i) => `  ${i + 1}. ${e.placeholder}  ${e.name}${e.allowed ? '  (let through)' : ''}`),
        '/secrets allow N lets one through from the next request',
      ];
    },
    allow: (which) => {
      const placeholder = mask().list()[Number(which) - 1]?.placeholder ?? which;
      return mask().allow(which)
        ? `${placeholder} is sent as it is from the next request on (this session)`
        : `no masked secret ${which} (/secrets lists them)`;
    },
  };
}

/** /search: every conversation's logs searched (session/search.ts, loaded when first asked). */
export function searchLogsFor(options: AppOptions): CoordinatorOptions['searchLogs'] {
  const dataDir = options.dataDir;
  if (dataDir === null) return undefined;
  return async (query) => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { searchSessions, workspaceOf } = require('../session/search') as typeof import('../session/search');
    const { hitLine } = require('../session/search-hits') as typeof import('../session/search-hits');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const found = await searchSessions(dataDir, query);
    const hits = found.hits.map((h) => {
      const here = h.session === options.sessionId;
      const where = here ? 'here' : (workspaceOf(dataDir, h.session, h.conv) ?? h.session);
      return { conv: h.conv, session: h.session, here, line: hitLine(h, where) };
    });
    return { hits, more: found.more };
  };
}

/** /shells, /secrets and /search. */
export function lookingAround(
  s: Services,
  options: AppOptions,
): Pick<CoordinatorOptions, 'shells' | 'secrets' | 'searchLogs' | 'stats' | 'worktrees'> {
  return {
    shells: shellsFor(() => s.background),
    secrets: secretsFor(s, options),
    searchLogs: searchLogsFor(options),
    stats: (word) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('./stats') as typeof import('./stats')).statsInChild(options.dataDir, env(options))(word),
    worktrees: worktreesFor(options),
  };
}

/** /worktree: the repository's worktrees milk made, listed and removed (app/worktrees.ts, loaded when it runs). */
function worktreesFor(options: AppOptions): CoordinatorOptions['worktrees'] {
  const { dataDir, workspace } = options;
  if (!dataDir) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const wt = (): typeof import('./worktrees') => require('./worktrees');
  const said = (err: unknown): string[] => [`/worktree: ${(err as Error).message}`];
  return {
    list: () =>
      wt()
        .repositoryOf(dataDir, workspace)
        .then((repo) => wt().worktreeLines(repo, workspace))
        .catch(said),
    remove: (name, force) =>
      wt()
        .repositoryOf(dataDir, workspace)
        .then((repo) => wt().removeWorktree(repo, name, force, workspace))
        .catch((err: unknown) => said(err)[0]),
  };
}

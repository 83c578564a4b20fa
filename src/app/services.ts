// The services behind the full screen: the agent's parts (app/agent.ts), and the history and sessions around them;
// prices settled once milk is idle after a turn, the approval rules' problems said, the heap watched.

import { Bus } from '../kernel/bus';
import type { AgentParts } from './agent';
import { sanitize } from '../protocol/inert';
import { Cleanup } from '../kernel/cleanup';
import { installMemoryGuard } from './memory-guard';
import { trustPlan } from './trust';
import { describeModel } from '../providers/resume';
import { statusLines } from './status-lines';
import type { TerminalFacts } from './doctor';
import { APPROVAL_MEANING } from '../settings/approval';
import { startingSettings } from '../settings/starting';
import { HistoryService, historyPaths } from '../history/service';
import type { Sessions } from '../session/sessions';
import type { AppOptions } from './screen';
import { type StatusLine, statusLineOf } from './status-line';

/** The agent's parts and the conversations around them: made after the first paint, or when first needed. */
type Late = AgentParts & { sessions: Sessions };

/** The keys given, which must be every member of the late parts (a member added and not listed fails to compile). */
function everyMember<K extends keyof Late>(
  keys: readonly K[] & ([Exclude<keyof Late, K>] extends [never] ? unknown : { unlisted: Exclude<keyof Late, K> }),
): readonly K[] {
  return keys;
}

/** Every member of the agent's parts, each a getter on the services that makes the agent when first read. */
const LATE_KEYS = everyMember([
  'settings',
  'agent',
  'permissions',
  'rulesRead',
  'changes',
  'secrets',
  'detector',
  'mcp',
  'background',
  'hooks',
  'vouch',
  'provider',
  'applyProject',
  'runner',
  'log',
  'recorder',
  'modelName',
  'restoreModel',
  'spending',
  'reread',
  'sessions',
] as const);

/** The agent, made at its first use: the modules it needs are loaded then (app/parts.ts loads them sooner). */
function lateAgent(
  bus: Bus,
  options: AppOptions,
  settings: AgentParts['settings'],
  warn: (text: string) => void,
  status: { line: StatusLine | null },
) {
  let made: Late | null = null;
  const waiting: ((late: Late) => void)[] = [];
  const make = (): Late => {
    if (made) return made;
    const plan = trustPlan(options.workspaceSettings);
    const project = plan?.kind === 'apply' ? plan.settings : undefined;
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { agentParts } = require('./agent') as typeof import('./agent');
    const { Sessions } = require('../session/sessions') as typeof import('../session/sessions');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const statusPort = status.line ?? undefined;
    const parts = agentParts(bus, {
      ...options,
      settings,
      warn,
      rewind: { cleanup: options.cleanup },
      project,
      statusPort,
    });
    const { runner, log, recorder, restoreModel, reread } = parts;
    const maxKept = options.answer?.maxKeptChars;
    made = { ...parts, sessions: new Sessions(bus, runner, log, recorder, maxKept, restoreModel, reread) };
    for (const then of waiting.splice(0)) then(made);
    return made;
  };
  return {
    make,
    /** The agent if it is made; null before (what the first paint shows reads this, and never makes it). */
    made: (): Late | null => made,
    /** `then` once the agent is made (at once if it is). */
    whenMade: (then: (late: Late) => void): void => {
      if (made) then(made);
      else waiting.push(then);
    },
  };
}

/** The services: the agent's parts (app/agent.ts, made after the first paint), and history and sessions around them. */
export function services(bus: Bus, options: AppOptions) {
  const warn = (text: string): void => bus.emit('status.warning', { text: sanitize(text) });
  const settings = startingSettings(options);
  const status: { line: StatusLine | null } = { line: null };
  const late = lateAgent(bus, options, settings, warn, status);
  const history = new HistoryService({
    settings,
    dataDir: options.dataDir,
    sessionId: options.sessionId,
    workspace: options.workspace,
    displayName: options.displayName,
    maxEntries: options.maxEntries,
    warn,
  });
  const paths = options.dataDir === null ? null : historyPaths(options.dataDir, options.sessionId);
  const base = { warn, history, terminalFacts: terminalFacts(), late };
  const s = Object.defineProperties(
    base,
    Object.fromEntries(LATE_KEYS.map((k) => [k, { get: () => (k === 'settings' ? settings : late.make()[k]) }])),
  ) as typeof base & Late;
  const sessionInfo = (): string[] => [
    `session ${options.sessionId} · workspace ${options.workspace}`,
    `conversation ${s.recorder.conv} · provider ${settings.provider} · model ${s.modelName()}`,
    paths
      ? `files: ${s.log.fileOf(s.recorder.conv)}, ${paths.session}, ${paths.global}`
      : 'files: none (no data dir; history in memory only)',
  ];
  const { keyed } = settleWhenIdle(bus, s);
  const statusInfo = (): string[] => {
    s.spending.settle();
    return statusLines({
      session: options.sessionId,
      workspace: options.workspace,
      added: settings.dirs,
      conversation: s.recorder.conv,
      model: describeModel({ provider: settings.provider, model: s.modelName(), baseUrl: s.provider.baseUrl }),
      mode: settings.mode,
      modeMeaning: APPROVAL_MEANING[settings.mode],
      sandbox: settings.sandboxState,
      context: s.runner.contextUse(),
      spent: s.spending,
    });
  };
  const statusLine: StatusLine = (status.line = statusLineOf(s, options, bus));
  return Object.assign(s, { sessionInfo, statusInfo, keyed, statusLine });
}

/** What the terminal answered, for /doctor: filled in once the terminal's input is set up. */
function terminalFacts(): { keyboard: () => string; sync: () => TerminalFacts['sync'] } {
  return { keyboard: () => 'unknown', sync: () => 'not answered' };
}

export type Services = ReturnType<typeof services>;

/**
 * How long milk waits, idle after a turn and with no key pressed, before it loads the price table (never during a
 * turn, start-up or typing: loading it holds the main thread for 50-90 ms).
 */
const PRICES_AFTER_IDLE_MS = 2000;

/**
 * Prices that wait for the table are settled once milk is idle a while after a turn; the status bar shows them.
 * `keyed` is told of each key, which puts the load off until the keys have been quiet as long.
 */
function settleWhenIdle(bus: Bus, parts: Pick<AgentParts, 'runner' | 'spending'>): { keyed: () => void } {
  let timer: NodeJS.Timeout | null = null;
  let lastKeyAt = -Infinity;
  const later = (ms: number): void => {
    timer = setTimeout(settle, ms);
    timer.unref();
  };
  const settle = (): void => {
    timer = null;
    if (parts.runner.busy) return;
    const quiet = performance.now() - lastKeyAt;
    if (quiet < PRICES_AFTER_IDLE_MS) return later(PRICES_AFTER_IDLE_MS - quiet);
    parts.spending.settle();
    bus.requestRender();
  };
  bus.on('turn.started', () => {
    if (timer) clearTimeout(timer);
    timer = null;
  });
  bus.on('turn.ended', () => {
    if (parts.spending.unsettled) later(PRICES_AFTER_IDLE_MS);
  });
  // A conversation taken up again brings its requests, whose prices may wait for the table as a turn's do (whether
  // they do is known once the spending has heard of it too: settle() does nothing when none waits).
  bus.on('session.resumed', () => {
    if (!timer) later(PRICES_AFTER_IDLE_MS);
  });
  return {
    keyed: () => {
      lastKeyAt = performance.now();
    },
  };
}

/** The approval rules: what was wrong with their file said once the screen is up (app/agent.ts keeps them). */
export function rulesProblems(s: Services): void {
  s.late.whenMade(({ rulesRead }) => {
    void rulesRead.then(({ problems }) => {
      for (const p of problems) s.warn(p);
    });
  });
}

/** The heap guard: a turn that grows the heap too far is stopped; past that, milk exits cleanly. */
export function memoryGuard(bus: Bus, s: Services, cleanup: Cleanup): () => void {
  return installMemoryGuard({
    onGrowth: (listener) => {
      bus.on('turn.delta', ({ text }) => listener(text.length));
      bus.on('tool.output', ({ text }) => listener(text.length));
      bus.on('tool.result', ({ text }) => listener(text.length));
      bus.on('turn.reasoning', ({ text }) => listener(text.length));
    },
    stopTurn: (message) => {
      if (!s.runner.fail(message)) s.warn(message);
    },
    exit: (message) => {
      cleanup.run();
      process.stderr.write(message + '\n');
      process.exit(1);
    },
  });
}

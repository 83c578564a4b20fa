// The services behind the full screen: the agent's parts (app/agent.ts), and the history and sessions around them;
// prices settled once milk is idle after a turn, the approval rules' problems said, the heap watched.

import { Bus } from '../kernel/bus';
import { agentParts } from './agent';
import { sanitize } from '../protocol/inert';
import { Cleanup } from '../kernel/cleanup';
import { installMemoryGuard } from './memory-guard';
import { trustPlan } from './trust';
import { describeModel } from '../providers/resume';
import { statusLines } from './status-lines';
import type { TerminalFacts } from './doctor';
import { APPROVAL_MEANING } from '../settings/approval';
import { HistoryService, historyPaths } from '../history/service';
import { Sessions } from '../session/sessions';
import type { AppOptions } from './screen';

/** The services: the agent's parts (app/agent.ts), and history and sessions around them. */
export function services(bus: Bus, options: AppOptions) {
  const warn = (text: string): void => bus.emit('status.warning', { text: sanitize(text) });
  const plan = trustPlan(options.workspaceSettings);
  const trusted = plan?.kind === 'apply' ? plan.settings : undefined;
  const parts = agentParts(bus, { ...options, warn, rewind: { cleanup: options.cleanup }, project: trusted });
  const { settings, runner, log, recorder } = parts;
  const history = new HistoryService({
    settings,
    dataDir: options.dataDir,
    sessionId: options.sessionId,
    workspace: options.workspace,
    displayName: options.displayName,
    maxEntries: options.maxEntries,
    warn,
  });
  const sessions = new Sessions(
    bus,
    runner,
    log,
    recorder,
    options.answer?.maxKeptChars,
    parts.restoreModel,
    parts.reread,
  );
  const paths = options.dataDir === null ? null : historyPaths(options.dataDir, options.sessionId);
  const sessionInfo = (): string[] => [
    `session ${options.sessionId} · workspace ${options.workspace}`,
    `conversation ${recorder.conv} · provider ${settings.provider} · model ${parts.modelName()}`,
    paths
      ? `files: ${log.fileOf(recorder.conv)}, ${paths.session}, ${paths.global}`
      : 'files: none (no data dir; history in memory only)',
  ];
  const { keyed } = settleWhenIdle(bus, parts);
  const statusInfo = (): string[] => {
    parts.spending.settle();
    return statusLines({
      session: options.sessionId,
      workspace: options.workspace,
      added: settings.dirs,
      conversation: recorder.conv,
      model: describeModel({ provider: settings.provider, model: parts.modelName(), baseUrl: parts.provider.baseUrl }),
      mode: settings.mode,
      modeMeaning: APPROVAL_MEANING[settings.mode],
      sandbox: settings.sandboxState,
      context: runner.contextUse(),
      spent: parts.spending,
    });
  };
  // What the terminal answered, for /doctor: filled in once the terminal's input is set up.
  const terminalFacts: { keyboard: () => string; sync: () => TerminalFacts['sync'] } = {
    keyboard: () => 'unknown',
    sync: () => 'not answered',
  };
  return { ...parts, warn, history, sessions, sessionInfo, statusInfo, terminalFacts, keyed };
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
function settleWhenIdle(bus: Bus, parts: ReturnType<typeof agentParts>): { keyed: () => void } {
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
  return {
    keyed: () => {
      lastKeyAt = performance.now();
    },
  };
}

/** The approval rules: what was wrong with their file said once the screen is up (app/agent.ts keeps them). */
export function rulesProblems(s: Services): void {
  void s.rulesRead.then(({ problems }) => {
    for (const p of problems) s.warn(p);
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

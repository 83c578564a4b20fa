// The composition root: builds milk's parts and connects them, and nothing
// else. A key press goes terminal → decoder → router (by the modes of the
// views on the composer) → coordinator → view stack and reducer → effects →
// render request → painter. See ARCHITECTURE.md.

import { Bus } from '../kernel/bus';
import { env } from './env';
import { views } from './views';
import { AgentOptions } from './agent';
import { sanitize } from '../protocol/inert';
import { Cleanup } from '../kernel/cleanup';
import type { ApprovalMode } from '../protocol/approvals';
import { TurnCoordinator } from '../composer/coordinator';
import type { Provider } from '../providers/provider';
import { ProviderSwitch } from '../providers/resume';
import { type ResumeRequest, resume } from './resume';
import { ProviderOrigin } from '../providers/select';
import { NotifyChoice } from '../tui/attention';
import type { TerminalFacts } from './doctor';
import type { SetupAnswers } from '../composer/views/provider-setup';
import { type ExitTranscript } from '../tui/scrollback';
import type { JudgedSettings } from '../config/trust';
import { buildKeymap } from '../tui/keymap';
import { JobControl, installJobControl } from '../tui/job-control';
import { followSettings, lookAndFeel, widthProbe } from '../tui/look';
import { createScreen, Screen } from '../tui/screen';
import { warmSearch } from '../tui/warm-search';
import { warmTranscript, warmWhenTyping } from '../tui/warm-up';
import { markdown, warmHighlighter } from '../markdown/parsers';
import { codeRan } from '../kernel/code-ran';
import { warmRender } from '../markdown/render';
import { HyperlinkChoice, italicFor } from '../settings/theme';
import type { StatusLineConfig } from '../protocol/status-line';
import { type Services, memoryGuard, rulesProblems, services } from './services';
import { askTrust } from './trust';
import { loadParts } from './parts';
import { inputHandler } from './keys-in';
import { greet } from './greeting';
import { cleanUpAtExit, farewell, leftInScrollback } from './exit';
import { frames, terminalAnswers, terminalInput } from './terminal';

export type { Services } from './services';

export interface AppOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  sessionId: string;
  provider: Provider;
  /** Which provider a resumed conversation goes on with (its own, unless the flags name one). */
  switchProvider?: ProviderSwitch;
  /** /provider's last step (main.ts): the provider its answers describe, its key from them or the environment. */
  connectProvider?: (answers: SetupAnswers) => Provider;
  /** /doctor's checks (main.ts): given what the terminal answered and the provider in use. */
  doctor?: (
    terminal: TerminalFacts,
    provider: { name: string; model: string; baseUrl: string },
  ) => Promise<{ lines: string[]; failed: boolean }>;
  /** How milk calls for attention when the terminal is not focused (config `notify`): the bell unless said. */
  notify?: NotifyChoice;
  /** Where the provider came from (no one: the welcome teaches how to connect a model), and its key's variable. */
  providerOrigin?: ProviderOrigin;
  keyVariable?: string | null;
  cleanup: Cleanup;
  /** Null: no home to keep data in; history stays in memory. */
  dataDir: string | null;
  /** Canonical workspace path. */
  workspace: string;
  /** How the session is shown: its name, or the workspace folder's. */
  displayName: string;
  maxEntries: number;
  /** Caps on one answer (shown, kept in the conversation) and on the context sent. */
  answer?: { maxAnswerChars?: number; maxKeptChars?: number; maxContextChars?: number };
  /** The approval mode to start in (--approval); full-auto starts with force mode on. */
  approval?: ApprovalMode;
  /** The context window of a model in tokens, as the config gives it (else the runner's default). */
  contextWindow?: (model: string | null) => number | undefined;
  /** Model requests in one turn before asking whether it goes on (config `maxSteps`). */
  maxSteps?: number;
  /** Text added to the end of the system prompt (config `appendSystemPrompt`, --append-system-prompt). */
  appendSystemPrompt?: string;
  /** The reasoning effort to start with (--effort). */
  effort?: AgentOptions['effort'];
  /** What config.json says of a model (its price, effort, API). */
  modelSettings?: AgentOptions['modelSettings'];
  /** Whether commands run in bubblewrap (--sandbox, config); on unless said. */
  sandbox?: 'on' | 'off';
  /** Which conversation to bring back: the last, one by id, or a picker; none starts a new one. */
  /** `fork`: the conversation goes on in a copy, left as it was (--fork). */
  resume?: ResumeRequest;
  /** Warnings found before the screen existed (e.g. a bad config file). */
  warnings?: string[];
  /** MCP servers (config mcpServers), started once the screen is up. */
  mcpServers?: AgentOptions['mcpServers'];
  /** Directories added to the workspace (--add-dir). */
  addDirs?: AgentOptions['addDirs'];
  /** What is left in the terminal's scrollback at quit: the whole conversation, its last turn, or nothing. */
  exitTranscript?: ExitTranscript;
  /** The composer's keys (config `editingMode`, --vi): emacs, or vi's states. */
  editingMode?: 'emacs' | 'vi';
  /** The person's own status line (config `statusLine`; a trusted project's wins): app/status-line.ts. */
  statusLine?: StatusLineConfig;
  /** The workspace's snapshots' caps (config `snapshots`). */
  snapshots?: { maxFileMb?: number; maxStoreMb?: number; maxAgeDays?: number };
  /** Secrets sent as placeholders (config `maskSecrets`): on unless false. */
  maskSecrets?: boolean;
  /**
   * The workspace's own settings (.milk/settings.json), what the person said of them, and where that is kept: applied
   * when trusted, asked about once the screen is up when not yet.
   */
  workspaceSettings?: JudgedSettings | null;
  /** The hooks configured (config hooks), each with its source; session_start's run once the screen is up. */
  hooks?: AgentOptions['hooks'];
  /** The palette (config `theme`, checked: settings/palette.ts' readTheme): auto follows the terminal's background. */
  theme?: unknown;
  /** The person's key bindings (config `keys`): a command's name and the keys that run it (tui/keymap.ts). */
  keys?: Readonly<Record<string, readonly string[]>>;
  /** Links as OSC 8 hyperlinks (config `hyperlinks`): auto where the terminal is not known to lack them. */
  hyperlinks?: HyperlinkChoice;
  /** The environment the terminal is judged by (TERM, COLORFGBG, NO_COLOR…); process.env unless given. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface App {
  readonly bus: Bus;
  readonly coordinator: TurnCoordinator;
  readonly screen: Screen;
  /** Resolves when the person quits. */
  readonly done: Promise<void>;
  /** What milk says once the screen is gone: how to come back to the conversation, and what the session cost. */
  farewell(again: string): string | null;
  /** The conversation for the terminal's scrollback once the screen is gone (exitTranscript); '' for none. */
  scrollback(): string;
}

/** Brings back the conversation the flags asked for, if any, saying what came of it. */
function resumeAsked(bus: Bus, s: Services, coordinator: TurnCoordinator, how: ResumeRequest): void {
  // Nothing to bring back: the agent (whose conversations these are) is made after the first paint.
  if (how === null) return;
  const resumed = resume(s.sessions, how, (fork) => coordinator.openPicker(fork));
  if (resumed.kind === 'note') bus.emit('transcript.note', { text: sanitize(resumed.text) });
  if (resumed.kind === 'unknown')
    s.warn(`no conversation ${resumed.id} in this session (/resume lists them); a new one starts`);
}

/** What is readied in idle slices once the person starts typing, before the first answer needs it. */
function warmUps(s: Services, provider: AppOptions['provider'], coordinator: TurnCoordinator): (() => void)[] {
  return [
    // First: the secret detector loads in its own thread (~100 ms), which a request waits for; and the system prompt,
    // sent with every request, is looked at now rather than at Enter.
    // Once the agent is made (after the first paint, in its own tick), never by a key: making it is the larger cost.
    () => s.late.whenMade((late) => void late.detector?.detect(late.agent.text())),
    () => markdown(),
    ...Array.from({ length: 4 }, () => () => warmRender(s.settings.emoji)),
    () => provider.warm?.(),
    () => coordinator.warmFiles(),
    ...warmHighlighter(),
    ...warmTranscript(() => s.settings.emoji),
  ];
}

/**
 * The agent after the first paint: its parts loaded a tick each (app/parts.ts), then the agent made, then the
 * instruction files and the environment read (again for each new conversation), then the MCP servers started and
 * the session_start hooks run: start-up never waits on any of them.
 */
function agentAfterPaint(bus: Bus, s: Services): () => void {
  const loadAgent = (): void => {
    for (const problem of s.agent.load()) s.warn(problem);
  };
  bus.on('session.new', loadAgent);
  const steps = [
    () => s.late.make(),
    loadAgent,
    () => {
      void s.mcp.start();
      s.hooks.fire('session_start', { source: 'milk' });
      bus.requestRender();
    },
  ];
  let tick: NodeJS.Immediate | null = null;
  const next = (): void => {
    steps.shift()?.();
    tick = steps.length ? setImmediate(next) : null;
  };
  const parts = loadParts(() => (tick = setImmediate(next)));
  return () => {
    parts.stop();
    if (tick) clearImmediate(tick);
  };
}

/** Each key puts the price table off (services.ts); the first text typed starts the warm-ups. */
function typing(s: Services, warm: { typed: () => void }): (text: boolean) => void {
  return (text) => {
    s.keyed();
    if (text) warm.typed();
  };
}

export function startApp(options: AppOptions): App {
  const bus = new Bus();
  // no-color.org: set and not empty means no colour.
  const s = services(bus, options);
  const ui = createScreen({
    output: options.output,
    color: !env(options).NO_COLOR,
    emoji: () => s.settings.emoji,
    ...lookAndFeel(s.settings, options, env(options)),
    italic: italicFor(env(options)),
    hyperlinks: () => s.settings.hyperlinks,
  });
  // The keys in force: the defaults with config.json's `keys` over them; what could not be taken is said.
  const { keymap, problems: keyProblems } = buildKeymap(options.keys ?? {});
  // Job control is installed after the views that hand the terminal over through it.
  let jobs: JobControl | null = null;
  const handOver = (run: () => Promise<void>): Promise<void> => (jobs ? jobs.handOver(run) : run());
  const { transcript, coordinator, status, painter } = views(bus, ui, s, options, keymap, handOver);
  const scheduler = frames(painter, () => jobs?.isHandedOver() === true);
  const warm = warmWhenTyping(warmUps(s, options.provider, coordinator));
  // A turn loads what it needs itself: readying a sample answer while the first real one streams is work done twice.
  bus.on('turn.started', () => warm.stop());
  // What the first turn compiled is kept for the next process's (src/code-cache.ts).
  bus.on('turn.ended', ({ status }) => status === 'done' && codeRan());
  bus.on('render.request', ({ streaming }) => scheduler.request(streaming === true));
  ui.screen.on('resize', () => scheduler.request());

  greet(bus, options, keymap);
  for (const w of [...(options.warnings ?? []), ...keyProblems]) s.warn(w);
  s.history.load();
  warmSearch(s.history.lists());
  resumeAsked(bus, s, coordinator, options.resume ?? null);
  askTrust(bus, s, coordinator, options);

  const { attention, answers } = terminalAnswers(bus, s, options, () => probe);
  const terminal = terminalInput(s, options, inputHandler(coordinator, keymap, bus, s.warn, typing(s, warm), answers));
  const repaint = (): void => {
    // The terminal was handed back (or is first taken): its title is milk's again, over the one pushed.
    attention.retitle();
    painter.paint();
  };
  jobs = installJobControl({ screen: ui.screen, terminal, paint: repaint });
  const probeRow = ui.screen.height as number;
  const probe = widthProbe(s.settings, jobs, probeRow);
  followSettings(s.settings, ui, bus, transcript, jobs);
  bus.on('app.suspend', () => jobs.suspend());
  bus.on('app.redraw', () => jobs.redraw());

  let stopAgentLoad = (): void => undefined;
  const screenStops = [
    () => stopAgentLoad(),
    () => probe.stop(),
    () => warm.stop(),
    () => jobs.uninstall(),
    () => status.stop(),
    () => scheduler.stop(),
  ];
  cleanUpAtExit(options.cleanup, s, [...screenStops, () => terminal.restore(), () => ui.destroy()]);
  options.cleanup.add('memory guard', memoryGuard(bus, s, options.cleanup));
  rulesProblems(s);
  const done = new Promise<void>((resolve) => bus.on('app.quit', () => resolve()));
  terminal.start();
  repaint();
  probe.start((data) => options.output.write(data), probeRow);
  stopAgentLoad = agentAfterPaint(bus, s);
  const scrollback = (): string => leftInScrollback(transcript, s, options);
  return { bus, coordinator, screen: ui, done, farewell: farewell(s, options.dataDir !== null), scrollback };
}

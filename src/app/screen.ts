// The composition root: builds milk's parts and connects them, and nothing
// else. A key press goes terminal → decoder → router (by the modes of the
// views on the composer) → coordinator → view stack and reducer → effects →
// render request → painter. See ARCHITECTURE.md.

import { Bus } from '../kernel/bus';
import { env, stopEditor, views } from './views';
import { AgentOptions, agentParts } from './agent';
import { sanitize } from '../protocol/inert';
import { Cleanup } from '../kernel/cleanup';
import { installMemoryGuard } from './memory-guard';
import type { ApprovalMode } from '../protocol/approvals';
import { TurnCoordinator } from '../composer/coordinator';
import { killLiveTools } from '../turn/runner';
import type { Provider } from '../providers/provider';
import { ProviderSwitch, describeModel } from '../providers/resume';
import { statusLines } from './status-lines';
import { tallyText } from '../providers/pricing/cost';
import { keyNotice, ollamaNotice, welcomeLines } from './welcome';
import { ProviderOrigin } from '../providers/select';
import { Attention, NotifyChoice } from '../tui/attention';
import type { TerminalFacts } from './doctor';
import type { SetupAnswers } from '../composer/views/provider-setup';
import { APPROVAL_MEANING } from '../settings/approval';
import { HistoryService, historyPaths } from '../history/service';
import { Sessions } from '../session/sessions';
import { type ExitTranscript, scrollbackText } from '../tui/scrollback';
import type { TranscriptModel } from '../tui/transcript-model';
import { PROJECT_SETTINGS, projectLines } from '../config/project-settings';
import type { JudgedSettings } from '../config/trust';
import { Keymap, buildKeymap } from '../tui/keymap';
import { routeChord } from '../tui/router';
import { InputAction, MAX_PASTE_CHARS } from '../tui/input';
import type { Routed } from '../tui/router';
import { JobControl, installJobControl } from '../tui/job-control';
import { followSettings, lookAndFeel, widthProbe } from '../tui/look';
import { createScreen, Screen } from '../tui/screen';
import { RenderScheduler } from '../tui/scheduler';
import { TerminalInput } from '../tui/terminal';
import { warmSearch } from '../tui/warm-search';
import { warmTranscript, warmWhenTyping } from '../tui/warm-up';
import { markdown, warmHighlighter } from '../markdown/parsers';
import { warmRender } from '../markdown/render';
import { WidthProbe } from '../tui/width-probe';
import {
  Background,
  HyperlinkChoice,
  ThemeChoice,
  backgroundOf,
  italicFor,
  mayAskBackground,
  parseColor,
} from '../settings/theme';

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
  resume?: (({ kind: 'continue' } | { kind: 'pick' } | { kind: 'id'; id: string }) & { fork?: boolean }) | null;
  /** Warnings found before the screen existed (e.g. a bad config file). */
  warnings?: string[];
  /** MCP servers (config mcpServers), started once the screen is up. */
  mcpServers?: AgentOptions['mcpServers'];
  /** Directories added to the workspace (--add-dir). */
  addDirs?: AgentOptions['addDirs'];
  /** What is left in the terminal's scrollback at quit: the whole conversation, its last turn, or nothing. */
  exitTranscript?: ExitTranscript;
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
  /** The palette (config `theme`): auto follows the terminal's background. */
  theme?: ThemeChoice;
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
  farewell(): string | null;
  /** The conversation for the terminal's scrollback once the screen is gone (exitTranscript); '' for none. */
  scrollback(): string;
}

/** The services: the agent's parts (app/agent.ts), and history and sessions around them. */
function services(bus: Bus, options: AppOptions) {
  const warn = (text: string): void => bus.emit('status.warning', { text: sanitize(text) });
  const trusted = options.workspaceSettings?.state === 'trusted' ? options.workspaceSettings.read.settings : undefined;
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
  settleWhenIdle(bus, parts);
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
  return { ...parts, warn, history, sessions, sessionInfo, statusInfo, terminalFacts };
}

export type Services = ReturnType<typeof services>;

/** How long milk waits, idle after a turn, before it loads the price table (never during a turn or start-up). */
const PRICES_AFTER_IDLE_MS = 2000;

/** Prices that wait for the table are settled once milk is idle a while after a turn; the status bar shows them. */
function settleWhenIdle(bus: Bus, parts: ReturnType<typeof agentParts>): void {
  let timer: NodeJS.Timeout | null = null;
  bus.on('turn.started', () => {
    if (timer) clearTimeout(timer);
    timer = null;
  });
  bus.on('turn.ended', () => {
    if (!parts.spending.unsettled) return;
    timer = setTimeout(() => {
      timer = null;
      if (parts.runner.busy) return;
      parts.spending.settle();
      bus.requestRender();
    }, PRICES_AFTER_IDLE_MS);
    timer.unref();
  });
}

/** The approval rules: what was wrong with their file said once the screen is up (app/agent.ts keeps them). */
function rulesProblems(s: Services): void {
  void s.rulesRead.then(({ problems }) => {
    for (const p of problems) s.warn(p);
  });
}

/** The heap guard: a turn that grows the heap too far is stopped; past that, milk exits cleanly. */
function memoryGuard(bus: Bus, s: Services, cleanup: Cleanup): () => void {
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

/**
 * A workspace whose own settings the person has not judged (or that changed since): what they would turn on, then the
 * question; until it is answered only the person's own config applies.
 */
function askTrust(bus: Bus, s: Services, coordinator: TurnCoordinator, options: AppOptions): void {
  const w = options.workspaceSettings;
  if (!w) return;
  const note = (text: string): void => bus.emit('transcript.note', { text: sanitize(text) });
  if (w.state === 'trusted') {
    for (const p of w.read.problems) s.warn(`${PROJECT_SETTINGS}: ${p}`);
    return;
  }
  if (w.state === 'refused') return note(`${PROJECT_SETTINGS} is not applied: you said never (milk trust applies it)`);
  const on = projectLines(w.read.settings);
  // Nothing in it milk could use (not JSON, only unknown keys): nothing to trust, only what is wrong with it.
  if (on.length === 0) {
    for (const p of w.read.problems) s.warn(`${PROJECT_SETTINGS}: ${p}`);
    return;
  }
  note(
    [
      `This workspace has ${PROJECT_SETTINGS}; trusting it would turn on:`,
      ...on.map((l) => `  ${l}`),
      ...w.read.problems.map((p) => `  (left out: ${p})`),
      'Until you trust it, only your own config applies.',
    ].join('\n'),
  );
  const choices = [
    'Trust it (kept for this workspace)',
    'Not now (asked again next time)',
    'Never (milk trust changes it)',
  ];
  coordinator.askOwn(`Trust this workspace's ${PROJECT_SETTINGS}?`, choices, (answer) => {
    const pick = answer.kind === 'option' ? answer.index : 1;
    if (pick === 1) return note(`${PROJECT_SETTINGS} not applied for now; milk asks again next time`);
    const kept = w.trust.set(options.workspace, pick === 0 ? 'trusted' : 'refused', w.read.sha256);
    if (kept) s.warn(kept);
    if (pick === 2) return note(`${PROJECT_SETTINGS} will not be applied (milk trust applies it)`);
    s.applyProject(w.read.settings);
    // Trusted after start-up: its own session_start hooks run now (the person's ran at the start).
    s.hooks.fire('session_start', { source: 'milk' }, undefined, PROJECT_SETTINGS);
    note(`trusted: ${PROJECT_SETTINGS} is in force (milk untrust takes it back)`);
  });
}

/** Brings back the conversation the flags asked for, if any. */
function resume(bus: Bus, s: Services, coordinator: TurnCoordinator, how: AppOptions['resume']): void {
  const note = (text: string): void => bus.emit('transcript.note', { text: sanitize(text) });
  const fork = how?.fork === true;
  if (how?.kind === 'continue' && !s.sessions.continueLast(fork))
    note('no earlier conversation in this session: a new one starts');
  if (how?.kind === 'id' && !s.sessions.resumeId(how.id, fork))
    s.warn(`no conversation ${how.id} in this session (/resume lists them); a new one starts`);
  if (how?.kind === 'pick' && !coordinator.openPicker(fork))
    note('no earlier conversations in this session: a new one starts');
}

/** What a decoded input does: the router names it by the views' modes, the coordinator takes it. */
function inputHandler(
  coordinator: TurnCoordinator,
  keymap: Keymap,
  bus: Bus,
  warn: (text: string) => void,
  typed: () => void,
  answers: {
    probe: () => WidthProbe;
    background: (background: Background) => void;
    focus: (focused: boolean) => void;
  },
) {
  // MILK_FAULT=keypress makes the next key throw, to prove the crash path restores the terminal.
  const fault = process.env.MILK_FAULT === 'keypress';
  // The first key of a chord (Ctrl+X), waiting for the second.
  let prefix: string | null = null;
  const take = (r: Routed): void => {
    if (r.kind === 'wheel') return bus.emit('input.wheel', { dir: r.dir });
    if (r.kind === 'mouse') return bus.emit('input.mouse', { event: r.event, x: r.x, y: r.y });
    if (r.kind === 'text') typed();
    coordinator.dispatch(r);
  };
  return (action: InputAction): void => {
    if (action.kind === 'cpr') return void answers.probe().answer(action.col);
    if (action.kind === 'background') {
      const rgb = parseColor(action.color);
      return rgb ? answers.background(backgroundOf(rgb)) : undefined;
    }
    if (action.kind === 'theme') return answers.background(action.background);
    if (action.kind === 'focus') return answers.focus(action.focused);
    if (fault) throw new Error('injected fault (MILK_FAULT=keypress)');
    if (action.kind === 'paste' && action.cut)
      warn(`the paste was cut at ${MAX_PASTE_CHARS.toLocaleString('en-US')} characters; the rest was dropped`);
    if (action.kind === 'paste' && action.unclosed)
      warn('a paste never ended (its end marker was lost); what came was taken as the paste');
    const step = routeChord(action, coordinator.keyModes(), prefix, keymap);
    prefix = step.prefix;
    for (const r of step.routed) take(r);
  };
}

/** What is readied in idle slices once the person starts typing, before the first answer needs it. */
function warmUps(s: Services, provider: AppOptions['provider'], coordinator: TurnCoordinator): (() => void)[] {
  return [
    () => markdown(),
    ...Array.from({ length: 4 }, () => () => warmRender(s.settings.emoji)),
    () => provider.warm?.(),
    () => coordinator.warmFiles(),
    ...warmHighlighter(),
    ...warmTranscript(() => s.settings.emoji),
  ];
}

/** The first line of the transcript: the provider, where help is, how to quit (by the keys in force). */
function greet(bus: Bus, options: AppOptions, keymap: Keymap): void {
  const provider = options.provider.name;
  const quitKeys = [keymap.key('idle', 'app.interrupt'), keymap.key('idle', 'editor.deleteOrQuit')]
    .filter(Boolean)
    .join(' or ');
  const quit = quitKeys ? ` · ${quitKeys} on an empty line to quit` : '';
  bus.emit('transcript.note', { text: sanitize(`milk · ${provider} · /help for keys${quit}`) });
  welcome(bus, options, keymap);
}

/**
 * With no model set up, a welcome that says how to connect one (and names an Ollama server if one answers, asked once
 * after start-up); with a key from the environment, which provider it chose.
 */
function welcome(bus: Bus, options: AppOptions, keymap: Keymap): void {
  const note = (text: string): void => bus.emit('transcript.note', { text: sanitize(text) });
  const p = options.provider;
  if (options.providerOrigin === 'env' && options.keyVariable && env(options)[options.keyVariable])
    note(keyNotice(p.name, p.model ?? '', options.keyVariable));
  if (options.providerOrigin !== 'default' || p.name !== 'offline') return;
  note(welcomeLines(keymap).join('\n'));
  const timer = setTimeout(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { probeOllama } = require('../providers/ollama') as typeof import('../providers/ollama');
    void probeOllama(env(options)).then((found) => {
      if (found) note(ollamaNotice(found.url, found.models));
    });
  }, OLLAMA_PROBE_AFTER_MS);
  timer.unref();
}

/** When the Ollama server is looked for: after the first frames, off the start-up path. */
const OLLAMA_PROBE_AFTER_MS = 500;

/** What exit undoes, in order: the screen (`screen`, in turn), the tools, the servers, then the conversation. */
function cleanUpAtExit(cleanup: Cleanup, s: Services, screen: (() => void)[]): void {
  cleanup.add('screen', () => {
    for (const stop of screen) stop();
  });
  // After the cancel (TERM), anything still alive in a tool's process group is killed: nothing outlives milk.
  cleanup.add('tools', killLiveTools);
  cleanup.add('editor', stopEditor);
  cleanup.add('mcp', () => s.mcp.stop());
  // Run in reverse: history first, then the turn is cancelled (its end is logged), then the log is flushed.
  cleanup.add('conversation', () => s.recorder.close());
  cleanup.add('turn', () => s.runner.cancel());
  // Registered last, so it runs first: entries reach the disk before anything else is torn down.
  cleanup.add('history', () => s.history.flush({ reason: 'exit' }));
}

/**
 * The line milk leaves in the terminal at exit, as Claude Code and Codex do: the conversation's id, the commands that
 * come back to it, and the tokens this session spent. None when nothing was written (or there is no data dir).
 */
/** The conversation as exitTranscript says, for the terminal's scrollback once the screen is gone. */
function leftInScrollback(transcript: TranscriptModel, s: Services, options: AppOptions): string {
  if (options.exitTranscript === 'none') return '';
  return scrollbackText(transcript.scrollback(options.exitTranscript ?? 'all'), {
    color: !env(options).NO_COLOR,
    whole: s.log.fileOf(s.recorder.conv),
  });
}

function farewell(s: Services, logged: boolean): () => string | null {
  return () => {
    const id = s.recorder.lastWritten;
    if (!logged || id === null) return null;
    s.spending.settle();
    const session = s.spending.session;
    const cost = session.requests > 0 ? ` · this session: ${tallyText(session)}` : '';
    return `milk: to come back to this conversation: milk -c, or milk --resume ${id}${cost}`;
  };
}

/**
 * What the terminal answers or reports, and where it goes: the width probe's cursor reports, its background (the
 * palette follows it unless the person chose one), and focus (milk calls for attention only when it is away).
 */
function terminalAnswers(bus: Bus, s: Services, options: AppOptions, probe: () => WidthProbe) {
  const attention = new Attention(bus, {
    write: (data) => options.output.write(data),
    place: options.displayName,
    notify: options.notify ?? 'bell',
    env: env(options),
  });
  const answers = {
    probe,
    background: (background: Background) => s.settings.setBackground(background),
    focus: (focused: boolean) => attention.focus(focused),
  };
  return { attention, answers };
}

/** The terminal's input side; what it found the terminal speaks is told to /doctor. */
function terminalInput(s: Services, options: AppOptions, handler: (action: InputAction) => void): TerminalInput {
  const terminal = new TerminalInput(options.input, options.output, handler, undefined, mayAskBackground(env(options)));
  s.terminalFacts.keyboard = () => terminal.keyboardProtocol;
  s.terminalFacts.sync = () => terminal.syncOutput;
  return terminal;
}

/** The instruction files and the environment are read once the screen is up, and again for each new conversation. */
function loadAgentLater(bus: Bus, s: Services): void {
  const loadAgent = (): void => {
    for (const problem of s.agent.load()) s.warn(problem);
  };
  setImmediate(loadAgent);
  bus.on('session.new', loadAgent);
}

/** Frames as the screen asks for them; none while another program (the external editor) has the terminal. */
function frames(painter: { paint(): void }, handedOver: () => boolean): RenderScheduler {
  return new RenderScheduler(() => {
    if (!handedOver()) painter.paint();
  });
}

export function startApp(options: AppOptions): App {
  const bus = new Bus();
  // no-color.org: set and not empty means no colour.
  const s = services(bus, options);
  const ui = createScreen({
    output: options.output,
    color: !env(options).NO_COLOR,
    emoji: () => s.settings.emoji,
    background: lookAndFeel(s.settings, options, env(options)),
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
  bus.on('render.request', ({ streaming }) => scheduler.request(streaming === true));
  ui.screen.on('resize', () => scheduler.request());

  greet(bus, options, keymap);
  for (const w of [...(options.warnings ?? []), ...keyProblems]) s.warn(w);
  s.history.load();
  warmSearch(s.history.lists());
  resume(bus, s, coordinator, options.resume ?? null);
  askTrust(bus, s, coordinator, options);

  const { attention, answers } = terminalAnswers(bus, s, options, () => probe);
  const terminal = terminalInput(s, options, inputHandler(coordinator, keymap, bus, s.warn, warm.typed, answers));
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

  const screenStops = [
    () => probe.stop(),
    () => warm.stop(),
    () => jobs.uninstall(),
    () => status.stop(),
    () => scheduler.stop(),
  ];
  cleanUpAtExit(options.cleanup, s, [...screenStops, () => terminal.restore(), () => ui.destroy()]);
  options.cleanup.add('memory guard', memoryGuard(bus, s, options.cleanup));
  loadAgentLater(bus, s);
  rulesProblems(s);
  const done = new Promise<void>((resolve) => bus.on('app.quit', () => resolve()));
  terminal.start();
  repaint();
  probe.start((data) => options.output.write(data), probeRow);
  // The MCP servers start after the first paint: start-up never waits on them; nor on the session_start hooks.
  setImmediate(() => {
    void s.mcp.start();
    s.hooks.fire('session_start', { source: 'milk' });
  });
  const scrollback = (): string => leftInScrollback(transcript, s, options);
  return { bus, coordinator, screen: ui, done, farewell: farewell(s, options.dataDir !== null), scrollback };
}

// Builds milk's parts and connects them, and nothing else. A key press goes
// terminal → decoder → router (by the coordinator's mode) → bus → coordinator
// → composer reducer → effects → render request → painter. See ARCHITECTURE.md.

import { Bus } from './bus';
import { Cleanup } from './cleanup';
import { TurnCoordinator } from './composer/coordinator';
import { TurnRunner, killLiveTools } from './turn/runner';
import type { Provider } from './providers/provider';
import { HistoryService, historyPaths } from './history/service';
import { Settings } from './settings/store';
import { SessionLog, sessionLogPath } from './session/log';
import { SessionRecorder } from './session/recorder';
import { Sessions } from './session/sessions';
import { helpLines, keyFor } from './tui/keymap';
import { Painter } from './tui/painter';
import { route } from './tui/router';
import { InputAction, MAX_PASTE_CHARS } from './tui/input';
import { installJobControl } from './tui/job-control';
import { createScreen, Screen } from './tui/screen';
import { RenderScheduler } from './tui/scheduler';
import { StatusModel } from './tui/status-model';
import { TerminalInput } from './tui/terminal';
import { TranscriptFeed } from './tui/transcript-feed';
import { TranscriptModel } from './tui/transcript-model';
import { warmSearch } from './tui/warm-search';
import { warmWhenTyping } from './tui/warm-up';
import { copyAnswer } from './tui/copy';
import { markdown } from './markdown/render';
import { WidthProbe } from './tui/width-probe';
import { emojiWidths, setEmojiWidths } from './editor/width';

export interface AppOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  sessionId: string;
  provider: Provider;
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
  /** Which conversation to bring back: the last, one by id, or a picker; none starts a new one. */
  resume?: { kind: 'continue' } | { kind: 'pick' } | { kind: 'id'; id: string } | null;
  /** Warnings found before the screen existed (e.g. a bad config file). */
  warnings?: string[];
}

export interface App {
  readonly bus: Bus;
  readonly coordinator: TurnCoordinator;
  readonly screen: Screen;
  /** Resolves when the person quits. */
  readonly done: Promise<void>;
}

export function startApp(options: AppOptions): App {
  const bus = new Bus();
  // no-color.org: set and not empty means no colour.
  const ui = createScreen({ output: options.output, color: !process.env.NO_COLOR });
  const settings = new Settings({ provider: options.provider.name, model: options.provider.model ?? null });
  const runner = new TurnRunner(bus, options.provider, { workspace: options.workspace, settings, ...options.answer });
  const history = new HistoryService({
    settings,
    dataDir: options.dataDir,
    sessionId: options.sessionId,
    workspace: options.workspace,
    displayName: options.displayName,
    maxEntries: options.maxEntries,
    warn: (text) => bus.emit('status.warning', { text }),
  });
  const transcript = new TranscriptModel(ui.transcript.size().width);
  const feed = new TranscriptFeed(bus, transcript);
  const warn = (text: string): void => bus.emit('status.warning', { text });
  const logFile = options.dataDir === null ? null : sessionLogPath(options.dataDir, options.sessionId);
  const log = new SessionLog(logFile, warn);
  // A provider that names no model (offline, script) is logged under its own name, as it always was.
  const modelName = (): string => settings.model ?? settings.provider;
  const recorder = new SessionRecorder(bus, log, () => ({ provider: settings.provider, model: modelName(), workspace: options.workspace }));
  const sessions = new Sessions(bus, runner, log, recorder, options.answer?.maxKeptChars);
  const paths = options.dataDir === null ? null : historyPaths(options.dataDir, options.sessionId);
  const sessionInfo = (): string[] => [
    `session ${options.sessionId} · workspace ${options.workspace}`,
    `conversation ${recorder.conv} · provider ${settings.provider} · model ${modelName()}`,
    paths && logFile ? `files: ${logFile}, ${paths.session}, ${paths.global}` : 'files: none (no data dir; history in memory only)',
  ];
  const view = {
    clear: (): void => {
      transcript.clear();
      bus.requestRender();
    },
    copyLastAnswer: (): string => copyAnswer(feed.lastAnswer, options.dataDir, (data) => options.output.write(data)),
  };
  const coordinator = new TurnCoordinator(bus, runner, history, { keyHelp: helpLines, sessions, sessionInfo, view });
  const status = new StatusModel(bus, {
    sessionId: options.sessionId,
    historyMode: () => history.mode,
    busySince: () => feed.busySince,
    queued: () => coordinator.queue.length,
    force: () => coordinator.force,
    always: () => settings.alwaysTools(),
    prompt: () => coordinator.status().prompt,
    legend: () => coordinator.status().legend,
    providerHint: () => options.provider.hint ?? `${settings.provider} · ${settings.model}`,
  });
  const overlayKeys = { scope: keyFor('search', 'search.toggleScope'), remove: keyFor('search', 'search.delete') };
  const painter = new Painter(ui, bus, {
    editor: () => coordinator.editor,
    highlight: () => coordinator.highlight,
    transcript,
    status,
    picker: () => coordinator.paint().picker?.picker ?? null,
    overlay: () => {
      const o = coordinator.paint().overlay;
      return o && { overlay: o.overlay, entries: o.entries, scope: history.mode, keys: overlayKeys };
    },
  });
  const scheduler = new RenderScheduler(() => painter.paint());
  warmWhenTyping(bus, [() => markdown(), () => options.provider.warm?.()]);
  bus.on('render.request', ({ streaming }) => scheduler.request(streaming === true));
  ui.screen.on('resize', () => scheduler.request());

  bus.emit('transcript.note', { text: `milk · ${options.provider.name} · /help for keys · Ctrl-C or Ctrl-D on an empty line to quit` });
  for (const w of options.warnings ?? []) bus.emit('status.warning', { text: w });
  history.load();
  warmSearch(history.lists());
  const resume = options.resume ?? null;
  if (resume?.kind === 'continue' && !sessions.continueLast()) bus.emit('transcript.note', { text: 'no earlier conversation in this session: a new one starts' });
  if (resume?.kind === 'id' && !sessions.resumeId(resume.id)) warn(`no conversation ${resume.id} in this session (/resume lists them); a new one starts`);
  if (resume?.kind === 'pick' && !coordinator.openPicker()) bus.emit('transcript.note', { text: 'no earlier conversations in this session: a new one starts' });

  // MILK_FAULT=keypress makes the next key throw, to prove the crash path restores the terminal.
  const fault = process.env.MILK_FAULT === 'keypress';
  const onInput = (action: InputAction): void => {
    if (action.kind === 'cpr') return void probe.answer(action.col);
    if (fault) throw new Error('injected fault (MILK_FAULT=keypress)');
    if (action.kind === 'paste' && action.cut) warn(`the paste was cut at ${MAX_PASTE_CHARS.toLocaleString('en-US')} characters; the rest was dropped`);
    if (action.kind === 'paste' && action.unclosed) warn('a paste never ended (its end marker was lost); what came was taken as the paste');
    // Each Routed pairs an event with its own payload type; TypeScript can't follow that through the union.
    for (const r of route(action, coordinator.keyModes())) bus.emit(r.event, r.payload as never);
  };
  const terminal = new TerminalInput(options.input, options.output, onInput);
  const jobs = installJobControl({ screen: ui.screen, terminal, paint: () => painter.paint() });
  // How wide this terminal draws emoji sequences: asked once, then everything is laid out and drawn that way.
  const probeRow = ui.screen.height as number;
  const probe = new WidthProbe((widths) => {
    // Widths as assumed: only the row the probes were drawn on needs writing again.
    if (!widths || JSON.stringify(widths) === JSON.stringify(emojiWidths())) return jobs.redrawRow(Math.max(2, probeRow) - 1);
    setEmojiWidths(widths);
    transcript.relayout();
    jobs.redraw();
  });
  bus.on('app.suspend', () => jobs.suspend());
  bus.on('app.redraw', () => jobs.redraw());

  options.cleanup.add('screen', () => {
    probe.stop();
    jobs.uninstall();
    status.stop();
    scheduler.stop();
    terminal.restore();
    ui.destroy();
  });
  // After the cancel (TERM), anything still alive in a tool's process group is killed: nothing outlives milk.
  options.cleanup.add('tools', killLiveTools);
  // Run in reverse: history first, then the turn is cancelled (its end is logged), then the log is flushed.
  options.cleanup.add('conversation', () => recorder.close());
  options.cleanup.add('turn', () => runner.cancel());
  // Registered last, so it runs first: entries reach the disk before anything else is torn down.
  options.cleanup.add('history', () => history.flush({ reason: 'exit' }));

  const done = new Promise<void>((resolve) => bus.on('app.quit', () => resolve()));
  terminal.start();
  painter.paint();
  probe.start((data) => options.output.write(data), probeRow);
  return { bus, coordinator, screen: ui, done };
}

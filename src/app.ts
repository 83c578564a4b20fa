// Wires the bus, the services and the screen together, and nothing else:
// keys → router → commands on the bus → controller/runner → state events →
// one coalesced paint.

import { Bus } from './bus';
import { Cleanup } from './cleanup';
import { Controller } from './controller';
import { TurnRunner } from './agent/runner';
import type { Provider } from './agent/provider';
import { HistoryService } from './history/service';
import { warmSearch } from './search/warm';
import { route } from './tui/router';
import type { InputAction } from './tui/input';
import { createScreen, Screen } from './tui/screen';
import { RenderScheduler } from './tui/scheduler';
import { TerminalInput } from './tui/terminal';
import { composerView, statusRow, transcriptRows } from './tui/views';

const WARNING_MS = 15_000;

export interface AppOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  sessionId: string;
  provider: Provider;
  cleanup: Cleanup;
  dataDir: string;
  /** Canonical workspace path. */
  workspace: string;
  /** How the session is shown: its name, or the workspace folder's. */
  displayName: string;
  maxEntries: number;
  /** Warnings found before the screen existed (e.g. a bad config file). */
  warnings?: string[];
}

export interface App {
  readonly bus: Bus;
  readonly controller: Controller;
  readonly screen: Screen;
  /** Resolves when the person quits. */
  readonly done: Promise<void>;
}

export function startApp(options: AppOptions): App {
  const bus = new Bus();
  const ui = createScreen({ output: options.output });
  const runner = new TurnRunner(bus, options.provider, { workspace: options.workspace });
  let composerTop = 0;
  let warning: string | null = null;
  const history = new HistoryService({
    dataDir: options.dataDir,
    sessionId: options.sessionId,
    workspace: options.workspace,
    displayName: options.displayName,
    maxEntries: options.maxEntries,
    warn: (text) => bus.emit('status.warning', { text }),
  });
  const controller = new Controller(bus, runner, history, ui.transcript.size().width);
  // A warning shows in the status bar for a while, and stays in the transcript
  // so none is lost when the next one replaces it.
  let warningTimer: NodeJS.Timeout | null = null;
  bus.on('status.warning', ({ text }) => {
    warning = text;
    if (warningTimer) clearTimeout(warningTimer);
    warningTimer = setTimeout(() => {
      warning = null;
      bus.requestRender();
    }, WARNING_MS);
    warningTimer.unref();
    bus.emit('transcript.note', { text: `warning: ${text}` });
  });
  bus.emit('transcript.note', { text: `milk · ${options.provider.name} · /help for keys · Ctrl-C or Ctrl-D on an empty line to quit` });
  for (const w of options.warnings ?? []) bus.emit('status.warning', { text: w });
  history.load();
  warmSearch(history.lists());
  let cursor = { row: 0, col: 0 };

  const paint = (): void => {
    const width = ui.composer.size().width;
    const searching = controller.searchView;
    const highlight = searching?.highlight ?? undefined;
    // The composer grows with its content up to its maximum, then scrolls to the cursor.
    const view = composerView(controller.editor, width, ui.maxComposerRows(), composerTop, highlight);
    ui.setComposerRows(view.contentRows);
    composerTop = view.top;
    ui.composer.setRows(view.rows);
    cursor = { row: view.cursorRow, col: view.cursorCol };

    const t = ui.transcript.size();
    controller.setTranscriptSize(t.width, t.height);
    ui.transcript.setRows(transcriptRows(controller.transcript, t.height));
    ui.status.setRows([
      statusRow(
        {
          sessionId: options.sessionId,
          historyMode: history.mode,
          busySince: controller.busySince,
          now: Date.now(),
          queued: controller.queue.length,
          warning,
          hint: options.provider.hint ?? null,
          prompt: controller.approval ? `run ${controller.approval.summary}?  y yes · n no · a always` : searching?.prompt ?? null,
          force: controller.force,
        },
        ui.status.size().width,
      ),
    ]);
    ui.screen.render();
  };

  // The terminal cursor sits where the next character will land in the composer.
  ui.screen.on('render', () => {
    const box = ui.composer.box;
    ui.screen.program.cup((box.atop as number) + 1 + cursor.row, (box.aleft as number) + 1 + cursor.col);
    ui.screen.program.showCursor();
  });

  const scheduler = new RenderScheduler(paint);
  bus.on('render.request', () => scheduler.request());
  ui.screen.on('resize', () => scheduler.request());

  // A spinner tick while a turn runs.
  const ticker = setInterval(() => {
    if (controller.busySince !== null) scheduler.request();
  }, 100);

  // MILK_FAULT=keypress makes the next key throw, to prove the crash path restores the terminal.
  const fault = process.env.MILK_FAULT === 'keypress';
  const onInput = (action: InputAction): void => {
    if (fault) throw new Error('injected fault (MILK_FAULT=keypress)');
    // Each Routed pairs an event with its own payload type; TypeScript can't follow that through the union.
    for (const r of route(action, controller.mode, controller.composerMode)) bus.emit(r.event, r.payload as never);
  };
  const terminal = new TerminalInput(options.input, options.output, onInput);

  options.cleanup.add('screen', () => {
    clearInterval(ticker);
    scheduler.stop();
    terminal.restore();
    ui.destroy();
  });
  options.cleanup.add('turn', () => runner.cancel());
  // Registered last, so it runs first: entries reach the disk before anything else is torn down.
  options.cleanup.add('history', () => history.flush({ reason: 'exit' }));

  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  bus.on('app.quit', () => finish());

  terminal.start();
  paint();
  return { bus, controller, screen: ui, done };
}

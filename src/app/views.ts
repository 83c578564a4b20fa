// The screen's parts, for the composition root (app/screen.ts): the transcript and
// its feed, the coordinator with what it is handed (prompt commands, the
// workspace's paths for @), the status bar and the painter.

import { redactUrl } from '../kernel/redact';
import type { AppOptions, Services } from './screen';
import type { Bus } from '../kernel/bus';
import { TurnCoordinator } from '../composer/coordinator';
import type { TurnPort } from '../composer/coordinator-types';
import { copyAnswer } from '../tui/copy';
import type { Keymap } from '../tui/keymap';
import { Painter } from '../tui/painter';
import type { Screen } from '../tui/screen';
import { StatusModel } from '../tui/status-model';
import { ChecklistPanel } from '../tui/checklist-panel';
import { queuedPaint, stacked } from '../tui/queued-panel';
import { TranscriptFeed } from '../tui/transcript-feed';
import { TranscriptModel } from '../tui/transcript-model';
import {
  spendInfo,
  agentInfo,
  memoryFor,
  pastedImages,
  checksFor,
  providerSetup,
  mentionFiles,
  addDirFor,
  rewindFiles,
  lookingAround,
} from './coordinator-options';
import { statusSources, transcriptKeys, selection } from './transcript-parts';
import { promptCommands } from './command-loaders';
import { env, HandOver, editorModule } from './env';
import { aboutMilk } from './about';

/**
 * The runner as the coordinator drives it: idle until the agent is made (after the first paint), and a turn asked
 * for sooner makes it then.
 */
function lateRunner(s: Services): TurnPort {
  const made = () => s.late.made()?.runner;
  return {
    get busy() {
      return made()?.busy === true;
    },
    get settings() {
      return s.settings;
    },
    get firstTurn() {
      return made()?.firstTurn ?? null;
    },
    get rewindable() {
      return made()?.rewindable ?? [];
    },
    effort: () => s.runner.effort(),
    cancel: () => made()?.cancel() ?? false,
    start: (input, options) => s.runner.start(input, options),
    runOwn: (command, options) => s.runner.runOwn(command, options),
    compact: (focus) => s.runner.compact(focus),
    steer: (text, display, segments) => s.runner.steer(text, display, segments),
    rewind: (index) => s.runner.rewind(index),
  };
}

/** /model's list: the provider's server and how its models are listed, where it lists them. */
function modelsOf(s: Services) {
  const list = s.provider.listModels;
  return list ? { server: redactUrl(s.provider.baseUrl ?? s.provider.name), list } : null;
}

/** The screen's parts: the transcript and its feed, the coordinator, the status bar and the painter. */
/** What the coordinator takes of the options as they are. */
function pick<K extends keyof AppOptions>(options: AppOptions, ...keys: K[]): Pick<AppOptions, K> {
  return Object.fromEntries(keys.map((k) => [k, options[k]])) as Pick<AppOptions, K>;
}

export function views(bus: Bus, ui: Screen, s: Services, options: AppOptions, keys: Keymap, handOver: HandOver) {
  // Without colour, strike-through keeps its ~~: SGR 9 alone may not show.
  const transcript = new TranscriptModel(
    ui.transcript.size().width,
    { marks: Boolean(env(options).NO_COLOR) },
    keys.key('idle', 'transcript.toggleFold'),
  );
  const feed = new TranscriptFeed(bus, transcript, keys);
  const checklist = new ChecklistPanel(bus, () => s.late.made()?.runner.busy === true);
  const view = {
    clear: (): void => {
      transcript.clear();
      bus.requestRender();
    },
    copyLastAnswer: (): string => copyAnswer(feed.lastAnswer, options.dataDir, (data) => options.output.write(data)),
    toggleChecklist: (): string => checklist.toggle(),
  };
  const select = selection(bus, ui, s, options, transcript, () => coordinator);
  const coordinator = new TurnCoordinator(bus, lateRunner(s), s.history, {
    keys,
    transcript: transcriptKeys(transcript, select, ui),
    // Read when used: the agent and its conversations are made after the first paint (app/services.ts).
    get sessions() {
      return s.sessions;
    },
    ...pick(options, 'workspace', 'editingMode'),
    sessionInfo: s.sessionInfo,
    ...agentInfo(s, options, bus),
    ...spendInfo(s),
    providerSetup: providerSetup(s, options),
    images: pastedImages(options),
    models: () => modelsOf(s),
    ...checksFor(s, options),
    about: aboutMilk,
    get permissionsFile() {
      return s.permissions.file;
    },
    ...rewindFiles(s),
    view,
    editExternally: (text) => editorModule().editExternally(text, options.dataDir, handOver),
    files: mentionFiles(options.workspace, () => s.settings.dirs),
    addDir: addDirFor(s, options.workspace),
    get mcp() {
      return s.mcp.forSlash;
    },
    ...lookingAround(s, options),
    memory: memoryFor(s, options, handOver),
    prompts: promptCommands(s),
  });
  const status = new StatusModel(bus, statusSources(s, options, keys, feed, coordinator));
  const painter = new Painter(ui, bus, {
    transcript,
    status,
    keys,
    emoji: () => s.settings.emoji,
    historyMode: () => s.settings.historyMode,
    frame: () => coordinator.frame(),
    panel: () => stacked(checklist.paint(), queuedPaint(coordinator.queue)),
    marks: () => select.marks(),
  });
  return { transcript, coordinator, status, painter };
}

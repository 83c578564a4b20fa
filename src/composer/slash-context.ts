// What a slash command is handed: the services themselves, as app/ gives them to the composer
// (coordinator-types.ts's ports, each absent where a front end has none), the turn runner, the input history and
// the settings, and what only the coordinator can do (its pickers and views). A command that uses a service already
// listed touches no file but its own; what it says when the service is absent is its own words.

import type { TurnPort } from './coordinator-types';
import type { Bus } from '../kernel/bus';
import type { CommandName, KeyNames, Mode } from './views/registry';
import type { Settings } from '../settings/store';
import type { HistoryService } from '../history/service';
import type { CoordinatorOptions } from './coordinator-types';
import type { ComposerInput, Input } from './state';
import type { View } from './views/view';

export interface SlashContext {
  /** A dim line in the transcript, never sent to the model. */
  note(text: string): void;
  /** The keys as bound now, for what a command says about them. */
  readonly keys: KeyNames;
  /** Runs a named command, as its key would. */
  run(command: CommandName): void;
  quit(): void;
  /** The runtime facts: the model, force mode, the tools on "always", the history mode. */
  readonly settings: Settings;
  /** The turns: whether one runs, the effort asked, compacting, a turn started. */
  readonly runner: TurnPort;
  /** The input history: its counts, and which list Up/Down and search walk. */
  readonly history: HistoryService;
  /** The services app/ gives the composer: sessions, MCP servers, shells, secrets, memory, the screen's parts… */
  readonly services: CoordinatorOptions;
  /** What the coordinator itself opens and does. */
  readonly screen: SlashScreen;
}

/** What only the coordinator can do for a command: the views it opens and the composer's own state. */
export interface SlashScreen {
  /** The composer's own mode (idle or busy), whose keys /help lists first. */
  composerMode(): Mode;
  newConversation(): void;
  /** Opens the resume picker; false when the session has no earlier conversation. */
  openPicker(): boolean;
  /** Opens the rewind picker; what is wrong, or null once it is open. */
  openRewind(): string | null;
  /** /undo: offers the files the last turn changed back as they were. */
  undo(): void;
  /** /diff: the workspace's changes since input `input` (1-based) or since the conversation began (null). */
  showDiff(input: number | null): void;
  /** /search: every conversation searched; the matches in a picker that opens one at its match. */
  searchLogs(query: string): void;
  /** /model: opens the model picker (the server asked for its models); what is wrong, or null once it is open. */
  openModelPicker(): string | null;
  /** Opens a view over the composer (its file's opener made it: /help's). */
  open(view: View): void;
  /** Sends an input into the running turn, before its next model request (idle: as a turn of its own). */
  steer(input: Input): void;
  /** The composer hears that the history walked is another one now. */
  dispatch(input: ComposerInput): void;
}

/** The coordinator's parts a slash command reaches. */
export interface SlashHost extends SlashScreen {
  readonly bus: Bus;
  readonly runner: TurnPort;
  readonly history: HistoryService;
  readonly options: CoordinatorOptions;
  note(text: string): void;
}

export function slashContext(host: SlashHost): SlashContext {
  return {
    note: (text) => host.note(text),
    keys: host.options.keys,
    run: (name: CommandName) => host.dispatch({ kind: 'command', name }),
    quit: () => host.bus.emit('app.quit', { reason: 'slash' }),
    settings: host.runner.settings,
    runner: host.runner,
    history: host.history,
    services: host.options,
    screen: host,
  };
}

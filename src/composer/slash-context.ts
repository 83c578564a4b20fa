// What slash commands may do (their handlers in slash-commands.ts), and how
// it is made from the coordinator's parts: a handler acts on the session, the
// history, the MCP servers and the screen only through this.

import type { Input } from './state';
import type { Bus } from '../kernel/bus';
import type { Effort } from '../settings/effort';
import type { CommandName, KeyNames, Mode } from '../kernel/commands';
import type { HistoryMode, Settings } from '../settings/store';
import type { HistoryService } from '../history/service';
import { turnRunning } from './slash-commands';
import type { TurnRunner } from '../turn/runner';
import type { CoordinatorOptions } from './coordinator-types';
import type { ComposerInput } from './state';

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
  readonly history: {
    counts(): Record<HistoryMode, number>;
    /** Walks the other list from now on (any browse ends). */
    switchTo(mode: HistoryMode): void;
  };
  readonly session: {
    /** A turn is running. */
    busy(): boolean;
    startNew(): void;
    /** Opens the resume picker; false when the session has no earlier conversation. */
    openPicker(): boolean;
    /** Lines describing the session: id, workspace, files, provider and model. */
    info(): string[];
    /** Lines describing what the model is sent: the system prompt's parts and sizes, the instruction files. */
    context(): string[];
    /** The subagents the task tool can hand work to, one line each. */
    agents(): string[];
    /** The hooks configured, by event. */
    hooks(): string[];
    /** /status: the conversation, the model, the mode, the context's use, the tokens spent. */
    status(): string[];
    /** /cost: the tokens spent this session. */
    cost(): string[];
    /** The reasoning effort the next request asks (the person's, else the model's in config.json). */
    effort(): Effort | undefined;
    /** /doctor: looks around (a few seconds at most) and notes what it found. */
    doctor(): void;
    /** /model: opens the model picker (the server asked for its models); what is wrong, or null once it is open. */
    pickModel(): string | null;
    /** /provider: opens the set-up; false while a turn runs. */
    setupProvider(): boolean;
    /** Sends `text` to the model as a turn, shown in the transcript as `display`; false while a turn runs. */
    ask(text: string, display: string): boolean;
    /** Sends `text` into the running turn, before its next model request (idle: as a turn of its own). */
    steer(text: string): void;
    /** Opens the rewind picker; what is wrong, or null once it is open. */
    rewind(): string | null;
    /** /undo: offers the files the last turn changed back as they were. */
    undo(): void;
    /** /search: every conversation searched; the matches in a picker that opens one at its match. */
    search(query: string): void;
    /** /diff: the workspace's changes since input `input` (1-based) or since the conversation began (null). */
    diff(input: number | null): void;
    /** Replaces the conversation, for the model, by its summary; what went wrong, or null once it started. */
    compact(focus?: string): string | null;
    /** /export: writes the conversation to a file (by default milk-ID.md in the workspace); what to tell the person. */
    exportTo(file?: string): string;
    /** /fork: the conversation goes on in a copy from here; what to tell the person. */
    fork(): string;
    /** /add-dir: a directory the file tools, @ and the sandbox reach from now on; what to tell the person. */
    addDir(dir: string): string;
  };
  /** The MCP servers (tools/mcp.ts). */
  readonly mcp: {
    /** One line per server (state, why, tools), or why there are none. */
    lines(): string[];
    /** False for a name not configured. */
    restart(name: string): boolean;
  };
  readonly memory: {
    /** Opens the instruction files in the person's editor; says how it went. */
    edit(): void;
  };
  /** /secrets: what was masked before it was sent, and a value let through. */
  readonly secrets: {
    lines(): string[];
    allow(which: string): string;
  };
  readonly shells: {
    /** One line per background command (id, running time or how it ended, the command, its last line). */
    lines(): string[];
    /** Ends background command `id`; what to tell the person. */
    kill(id: number): string;
  };
  readonly permissions: {
    /** Where the rules are kept; null without a data dir. */
    readonly file: string | null;
  };
  readonly screen: {
    /** Empties the transcript on screen (the log keeps everything). */
    clear(): void;
    /** Copies the last answer (clipboard by OSC 52, and a file); returns what to tell the person. */
    copyLastAnswer(): string;
    /** Folds the checklist panel to its count, or unfolds it; returns what to tell the person. */
    toggleChecklist(): string;
    /** The key bindings of the current mode, one line each. */
    keyHelp(): string[];
    /** The prompt commands (personal, project, MCP), one line each, marked with their source. */
    promptHelp(): string[];
  };
}

/** The coordinator's parts a slash command reaches. */
export interface SlashHost {
  readonly bus: Bus;
  readonly runner: TurnRunner;
  readonly history: HistoryService;
  readonly options: CoordinatorOptions;
  note(text: string): void;
  dispatch(input: ComposerInput): void;
  /** The composer's own mode (idle or busy), whose keys /help lists first. */
  composerMode(): Mode;
  newConversation(): void;
  /** Opens the resume picker; false when there is nothing to resume. */
  openPicker(): boolean;
  /** Opens the rewind picker; what is wrong, or null once it is open. */
  openRewind(): string | null;
  undo(): void;
  showDiff(input: number | null): void;
  searchLogs(query: string): void;
  openProviderSetup(): boolean;
  openModelPicker(): string | null;
  steer(input: Input): void;
}

export function slashContext(host: SlashHost): SlashContext {
  return {
    note: (text) => host.note(text),
    keys: host.options.keys,
    run: (name: CommandName) => host.dispatch({ kind: 'command', name }),
    quit: () => host.bus.emit('app.quit', { reason: 'slash' }),
    settings: host.runner.settings,
    history: {
      counts: () => {
        host.history.refresh();
        return host.history.counts();
      },
      switchTo: (mode) => {
        host.history.mode = mode;
        host.dispatch({ kind: 'historySwitched' });
      },
    },
    session: {
      busy: () => host.runner.busy,
      effort: () => host.runner.effort(),
      startNew: () => host.newConversation(),
      openPicker: () => host.openPicker(),
      ...infoLines(host.options, (text) => host.note(text)),
      ...goingBack(host),
      setupProvider: () => host.openProviderSetup(),
      pickModel: () => host.openModelPicker(),
      ...conversationOf(host.options),
      steer: (text) => host.steer({ segments: [{ type: 'text', text }], text, display: text }),
      ask: (text, display) => {
        if (host.runner.busy) return false;
        host.runner.start(text, { display, segments: [{ type: 'text', text: display }] });
        return true;
      },
    },
    mcp: mcpOf(host.options),
    shells: shellsOf(host.options),
    secrets: {
      lines: () => host.options.secrets?.lines() ?? ['secrets are sent as they are here (maskSecrets is false)'],
      allow: (which) => host.options.secrets?.allow(which) ?? 'secrets are not masked here',
    },
    memory: memoryOf(host),
    permissions: { file: host.options.permissionsFile ?? null },
    screen: {
      clear: () => host.options.view?.clear(),
      copyLastAnswer: () => host.options.view?.copyLastAnswer() ?? 'nothing to copy',
      toggleChecklist: () => host.options.view?.toggleChecklist() ?? 'no checklist here',
      // The keys of the mode the person is in, then those a search adds (scope switch, delete).
      keyHelp: () => {
        const k = host.options.keys;
        const search = [
          k.key(host.composerMode(), 'history.searchReverse'),
          k.key(host.composerMode(), 'history.searchForward'),
        ]
          .filter(Boolean)
          .join(', ');
        return [...k.helpLines(host.composerMode()), '', `in a search (${search}):`, ...k.helpLines('search')];
      },
      promptHelp: () => host.options.prompts?.help() ?? [],
    },
  };
}

/** /rewind, /undo, /diff and /compact: the conversation or the workspace taken back, or looked back on. */
function goingBack(host: SlashHost): Pick<SlashContext['session'], 'rewind' | 'undo' | 'diff' | 'compact' | 'search'> {
  return {
    rewind: () => host.openRewind(),
    undo: () => host.undo(),
    search: (query) => host.searchLogs(query),
    diff: (input) => host.showDiff(input),
    compact: (focus) => {
      if (host.runner.busy) return turnRunning(host.options.keys);
      return host.runner.compact(focus) === null ? 'nothing to compact: the conversation is empty' : null;
    },
  };
}

function conversationOf(o: CoordinatorOptions): Pick<SlashContext['session'], 'exportTo' | 'fork' | 'addDir'> {
  return {
    exportTo: (file) => o.sessions?.exportTo(file, o.workspace ?? '.') ?? 'no conversation log here',
    fork: () => o.sessions?.fork() ?? 'no conversation log here',
    addDir: (dir) => o.addDir?.(dir) ?? 'no directories can be added here',
  };
}

function memoryOf(host: SlashHost): SlashContext['memory'] {
  return {
    edit: () => {
      const memory = host.options.memory;
      if (!memory) return host.note('no instructions files here');
      memory.edit().then(
        (said) => host.note(said),
        (err: Error) => host.note(`/memory: ${err.message}`),
      );
    },
  };
}

function shellsOf(o: CoordinatorOptions): SlashContext['shells'] {
  return {
    lines: () => o.shells?.lines() ?? ['no background commands here'],
    kill: (id) => o.shells?.kill(id) ?? 'no background commands here',
  };
}

function mcpOf(o: CoordinatorOptions): SlashContext['mcp'] {
  return {
    lines: () => o.mcp?.lines() ?? ["no MCP servers: add them as mcpServers in the data dir's config.json"],
    restart: (name) => o.mcp?.restart(name) ?? false,
  };
}

/** The lines /session, /context, /status and /cost show, as the app gathers them. */
function infoLines(
  o: CoordinatorOptions,
  note: (text: string) => void,
): Pick<SlashContext['session'], 'info' | 'context' | 'agents' | 'hooks' | 'status' | 'cost' | 'doctor'> {
  return {
    doctor: () => {
      if (!o.doctor) return note('no checks here');
      note('looking around…');
      void o.doctor().then((lines) => note(lines.join('\n')));
    },
    info: () => o.sessionInfo?.() ?? [],
    context: () => o.contextInfo?.() ?? [],
    agents: () => o.agentsInfo?.() ?? ['no subagents here'],
    hooks: () => o.hooksInfo?.() ?? ['no hooks here'],
    status: () => o.statusInfo?.() ?? [],
    cost: () => o.costInfo?.() ?? [],
  };
}

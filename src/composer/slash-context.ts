// What slash commands may do (slash-commands.ts's SlashContext), made from
// the coordinator's parts: a handler acts on the session, the history, the
// MCP servers and the screen only through this.

import type { Bus } from '../bus';
import type { CommandName, Mode } from '../commands';
import type { HistoryService } from '../history/service';
import { SlashContext, turnRunning } from '../slash-commands';
import type { TurnRunner } from '../turn/runner';
import type { CoordinatorOptions } from './coordinator-types';
import type { ComposerInput } from './state';

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
      startNew: () => host.newConversation(),
      openPicker: () => host.openPicker(),
      info: () => host.options.sessionInfo?.() ?? [],
      context: () => host.options.contextInfo?.() ?? [],
      rewind: () => host.openRewind(),
      compact: (focus) => {
        if (host.runner.busy) return turnRunning(host.options.keys);
        return host.runner.compact(focus) === null ? 'nothing to compact: the conversation is empty' : null;
      },
      ask: (text, display) => {
        if (host.runner.busy) return false;
        host.runner.start(text, { display, segments: [{ type: 'text', text: display }] });
        return true;
      },
    },
    mcp: {
      lines: () => host.options.mcp?.lines() ?? ['no MCP servers: add them as mcpServers in the data dir\'s config.json'],
      restart: (name) => host.options.mcp?.restart(name) ?? false,
    },
    permissions: {
      file: host.options.permissionsFile ?? null,
    },
    screen: {
      clear: () => host.options.view?.clear(),
      copyLastAnswer: () => host.options.view?.copyLastAnswer() ?? 'nothing to copy',
      // The keys of the mode the person is in, then those a search adds (scope switch, delete).
      keyHelp: () => {
        const k = host.options.keys;
        const search = [k.key(host.composerMode(), 'history.searchReverse'), k.key(host.composerMode(), 'history.searchForward')].filter(Boolean).join(', ');
        return [...k.helpLines(host.composerMode()), '', `in a search (${search}):`, ...k.helpLines('search')];
      },
      promptHelp: () => host.options.prompts?.help() ?? [],
    },
  };
}

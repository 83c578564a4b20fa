// The composer's whole state as one value (the editor, history navigation,
// an incremental search, the Ctrl-C burst), and the vocabulary the reducer
// speaks: what goes in (commands, typing, pastes, restored inputs) and what
// comes out (effects as data, carried out by the turn coordinator).
// Types and constants only.

import type { CommandName, Mode } from '../commands';
import * as ed from '../editor/model';
import * as nav from '../history/navigator';
import type { HistoryEntry } from '../history/rules';
import type { SearchState } from '../search/search';

export interface SearchSession {
  readonly state: SearchState;
  /** The composer and navigation as they were when the search began. */
  readonly original: ed.EditorState;
  readonly originalNav: nav.NavState;
  /** The list searched (the active history; Ctrl+T switches it). */
  readonly list: readonly HistoryEntry[];
  /** Asking whether to delete the selected entry. */
  readonly confirmDelete?: boolean;
}

export interface ComposerState {
  readonly editor: ed.EditorState;
  readonly nav: nav.NavState;
  readonly search: SearchSession | null;
  /** The query of the last accepted search, reused by Ctrl+R on an empty query. */
  readonly lastQuery: string | null;
  /** The last Ctrl-C press, and whether its burst began by cancelling a turn. */
  readonly burst: { readonly lastPress: number; readonly cancelling: boolean };
}

export const initialComposer: ComposerState = {
  editor: ed.emptyEditor,
  nav: nav.idleNav,
  search: null,
  lastQuery: null,
  burst: { lastPress: -Infinity, cancelling: false },
};

/** What the reducer needs to know of the world beyond the composer. */
export interface ComposerContext {
  /** The active history list (session or global), oldest first. */
  readonly history: readonly HistoryEntry[];
  /** The other one, which Ctrl+T in a search switches to. */
  readonly otherHistory?: readonly HistoryEntry[];
  /** A turn is running. */
  readonly busy: boolean;
  readonly force: boolean;
  /** Milliseconds, for telling a held Ctrl-C from separate presses. */
  readonly now: number;
  readonly pasteLimits?: ed.PasteOptions;
}

export type ComposerInput =
  | { readonly kind: 'command'; readonly name: CommandName }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'paste'; readonly text: string }
  /** A cancelled turn's queued inputs come back, joined above what is being typed. */
  | { readonly kind: 'restore'; readonly inputs: ReadonlyArray<readonly ed.Segment[]> }
  /** The active history list changed (e.g. /history global): leave any browse. */
  | { readonly kind: 'historySwitched' }
  /** Entries left the list searched (one was deleted): the search runs again where it stands. */
  | { readonly kind: 'historyChanged' };

/** An input on its way to the model. */
export interface Input {
  readonly segments: ed.Segment[];
  /** Pastes expanded: what the model gets. */
  readonly text: string;
  /** Pastes collapsed: how the transcript shows it. */
  readonly display: string;
}

export type Effect =
  /** Write to history before anything else happens with it. */
  | { readonly type: 'record'; readonly segments: ed.Segment[] }
  /** Keep one Up away, in memory only (text cleared with Ctrl-C). */
  | { readonly type: 'remember'; readonly segments: ed.Segment[] }
  | { readonly type: 'submit'; readonly input: Input }
  | { readonly type: 'queue'; readonly input: Input }
  | { readonly type: 'slash'; readonly name: string; readonly args: string[] }
  | { readonly type: 'cancelTurn' }
  | { readonly type: 'quit'; readonly reason: 'ctrl-c' | 'ctrl-d' }
  | { readonly type: 'setForce'; readonly on: boolean }
  | { readonly type: 'answer'; readonly approval: 'yes' | 'no' | 'always' }
  | { readonly type: 'scroll'; readonly pages: number }
  | { readonly type: 'toggleFold' }
  /** Hand the terminal back and stop (Ctrl-Z), or repaint every cell (Ctrl+L). */
  | { readonly type: 'suspend' }
  | { readonly type: 'redraw' }
  /** A dim line in the transcript. */
  | { readonly type: 'note'; readonly text: string }
  /** A short-lived line in the status bar. */
  | { readonly type: 'hint'; readonly text: string }
  /** Search the other history from now on (Ctrl+T in a search). */
  | { readonly type: 'switchHistory' }
  /** Delete every entry with this text from both history files. */
  | { readonly type: 'forget'; readonly text: string };

export interface Reduced {
  readonly state: ComposerState;
  readonly effects: readonly Effect[];
}

/**
 * A key answers an approval question only after a pause: none pressed for
 * this long, counted from the later of the question appearing and the last
 * key. Someone typing through the moment it appears types on into the composer.
 */
export const APPROVAL_PAUSE_MS = 400;

export function approvalAnswerable(q: { shownAt: number; lastKeyAt: number; now: number }): boolean {
  return q.now - Math.max(q.shownAt, q.lastKeyAt) >= APPROVAL_PAUSE_MS;
}

/** The mode keys are looked up in: an approval question first, then a search, then busy or idle. */
export function modeOf(state: ComposerState, world: { busy: boolean; approval: boolean; picker?: boolean }): Mode {
  if (world.picker) return 'picker';
  if (world.approval) return 'approval';
  if (state.search?.confirmDelete) return 'confirm';
  if (state.search) return 'search';
  return world.busy ? 'busy' : 'idle';
}

// The composer's whole state as one value (the editor, history navigation,
// the last search's query, the Ctrl-C burst), and the vocabulary the reducer
// speaks: what goes in (commands, typing, pastes, restored inputs) and what
// comes out (effects as data, carried out by the turn coordinator).
// Types and constants only.

import type { Approval, ApprovalMode } from '../protocol/approvals';
import type { PersonAnswer } from '../protocol/questions';
import type { CommandName } from './views/registry';
import type { FileHit } from '../search/files';
import type { CommandEntry } from '../search/commands';
import type { MatchRef } from '../search/transcript-search';
import type { SetupAnswers } from './views/provider-setup';
import type { ImageSegment, Segment } from '../protocol/segments';
import * as ed from '../editor/model';
import type { EmojiWidths } from '../editor/width';
import * as nav from '../history/navigator';
import type { HistoryEntry } from '../history/rules';
import type { View } from './views/view';
import type { Theme } from '../settings/palette';
import type { ViComposer, viInput } from './vi-input';

export interface ComposerState {
  readonly editor: ed.EditorState;
  readonly nav: nav.NavState;
  /** The query of the last accepted search, reused by Ctrl+R on an empty query. */
  readonly lastQuery: string | null;
  /** The last Ctrl-C press, and whether its burst began by cancelling a turn. */
  readonly burst: { readonly lastPress: number; readonly cancelling: boolean };
  /** Drafts before each change, newest last (Ctrl+_ goes back through them), and those undone (Alt+_). */
  readonly undo?: readonly ed.EditorState[];
  readonly redo?: readonly ed.EditorState[];
  /** The last change was a typed character: the next one joins its undo step, as readline groups a typed run. */
  readonly typing?: boolean;
  /** vi mode's state, registers and pending keys (composer/vi-input.ts); absent in emacs mode. */
  readonly vi?: ViComposer;
}

export const initialComposer: ComposerState = {
  editor: ed.emptyEditor,
  nav: nav.idleNav,
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
  /** The approval mode in force (full-auto while force mode is on). */
  readonly mode: ApprovalMode;
  /** Milliseconds, for telling a held Ctrl-C from separate presses. */
  readonly now: number;
  readonly pasteLimits?: ed.PasteOptions;
  /** How the terminal draws emoji sequences (moving up and down keeps the column). */
  readonly emoji: EmojiWidths;
  /**
   * vi mode's layer over the composer (composer/vi-input.ts), where `editingMode` is "vi": the coordinator loads it
   * then, so an emacs-mode start never does; absent: emacs' keys alone.
   */
  readonly vi?: typeof viInput;
  /** The prompt commands' names (agent/prompt-commands.ts), for Enter and Tab. */
  readonly prompts?: readonly string[];
  /** The MCP servers still starting, whose prompts (`/server:name`) are not known yet. */
  readonly startingServers?: readonly string[];
  /** Every slash command, milk's and the prompt commands, with what each does: the slash menu's list. */
  readonly commands?: () => readonly CommandEntry[];
}

export type ComposerInput =
  | { readonly kind: 'command'; readonly name: CommandName }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'paste'; readonly text: string }
  /** A cancelled turn's queued inputs come back, joined above what is being typed. */
  | { readonly kind: 'restore'; readonly inputs: ReadonlyArray<readonly Segment[]> }
  /** The draft replaced (by what the external editor left). */
  | { readonly kind: 'setDraft'; readonly text: string }
  /** The active history list changed (e.g. /history global): leave any browse. */
  | { readonly kind: 'historySwitched' }
  /** The file index's answer to an @-mention query. */
  | {
      readonly kind: 'mentionResults';
      readonly query: string;
      readonly hits: readonly FileHit[];
      readonly indexing: boolean;
      readonly cut: boolean;
    }
  /** Entries left the list searched (one was deleted): the search runs again where it stands. */
  | { readonly kind: 'historyChanged' }
  /** A pasted image's path proved an image (read, off the keystroke): its chip takes the place of the text pasted. */
  | {
      readonly kind: 'imageFound';
      readonly image: ImageSegment;
      readonly replacing?: string;
      /** The @-mention chip (its workspace path) the image's chip replaces. */
      readonly mention?: string;
    }
  /** The provider's models (GET /v1/models) for the model picker, or why there are none. */
  | { readonly kind: 'modelList'; readonly models: readonly string[] }
  | { readonly kind: 'modelList'; readonly error: string }
  /** A turn ended: its question, if one is open, is gone. */
  | { readonly kind: 'turnEnded'; readonly turnId: number };

/** An input on its way to the model. */
export interface Input {
  readonly segments: Segment[];
  /** Pastes expanded: what the model gets. */
  readonly text: string;
  /** Pastes collapsed: how the transcript shows it. */
  readonly display: string;
}

export type Effect =
  /** Write to history before anything else happens with it. */
  | { readonly type: 'record'; readonly segments: Segment[] }
  /** Keep one Up away, in memory only (text cleared with Ctrl-C). */
  | { readonly type: 'remember'; readonly segments: Segment[] }
  | { readonly type: 'submit'; readonly input: Input }
  | { readonly type: 'queue'; readonly input: Input }
  /** A typed `# text`: which instructions file keeps it is asked, then it is written there. */
  | { readonly type: 'memory'; readonly text: string }
  /** Into the running turn, before its next model request (/steer, Ctrl+Enter). */
  | { readonly type: 'steer'; readonly input: Input }
  | { readonly type: 'slash'; readonly name: string; readonly args: string[] }
  | { readonly type: 'cancelTurn' }
  | { readonly type: 'quit'; readonly reason: 'ctrl-c' | 'ctrl-d' }
  | { readonly type: 'setForce'; readonly on: boolean }
  /** An approval mode put in force (Shift+Tab's next one; Ctrl-C's way back to ask). */
  | { readonly type: 'setMode'; readonly mode: ApprovalMode }
  /** The person's answer to the tool question `requestId` (turn/approvals.ts). */
  | {
      readonly type: 'answer';
      readonly requestId: number;
      readonly approval: Approval;
      /** Which hunks were taken, when the change was taken hunk by hunk. */
      readonly hunks?: readonly boolean[];
    }
  /** `?` at a tool call's question: what each answer does, said under the call. */
  | { readonly type: 'explainApproval'; readonly requestId: number }
  /** The person's answer to the model's question or plan `requestId` (composer/views/question.ts). */
  | { readonly type: 'answerQuestion'; readonly requestId: number; readonly answer: PersonAnswer }
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
  /** Delete every entry with this text from both history files. */
  | { readonly type: 'forget'; readonly text: string }
  /** Open an incremental search (the view stack takes this one itself). */
  /** `vi`: vi mode's `/` or `?`, readline's non-incremental search. */
  | {
      readonly type: 'openSearch';
      readonly direction: 'reverse' | 'forward';
      readonly vi?: '/' | '?';
      /** What was typed after the key that opened it, in the same input: the query's start. */
      readonly typed?: string;
    }
  /** Put a view on top of the stack (a tool's question, a picker, a yes/no question): the stack takes it. */
  | { readonly type: 'openView'; readonly view: View }
  /** An @ typed at a word's start (at its offset): the mention picker opens over the composer. */
  | { readonly type: 'openMentions'; readonly at: number }
  /** /provider's server and key, known: its models are asked for, for its model step. */
  | {
      readonly type: 'listSetupModels';
      readonly server: { readonly provider: string; readonly baseUrl: string; readonly apiKey: string };
    }
  /** /provider's answers: kept in config.json, and the provider switched to. */
  | { readonly type: 'setupProvider'; readonly answers: SetupAnswers }
  /** A slash typed into an empty composer: the slash menu opens. */
  | { readonly type: 'openSlash' }
  /** The paths matching an @-mention query are wanted (`opened`: the picker has just opened); the picker closed. */
  | { readonly type: 'mentionQuery'; readonly query: string; readonly opened?: boolean }
  /** A prompt command: its name, its arguments as typed, and the input as the transcript shows it. */
  | { readonly type: 'prompt'; readonly name: string; readonly args: string; readonly input: Input }
  | { readonly type: 'mentionClosed' }
  /** The resume picker chose a conversation, or was left for a new one. */
  | { readonly type: 'resume'; readonly id: string }
  | { readonly type: 'newConversation' }
  /** Esc in the idle composer: a second one soon after opens the rewind picker. */
  | { readonly type: 'rewindKey' }
  /** Ctrl+G: the draft in the person's own editor. */
  | { readonly type: 'externalEditor' }
  /** The rewind picker chose an input (its index, oldest first); then, asked separately, put the files back. */
  | { readonly type: 'rewind'; readonly index: number }
  | { readonly type: 'restoreFiles'; readonly turn: number }
  /** The model picker chose a model for the next turns; or was left (its request to the server is dropped). */
  | { readonly type: 'setModel'; readonly name: string }
  | { readonly type: 'modelsClosed' }
  /** /theme: the palette drawn with (its picker shows each as it moves), and what to say once one is kept. */
  | { readonly type: 'setTheme'; readonly theme: Theme; readonly note?: string }
  /** A paste that is an image file's path: read it (off the keystroke), and make it a chip if it is one. */
  | { readonly type: 'probeImage'; readonly path: string; readonly text: string; readonly mention?: boolean }
  /** The person's answer to whether a turn past maxSteps goes on. */
  | { readonly type: 'goOn'; readonly turnId: number; readonly goOn: boolean }
  /** Ctrl+V: the clipboard's image, as a chip. */
  | { readonly type: 'clipboardImage' }
  /** Copy mode begins (Ctrl+X [), and its keys move the cursor, select and copy (tui/transcript-select.ts). */
  | { readonly type: 'openCopyMode' }
  | { readonly type: 'copyKey'; readonly name: CommandName }
  /** A transcript search opens (Ctrl+X Ctrl+F); the view goes to a match, or back where it was when it ends. */
  | { readonly type: 'findTranscript' }
  | { readonly type: 'showMatch'; readonly query: string; readonly match: MatchRef | null }
  | { readonly type: 'endFind'; readonly restore: boolean }
  /** /search's match chosen: its conversation opened (this workspace's: resumed) at the match. */
  | {
      readonly type: 'openFound';
      readonly id: string;
      readonly session: string;
      readonly here: boolean;
      readonly query: string;
    };

/** The effects the view stack carries out itself: opening a view on top. */
export type StackEffect = Extract<Effect, { type: 'openSearch' | 'openMentions' | 'openSlash' | 'openView' }>;

/** The effects the coordinator carries out, each through its handler (a type without one does not compile). */
export type CarriedEffect = Exclude<Effect, StackEffect>;

export interface Reduced {
  readonly state: ComposerState;
  readonly effects: readonly Effect[];
}

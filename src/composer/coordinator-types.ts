// What the coordinator (coordinator.ts) is given and gives: its options (the
// services and views it drives), a frame of what the screen shows, and the
// table of its effect handlers. Types only.

import type { ImagePart } from '../protocol/images';
import type { CommandName, KeyNames } from './views/registry';
import type { MatchRef, TranscriptCorpus } from '../search/transcript-search';
import type { EditorState, PasteOptions } from '../editor/model';
import type { ImageSegment, Segment } from '../protocol/segments';
import type { Inert } from '../protocol/inert';
import type { FileHit } from '../search/files';
import type { CommandEntry } from '../search/commands';
import type { SetupKind, SetupAnswers } from './views/provider-setup';
import type { RestoreReport } from '../session/checkpoints';
import type { Sessions } from '../session/sessions';
import type { CarriedEffect } from './state';
import type { TurnRunner } from '../turn/runner';

/**
 * The turn runner as the composer drives it. The full screen hands over one that answers "idle" until the agent is
 * made after the first paint (app/views.ts), and makes it when a turn is asked for sooner.
 */
export type TurnPort = Pick<
  TurnRunner,
  | 'busy'
  | 'settings'
  | 'cancel'
  | 'compact'
  | 'effort'
  | 'firstTurn'
  | 'rewind'
  | 'rewindable'
  | 'runOwn'
  | 'start'
  | 'steer'
>;
import type { ViewPaints } from './views/view';

export interface Frame {
  /** The composer as shown (a search's match, or the draft), and the range a match lights up. */
  readonly editor: EditorState;
  readonly highlight: { start: number; end: number } | null;
  /** The top view's status-bar prompt and legend. */
  readonly prompt: Inert | null;
  readonly legend: Inert | null;
  /** What the views paint through their own rows. */
  readonly paints: ViewPaints;
}

export interface CoordinatorOptions {
  /** The keys as bound (tui/keymap.ts): /help's lines and every key named in a legend, hint or note. */
  keys: KeyNames;
  /** readline's editing mode (config `editingMode`, --vi). */
  editingMode?: 'emacs' | 'vi';
  pasteLimits?: PasteOptions;
  now?: () => number;
  /** Conversations to resume and start; without it /new and /resume say they are unavailable. */
  sessions?: Sessions;
  /** /add-dir: adds a directory the file tools reach; what to tell the person. */
  addDir?: (dir: string) => string;
  /** Where /export writes by default, and a relative name is taken from. */
  workspace?: string;
  /** Lines for /session. */
  sessionInfo?: () => string[];
  /** Lines describing what the model is sent: the system prompt's parts and sizes, the instruction files. */
  contextInfo?: () => string[];
  /** /hooks' lines: each event's hooks with their match, command, timeout and source. */
  hooksInfo?: () => string[];
  /** /agents' lines: the subagents, each with its source, tools and model. */
  agentsInfo?: () => string[];
  /** /skills' lines: the Agent Skills, where each is from, who may run it; those shadowed or left out. */
  skillsInfo?: () => string[];
  /** /plugins' lines: each plugin installed, whether it is on here, what it has and what milk cannot run of it. */
  pluginsInfo?: () => string[];
  /**
   * /review: the change `arg` names read from git, then `start` called with the review's prompt and how the input is
   * shown (its id back), its findings said once it ends; what is wrong (not a repository, nothing to review), or null.
   */
  review?: (arg: string, start: (prompt: string, display: string) => number) => Promise<string | null>;
  /** /status's lines, and /cost's. */
  statusInfo?: () => string[];
  costInfo?: () => string[];
  /** /provider: the kinds of server it offers (and which key variables are set); what connecting answered. */
  /** Pasted images: a path read to see whether it is one (null: it is not), and Ctrl+V's clipboard image. */
  images?: {
    /** `file` as pasted (`~/` for the home folder); its absolute path and pixel size when it is an image. */
    probe(file: string): Promise<ImageSegment | { error: string } | null>;
    clipboard(): Promise<ImageSegment | { error: string }>;
  };
  /** What /model lists: the server as the person knows it, and its models (GET /v1/models); null: none to list. */
  models?: () => { server: string; list: (signal: AbortSignal) => Promise<string[]> } | null;
  providerSetup?: {
    kinds(): { kinds: readonly SetupKind[]; keysSet: ReadonlySet<string> };
    connect(answers: SetupAnswers): string;
    /** The models the server being set up lists, asked with its key (GET /v1/models). */
    models?(server: Omit<SetupAnswers, 'model'>, signal: AbortSignal): Promise<string[]>;
  };
  /** What milk is: its version, the commit it was built from, the Node.js and system it runs on (/version). */
  about?: () => { version: string; commit: { commit: string; changed: boolean } | null; runtime: string };
  /**
   * /bug: `draft` gathers the report's facts and returns what the person typed and the model wrote in the last turn
   * (null when nothing), to be shown before asking; `write` writes the draft just made, with them only when told so.
   */
  bug?: { draft(): Promise<string | null>; write(withText: boolean): string };
  /** /worktree: the repository's worktrees milk made, as lines; removing one (what was done, or why not). */
  worktrees?: { list(): Promise<string[]>; remove(name: string, force: boolean): Promise<string> };
  /** /stats: usage over PERIOD (session/stats.ts' words; undefined: the last 30 days), as lines, or what is wrong. */
  stats?: (period: string | undefined) => Promise<string[]>;
  /** /doctor's lines, once it has looked. */
  doctor?: () => Promise<string[]>;
  /** Opens the draft in the person's editor (tui/external-editor.ts): the edited text, or why the draft stays. */
  editExternally?: (text: string) => Promise<{ ok: true; text: string } | { ok: false; why: string }>;
  /**
   * What a rewind puts back: the files changed from turn `turn` on (the file tools' copies, and the workspace's
   * snapshots of the turns that ran a command: session/rewind-files.ts), and putting them back.
   */
  checkpoints?: {
    files(turn: number): Promise<string[]>;
    restore(turn: number): Promise<RestoreReport>;
    /** Of those files, what a rewind cannot put back around them: a nested repository's own .git (`lib/.git`). */
    uncovered?(files: readonly string[]): string[];
  };
  /** /undo's and /diff's: the last turn that changed files, and a diff of the workspace since a turn began. */
  changes?: {
    lastTurn(): Promise<number | null>;
    /** Its changes were put back already (a turn with none left to undo otherwise changed nothing). */
    wasUndone(turn: number): boolean;
    /** Since turn `turn` began. */
    diff(turn: number): Promise<{ text: string; cut: boolean } | { error: string }>;
  };
  /** Where the approval rules are kept (/permissions); null or absent: nowhere. */
  permissionsFile?: string | null;
  /** @-mentions: the workspace's paths (tools/file-index.ts) and what mentions attach when sent (tools/attach.ts). */
  files?: {
    search(
      query: string,
      limit: number,
      done: (r: { query: string; hits: readonly FileHit[]; indexing: boolean; cut: boolean }) => void,
    ): void;
    refresh(): void;
    close(): void;
    attach(segments: readonly Segment[]): { text: string; notes: readonly string[]; images: readonly ImagePart[] };
  };
  /**
   * Prompt commands (agent/prompt-commands.ts): their names, /help's lines, and a prompt with its arguments filled in.
   */
  prompts?: {
    names(): readonly string[];
    /** Each with what it does, for the slash menu. */
    entries(): readonly CommandEntry[];
    help(): string[];
    /** The prompt with its arguments; a promise for an MCP server's, which it must be asked for. */
    expand(name: string, args: string): string | null | Promise<string | null>;
    /** The MCP servers still starting: their prompts are not known yet. */
    starting?(): readonly string[];
  };
  /** The MCP servers, for /mcp. */
  mcp?: {
    lines(): string[];
    restart(name: string): boolean;
  };
  /** Memory: where a `# ` input can be kept, writing it there, and /memory's editor. */
  memory?: {
    files(): readonly string[];
    add(index: number, text: string): Promise<string>;
    edit(): Promise<string>;
  };
  /** /search: every conversation's matches of a query, each as a line, and whether it is this workspace's. */
  searchLogs?: (
    query: string,
  ) => Promise<{ hits: Array<{ conv: string; session: string; here: boolean; line: string }>; more: number }>;
  /** /secrets: what was masked before it was sent (never the values), and a value let through. */
  secrets?: {
    lines(): string[];
    allow(which: string): string;
  };
  /** The model's background commands, for /shells. */
  shells?: {
    lines(): string[];
    kill(id: number): string;
  };
  /** The transcript from the keyboard: copy mode's cursor and keys, a search's corpus and where the view goes. */
  transcript?: {
    /** Copy mode begins; false: nothing to select yet. */
    copyMode(): boolean;
    copyKey(name: CommandName): void;
    /** The transcript's text for a search, and where in it the view (or copy mode's cursor) is. */
    find(): { corpus: TranscriptCorpus; origin: number };
    show(query: string, match: MatchRef | null): void;
    /** The search is over: the view back where it was (restore), or left at the match. */
    endFind(restore: boolean): void;
  };
  /** What /clear and /copy do on the screen. */
  view?: {
    clear(): void;
    copyLastAnswer(): string;
    toggleChecklist(): string;
  };
}

/** A handler for each effect the coordinator carries out, by its type. */
export type EffectHandlers = {
  readonly [K in CarriedEffect['type']]: (effect: Extract<CarriedEffect, { type: K }>) => void;
};

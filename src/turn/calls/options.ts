// What the tool calls of a turn are given: the bus, the settings, the registry, the person's answers, the workspace
// and what guards it. Types only.

import type { Bus } from '../../kernel/bus';
import type { Settings } from '../../settings/store';
import type { ToolRegistry } from '../../tools/registry';
import type { EditorParts } from '../../tools/tool';
import type { BackgroundShells } from '../../tools/background';
import type { Approvals } from '../approvals';
import type { Hooks } from '../hook-runner';

export interface ToolCallsOptions {
  readonly bus: Bus;
  readonly settings: Settings;
  readonly registry: ToolRegistry;
  readonly approvals: Approvals;
  /** Commands the model started in the background (shell, shell_output, shell_kill, /shells). */
  readonly background?: BackgroundShells;
  /** Where tools run and what they may touch. */
  readonly workspace: string;
  /** The person's hooks: before_tool may block, refuse, approve or change a call; after_tool hears how it went. */
  readonly hooks?: Hooks;
  /** Folders a sandboxed command must not see (milk's data dir: its history may hold secrets). */
  readonly hide?: readonly string[];
  /** Folders the file tools may read but not write, as they stand now: the skills used (agent/skills.ts). */
  readonly readable?: () => readonly string[];
  /**
   * The editor's files and terminal (milk acp): the file tools read and write through it, after every check of milk's
   * own; a sandboxed command runs in its terminal, as milk would run it.
   */
  readonly editor?: EditorParts;
  /** The tools a skill in use in turn `turn` allows (its allowed-tools, the person's own skills only), or null. */
  readonly narrowed?: (
    turn: number,
  ) => { readonly name: string; readonly tools: ReadonlySet<string>; readonly who?: string } | null;
  /**
   * The workspace files hooks and MCP servers name, as real paths (app/control-files.ts): a file tool's change to one
   * is asked about in every mode, and the sandbox binds them read-only.
   */
  readonly controls?: () => Promise<readonly string[]>;
  readonly killGraceMs?: number;
  /** No one is there to answer a question (milk run): a call that would ask is refused, saying so. */
  readonly unattended?: boolean;
  /** Settles once the workspace's approval rules are read: no call is decided before. */
  readonly rulesReady?: Promise<unknown>;
  /** Snapshots of the workspace (session/turn-changes.ts): only in a turn that runs a command, before the first. */
  readonly snapshots?: TurnSnapshots;

  /** This session's masked secrets (turn/secrets.ts): the placeholders in its arguments, put back once approved. */
  readonly secrets?: {
    placeholdersIn(text: string): string[];
    unmask(text: string): string;
    hint(placeholder: string): string;
  };
  /** Keeps copies of the files a turn's tools change, for a rewind to put back. */
  readonly checkpoints?: { before(file: string, turn: number): Promise<void>; after(file: string): Promise<void> };
  /** Whether the sandbox can run commands here (tools/bwrap.ts, probed once). */
  readonly probeSandbox: () => Promise<{ ok: true } | { ok: false; why: string }>;
}

/** What the runner tells of a turn's life, so that the workspace's snapshots are taken when a turn needs them. */
export interface TurnSnapshots {
  /** A turn began; `commandsAlive`: a background command of the session runs, and may change files at any time. */
  turnStarted(seq: number, o: { commandsAlive: boolean }): void;
  turnEnded(seq: number): void;
  /** Before a command of turn `seq` runs: the turn's snapshot, taken the first time. */
  beforeCommand(seq: number): Promise<void>;
  /** Before a file tool changes a file: the turn's snapshot, if one is under way, finished first. */
  beforeEdit(seq: number): Promise<void>;
}

/** Where a command runs. */
export interface Confinement {
  /** The command runs in the sandbox. */
  readonly sandbox: boolean;
  /** No sandbox can run it: it runs only once the person agrees. */
  readonly agree: boolean;
}

// The record of what turns change in the workspace, as the runner, the hooks
// and the screen use it. The file tools' copies (checkpoints.ts) are taken in
// every turn. The workspace's snapshots (snapshots.ts, git) only in a turn
// that runs a command — the shell tool, a `!` command, a hook, an MCP server's
// tool, all of which change files behind the file tools' back — or that starts
// while a background command of the session runs: before its first such
// command (at its start for the latter), and at its end. Their module and git
// load then, never at start-up; a turn that runs no command spawns nothing and
// waits for nothing here.

import * as fs from 'node:fs';
import type { Cleanup } from '../kernel/cleanup';
import { dataLayout } from '../kernel/data-dir';
import { sha256Hex } from '../kernel/sha256';
import { Checkpoints, sweepCopies } from './checkpoints';
import type { RewindFiles } from './rewind-files';
import type { Snapshots } from './snapshots';
import type { TurnSnapshots } from '../turn/calls/tool-calls';

export interface TurnChangesOptions {
  readonly workspace: string;
  /** Null: no home to keep data in: no copies, no snapshots. */
  readonly dataDir: string | null;
  readonly sessionId: string;
  /** Where a rewind can be asked for (the full screen): exit's cleanup removes the copies. Absent: none are kept. */
  readonly cleanup?: Cleanup;
  /** config `snapshots`: the biggest file stored; the store's caps (past them, finished milks' snapshots go). */
  readonly snapshots?: { readonly maxFileMb?: number; readonly maxStoreMb?: number; readonly maxAgeDays?: number };
  readonly warn: (text: string) => void;
}

export interface TurnChanges {
  /** The file tools' copies (their before and after hooks). */
  readonly copies: Checkpoints;
  /** For the runner; null where no rewind can be asked for. */
  readonly snapshots: TurnSnapshots | null;
  /** Before a hook runs (a command of the person's, outside the sandbox): the running turn's snapshot. */
  beforeHook(): Promise<void>;
  /** What a rewind, /undo and /diff use (loaded when first asked for). */
  rewind(): RewindFiles;
}

/** The snapshots' biggest file unless config.json sets it. */
const SNAPSHOT_FILE_MB = 10;

/** When the copies of milks no longer running are removed, after start-up. */
const SWEEP_AFTER_MS = 3000;

export function turnChanges(o: TurnChangesOptions): TurnChanges {
  let clock = 0;
  const order = (): number => ++clock;
  const copies = new Checkpoints(copiesDir(o), order);
  const dataDir = o.cleanup ? o.dataDir : null;
  let made: Snapshots | null = null;
  const store = ({ make }: { make: boolean }): Snapshots | null => {
    if (made || !make || dataDir === null) return made;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Snapshots: Store } = require('./snapshots') as typeof import('./snapshots');
    made = new Store({
      workspace: o.workspace,
      store: dataLayout(dataDir).snapshots(sha256Hex(o.workspace).slice(0, 16)),
      leaveOut: [dataDir],
      maxFileBytes: (o.snapshots?.maxFileMb ?? SNAPSHOT_FILE_MB) * 1048576,
      maxStoreBytes: o.snapshots?.maxStoreMb && o.snapshots.maxStoreMb * 1048576,
      maxAgeDays: o.snapshots?.maxAgeDays,
      warn: o.warn,
      order,
    });
    return made;
  };
  o.cleanup?.add('snapshots', () => made?.keepIndexAtExit());
  /** The turn running now, for the hooks (which run within it). */
  let running: number | null = null;
  const snapshot = async (seq: number): Promise<void> => {
    await store({ make: true })?.turnSnapshot(seq);
  };
  let rewind: RewindFiles | null = null;
  return {
    copies,
    snapshots:
      dataDir === null
        ? null
        : {
            turnStarted: (seq, { commandsAlive }) => {
              running = seq;
              // Not waited for: the turn's request is on its way meanwhile; a change waits for it (beforeEdit).
              if (commandsAlive) void snapshot(seq);
            },
            turnEnded: (seq) => {
              if (running === seq) running = null;
              made?.turnEnded(seq);
            },
            beforeCommand: snapshot,
            beforeEdit: async (seq) => made?.beforeEdit(seq),
          },
    beforeHook: async () => {
      if (running !== null && dataDir !== null) await snapshot(running);
    },
    rewind: () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { RewindFiles: Files } = require('./rewind-files') as typeof import('./rewind-files');
      return (rewind ??= new Files({ workspace: o.workspace, copies, snapshots: store }));
    },
  };
}

/** This process's folder of file copies for a rewind, removed when milk exits; none without a data dir or a rewind. */
function copiesDir(o: TurnChangesOptions): string | null {
  if (o.dataDir === null || !o.cleanup) return null;
  const layout = dataLayout(o.dataDir);
  const copies = layout.checkpoints(o.sessionId, `${process.pid}-${Date.now().toString(36)}`);
  o.cleanup.add('rewind copies', () => fs.rmSync(copies, { recursive: true, force: true }));
  // What milks killed before they could clean up left behind: a few seconds after start-up (its file system module
  // loads with it), never on the way to the first paint.
  setTimeout(() => void sweepCopies(layout.checkpointsRoot), SWEEP_AFTER_MS).unref();
  return copies;
}

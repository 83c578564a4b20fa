// Running a call: its block opened, its output streamed inert, its result shown and answered; and a change taken
// hunk by hunk, written as write_file writes.

import type { AnyTool, FileChange, ToolContext, WriteHooks } from '../../tools/tool';
import { runTool } from '../../tools/registry';
import { writeFile } from '../../tools/builtin/write-file';
import { applyHunks, hunkReport } from '../../tools/hunks';
import { type Inert, sanitize } from '../../protocol/inert';
import { StreamSanitizer } from '../../kernel/stream-sanitizer';
import type { ActiveTurn } from '../turn';
import type { ToolCallsOptions } from './options';
import { webJudge } from './web-judge';
import { type CallAnswer, type Show, refuse, told } from './show';

/** How a call runs: what its block shows, whether in the sandbox and with the network, what stays hidden. */
export interface How {
  readonly summary: Inert;
  readonly detail: Inert;
  /** It runs a command (its block is marked `$`). */
  readonly command: boolean;
  /** Its header's first line once it has ended (tools/visible.ts doneHeading), or null. */
  readonly done: Inert | null;
  readonly sandbox: boolean;
  readonly network: boolean;
  readonly denied: readonly string[];
  /** The person said yes to this call at its question. */
  readonly asked: boolean;
}

export async function execute(
  o: ToolCallsOptions,
  turn: ActiveTurn,
  call: { tool: AnyTool; args: Record<string, unknown> },
  how: How,
  show: Show,
): Promise<CallAnswer> {
  const { tool, args } = call;
  show('tool.started', { summary: how.summary, detail: how.detail, declined: false, command: how.command });
  const output = new StreamSanitizer();
  let streamed = false;
  // What milk runs from the workspace, bound read-only for a sandboxed command.
  const controls = how.sandbox && tool.sandboxed ? ((await o.controls?.()) ?? []) : [];
  const ctx: ToolContext = {
    ...contextOf(o, turn, tool, how, controls),
    onOutput: (text) => {
      streamed = true;
      const shown = output.push(text);
      if (shown && !turn.cancelled) show('tool.output', { text: shown });
    },
  };
  const result = await runTool(tool, args, ctx, turn.controller.signal);
  // A tool that streamed nothing (a read, a search) shows what the model got, as a resumed conversation does.
  if (!turn.cancelled && !streamed && result.content) show('tool.result', { text: sanitize(result.content) });
  // A failure shown as its result says why there; the block's header says only that it failed.
  const status = result.status === undefined || (!streamed && !result.ok) ? undefined : sanitize(result.status);
  if (!turn.cancelled) show('tool.finished', { ok: result.ok, status, ...(how.done ? { head: how.done } : {}) });
  return result.images?.length ? { ...told(result.content), images: result.images } : told(result.content);
}

/** What a tool is handed to run with, but its output's sink. */
function contextOf(
  o: ToolCallsOptions,
  turn: ActiveTurn,
  tool: AnyTool,
  how: How,
  controls: readonly string[],
): Omit<ToolContext, 'onOutput'> {
  return {
    workspace: o.workspace,
    sandbox: how.sandbox ? { network: how.network, hide: [...(o.hide ?? []), ...how.denied], controls } : null,
    hidden: o.hide,
    deniedPlaces: how.denied,
    also: o.settings.dirs,
    readOnly: o.readable?.() ?? [],
    ...(o.editor?.files ? { editor: o.editor.files } : {}),
    ...(o.editor?.terminal && tool.name === 'shell' ? { terminal: o.editor.terminal } : {}),
    ...(tool.name === 'web_fetch' ? { web: webJudge(o, turn, tool, how.asked) } : {}),
    writes: writeHooks(o, turn),
    killGraceMs: o.killGraceMs,
    turn,
  };
}

/**
 * Some of a change's hunks taken: the file gets the old text with those applied (written as write_file writes,
 * checkpoints and snapshots included), unless it changed since the question; the model is told which.
 */
export async function someHunks(
  o: ToolCallsOptions,
  turn: ActiveTurn,
  how: Pick<How, 'summary' | 'detail' | 'done' | 'denied'>,
  taken: { change: FileChange; hunks: readonly boolean[] },
  show: Show,
): Promise<CallAnswer | null> {
  const { change } = taken;
  const mode = o.settings.mode;
  // Written as write_file writes, whichever tool's change it was (edit_file's too) and whether or not the turn's
  // tools include write_file (a subagent's may not): the person took these hunks, not a call of that tool.
  const write: AnyTool = writeFile;
  const now = await write.change?.({ path: change.path, content: change.after }, o.workspace);
  if (now && now.before !== change.before) {
    const why = `${change.path} changed while the question was open; nothing was written (ask again)`;
    return refuse(show, mode, 'edit', why, 'invalid arguments');
  }
  const content = applyHunks(change.before.split('\n'), change.hunks, taken.hunks).join('\n');
  if (turn.seq >= 0) await o.snapshots?.beforeEdit(turn.seq);
  const call = { tool: write, args: { path: change.path, content } };
  const answer = await execute(
    o,
    turn,
    call,
    { ...how, command: false, sandbox: false, network: false, asked: true },
    show,
  );
  return { ...answer, content: `${answer.content}\n${hunkReport(change.path, change.hunks, taken.hunks)}` };
}

/** Copies of the files this turn changes, for a rewind. */
function writeHooks(o: ToolCallsOptions, turn: ActiveTurn): WriteHooks | undefined {
  const cp = o.checkpoints;
  if (!cp || turn.seq < 0) return undefined;
  return { before: (file) => cp.before(file, turn.seq), after: (file) => cp.after(file) };
}

// The person's own command (`!ls`): run in the workspace as theirs —
// unsandboxed and unasked — its output streamed and bounded as a tool's,
// Ctrl-C stopping its process group. What it printed joins the conversation as
// their message, for the model to see with the next input.

import { commandModule } from '../tools/lazy-command';
import type { Bus } from '../kernel/bus';
import { sanitize } from '../protocol/inert';
import { StreamSanitizer } from '../kernel/stream-sanitizer';
import { visible } from '../tools/visible';
import type { ActiveTurn } from './turn';

/** The command and its output, as the person's message to the model. */
export function ownCommandMessage(command: string, output: string): string {
  return `I ran this command in the workspace myself:\n$ ${command}\n${output}`;
}

/** Runs `command` for `turn`; what it printed and how it ended (null when the turn was stopped). */
export async function runOwnCommand(
  bus: Bus,
  turn: ActiveTurn,
  command: string,
  o: { workspace: string; killGraceMs?: number },
): Promise<string | null> {
  const detail = sanitize(`you ran: ${visible(command)}`);
  bus.emit('tool.started', { turnId: turn.id, summary: detail, detail, declined: false, command: true });
  const output = new StreamSanitizer();
  const { runCommand } = commandModule();
  const ctx = {
    workspace: o.workspace,
    sandbox: null,
    person: true,
    killGraceMs: o.killGraceMs,
    onOutput: (text: string) => {
      const shown = output.push(text);
      if (shown && !turn.cancelled) bus.emit('tool.output', { turnId: turn.id, text: shown });
    },
  };
  const result = await runCommand(command, ctx, turn.controller.signal);
  if (turn.cancelled) return null;
  bus.emit('tool.finished', {
    turnId: turn.id,
    ok: result.ok,
    status: result.status === undefined ? undefined : sanitize(result.status),
    head: sanitize(`you ran: ${visible(command).split('\n')[0]}`),
  });
  return ownCommandMessage(command, result.content);
}

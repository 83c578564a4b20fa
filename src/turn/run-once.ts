// `milk run`: one turn without the screen. The answer streams to stdout as it
// comes (or, with --json, one JSON object per line for each event of the
// turn); errors go to stderr with exit code 1; SIGINT cancels the turn
// cleanly and exits 130. Tools run in the working directory as the approval
// mode allows: there is no one to ask, so a call that would ask is refused
// and the model told why (read-only is the default; --approval auto-edit or
// full-auto lets edits, or everything, run).

import type { Bus } from '../bus';
import type { TurnRunner } from './runner';
import { killLiveTools } from './runner';

export interface RunOnceOptions {
  /** One JSON object per line for each event, instead of the answer's text. */
  json?: boolean;
}

/** The turn's events as JSON lines: text, tool calls and results, usage, the end. */
function jsonEvents(bus: Bus, write: (event: object) => void): void {
  bus.on('turn.delta', ({ text }) => write({ type: 'text', text }));
  bus.on('conversation.message', ({ message, declined }) => {
    if (message.role === 'assistant')
      for (const c of message.toolCalls ?? []) write({ type: 'tool_call', id: c.id, name: c.name, args: c.args });
    if (message.role === 'tool')
      write({
        type: 'tool_result',
        id: message.toolCallId,
        name: message.name,
        content: message.content,
        ...(declined ? { declined } : {}),
      });
  });
  bus.on('turn.usage', ({ input, output }) => write({ type: 'usage', input, output }));
  bus.on('turn.ended', ({ status, message }) => write({ type: 'end', status, ...(message ? { message } : {}) }));
}

/**
 * One turn of `runner` (made unattended: agent-parts.ts) on `prompt`, its answer or events written to
 * `io.out` as they come; the exit code: 0, 1 when the turn failed, 130 when SIGINT cancelled it.
 */
export async function runOnce(
  bus: Bus,
  runner: TurnRunner,
  prompt: string,
  io: { out: NodeJS.WritableStream; err: NodeJS.WritableStream },
  options: RunOnceOptions = {},
): Promise<number> {
  // What milk would note in the transcript (no sandbox here, say) goes to stderr.
  bus.on('transcript.note', ({ text }) => io.err.write(`milk: ${text}\n`));
  let wrote = '';
  if (options.json) {
    jsonEvents(bus, (event) => io.out.write(JSON.stringify(event) + '\n'));
  } else {
    bus.on('turn.delta', ({ text }) => {
      io.out.write(text);
      wrote = text;
    });
  }
  const ended = new Promise<{ status: string; message?: string }>((resolve) => bus.on('turn.ended', resolve));
  const onSigint = (): void => void runner.cancel();
  process.on('SIGINT', onSigint);
  try {
    runner.start(prompt);
    const end = await ended;
    if (wrote && !wrote.endsWith('\n')) io.out.write('\n');
    if (end.status === 'interrupted') {
      io.err.write('milk: interrupted\n');
      return 130;
    }
    if (end.status === 'error') {
      io.err.write(`milk: ${end.message ?? 'the turn failed'}\n`);
      return 1;
    }
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
    // milk run exits right after: a command that ignored TERM must not outlive it.
    killLiveTools();
  }
}

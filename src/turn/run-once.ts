// `milk run`: one turn without the screen. The answer streams to stdout as it
// comes (--output-format text), or one JSON object per line for each event of
// the turn (stream-json, also --json), or one JSON object at the end (json);
// errors go to stderr with exit code 1; SIGINT cancels the turn
// cleanly and exits 130. Tools run in the working directory as the approval
// mode allows: there is no one to ask, so a call that would ask is refused
// and the model told why (read-only is the default; --approval auto-edit or
// full-auto lets edits, or everything, run).

import type { Bus, Events } from '../kernel/bus';
import type { Spending } from '../providers/pricing/spending';
import type { Segment } from '../protocol/segments';
import type { ImagePart } from '../protocol/images';
import type { TurnRunner } from './runner';

export type OutputFormat = 'text' | 'json' | 'stream-json';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];

export interface RunOnceOptions {
  /** text: the answer as it streams; stream-json: a JSON object per event; json: one JSON object at the end. */
  format?: OutputFormat;
  /** What the requests cost (money where a price is known). */
  spending?: Spending;
  /** The conversation's id, for the json result. */
  conversation?: () => string;
}

/** A request's usage as the JSON events give it: tokens, and its price in dollars where one is known. */
function usageEvent(u: Events['turn.usage'], spending: Spending | undefined): object {
  const cost = spending?.lastUsd;
  return {
    input: u.input,
    output: u.output,
    ...(u.cacheRead ? { cache_read: u.cacheRead } : {}),
    ...(u.cacheWrite ? { cache_write: u.cacheWrite } : {}),
    ...(typeof cost === 'number' ? { cost_usd: cost } : {}),
  };
}

/** The turn's events as JSON lines: text, tool calls and results, usage, the end. */
function jsonEvents(bus: Bus, write: (event: object) => void, spending: Spending | undefined): void {
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
  bus.on('turn.usage', (u) => write({ type: 'usage', ...usageEvent(u, spending) }));
  bus.on('turn.ended', ({ status, message }) => write({ type: 'end', status, ...(message ? { message } : {}) }));
}

/** The whole turn as one JSON object, written at its end: the answer, the calls and their results, what it cost. */
function jsonResult(bus: Bus, write: (event: object) => void, o: RunOnceOptions): void {
  let text = '';
  const calls: Array<Record<string, unknown>> = [];
  bus.on('turn.delta', ({ text: t }) => (text += t));
  bus.on('conversation.message', ({ message, declined }) => {
    if (message.role === 'assistant')
      for (const c of message.toolCalls ?? []) calls.push({ id: c.id, name: c.name, args: c.args });
    if (message.role !== 'tool') return;
    const call = calls.find((c) => c.id === message.toolCallId);
    if (call) Object.assign(call, { result: message.content, ...(declined ? { declined } : {}) });
  });
  bus.on('turn.ended', ({ status, message }) => {
    const t = o.spending?.turn;
    write({
      type: 'result',
      status,
      ...(message ? { message } : {}),
      text,
      tool_calls: calls,
      ...(t
        ? {
            usage: {
              input: t.input,
              output: t.output,
              cache_read: t.cacheRead,
              requests: t.requests,
              ...(t.priced > 0 ? { cost_usd: t.usd } : {}),
            },
          }
        : {}),
      ...(o.conversation ? { conversation: o.conversation() } : {}),
    });
  });
}

/**
 * One turn of `runner` (made unattended: app/agent.ts) on `prompt`, its answer or events written to
 * `io.out` as they come; the exit code: 0, 1 when the turn failed, 130 when SIGINT cancelled it.
 */
export async function runOnce(
  bus: Bus,
  runner: TurnRunner,
  prompt: string | { text: string; segments: Segment[]; images: readonly ImagePart[] },
  io: { out: NodeJS.WritableStream; err: NodeJS.WritableStream },
  options: RunOnceOptions = {},
): Promise<number> {
  // What milk would note in the transcript (no sandbox here, say) goes to stderr.
  bus.on('transcript.note', ({ text }) => io.err.write(`milk: ${text}\n`));
  let wrote = '';
  const write = (event: object): void => void io.out.write(JSON.stringify(event) + '\n');
  if (options.format === 'stream-json') jsonEvents(bus, write, options.spending);
  else if (options.format === 'json') jsonResult(bus, write, options);
  else {
    bus.on('turn.delta', ({ text }) => {
      io.out.write(text);
      wrote = text;
    });
  }
  const ended = new Promise<{ status: string; message?: string }>((resolve) => bus.on('turn.ended', resolve));
  const onSigint = (): void => void runner.cancel();
  process.on('SIGINT', onSigint);
  try {
    if (typeof prompt === 'string') runner.start(prompt);
    else runner.start(prompt.text, { segments: prompt.segments, images: prompt.images });
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
  }
}

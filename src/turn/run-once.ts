// `milk run`: one turn without the screen. The answer streams to stdout as it
// comes (or, with --json, one JSON object per line for each event of the
// turn); errors go to stderr with exit code 1; SIGINT cancels the turn
// cleanly and exits 130. Tools run in the working directory as the approval
// mode allows: there is no one to ask, so a call that would ask is refused
// and the model told why (read-only is the default; --approval auto-edit or
// full-auto lets edits, or everything, run).

import { Bus } from '../bus';
import type { Provider } from '../providers/provider';
import { TurnRunner } from './runner';
import { killLiveTools } from './runner';
import { Settings } from '../settings/store';
import type { ApprovalMode } from '../settings/approval';

export interface RunOnceOptions {
  systemPrompt?: () => string;
  /** One JSON object per line for each event, instead of the answer's text. */
  json?: boolean;
  /** The approval mode (read-only unless set), and the model. */
  settings?: Settings;
  /** Where tools run; without it the model gets no tools. */
  workspace?: string;
  /** Folders a sandboxed command must not see (the data dir). */
  hide?: readonly string[];
  /** The model's context window in tokens, when the config gives one. */
  contextWindow?: () => number | undefined;
}

/** Settings for milk run: read-only unless `approval` says otherwise (full-auto is force mode). */
export function runSettings(provider: Provider, approval: ApprovalMode = 'read-only'): Settings {
  const settings = new Settings({ provider: provider.name, model: provider.model ?? null });
  if (approval === 'full-auto') settings.force = true;
  else settings.approval = approval;
  return settings;
}

/** The turn's events as JSON lines: text, tool calls and results, usage, the end. */
function jsonEvents(bus: Bus, write: (event: object) => void): void {
  bus.on('turn.delta', ({ text }) => write({ type: 'text', text }));
  bus.on('conversation.message', ({ message, declined }) => {
    if (message.role === 'assistant') for (const c of message.toolCalls ?? []) write({ type: 'tool_call', id: c.id, name: c.name, args: c.args });
    if (message.role === 'tool') write({ type: 'tool_result', id: message.toolCallId, name: message.name, content: message.content, ...(declined ? { declined } : {}) });
  });
  bus.on('turn.usage', ({ input, output }) => write({ type: 'usage', input, output }));
  bus.on('turn.ended', ({ status, message }) => write({ type: 'end', status, ...(message ? { message } : {}) }));
}

export async function runOnce(provider: Provider, prompt: string, io: { out: NodeJS.WritableStream; err: NodeJS.WritableStream }, options: RunOnceOptions = {}): Promise<number> {
  const bus = new Bus();
  const settings = options.settings ?? runSettings(provider);
  // No one is there to answer: a call that would ask is refused, and the model told why.
  const runner = new TurnRunner(bus, provider, { systemPrompt: options.systemPrompt, settings, workspace: options.workspace, hide: options.hide, unattended: true, contextWindow: options.contextWindow });
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

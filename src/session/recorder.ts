// Writes a conversation into the session log as it happens, from the bus:
// each input, the answer in chunks (at least once a second while it
// streams, so a SIGKILL loses about a second of text), each complete
// message and tool result, and how a turn ended. It never reads the log and
// never touches the composer: recalling or searching history writes nothing.

import { withoutBytes } from '../kernel/images';
import type { Bus, Events } from '../kernel/bus';
import { LogEvent, newConversationId, userEvent } from './events';
import { loggableInput, redactSecretText } from '../history/rules';
import type { SessionLog } from './log';
import type { RecordedModel } from '../providers/resume';
import type { Segment } from '../protocol/segments';

const FLUSH_MS = 1000;
const MAX_CHUNK_CHARS = 256 * 1024;

export interface ConversationMeta {
  provider: string;
  model: string;
  baseUrl?: string;
  workspace: string | null;
}

export class SessionRecorder {
  /** The conversation being written. */
  conv: string;
  /** Its start event is in the log (written with the first input). */
  private started = false;
  /** The last conversation this milk wrote to (its start, or a resumed one): where `milk --resume` comes back to. */
  lastWritten: string | null = null;
  private msg = 0;
  /** A resumed conversation's model as its log has it, until its next input (null: nothing to compare). */
  private recorded: RecordedModel | null = null;
  private text = '';
  private timer: NodeJS.Timeout | null = null;
  /** A name given before the conversation's first input: written once it starts. */
  private pendingName: string | null = null;
  /**
   * How a secret is kept out of the log: as the placeholder the model was sent (secrets.ts) where milk masks what it
   * sends, else as its kind.
   */
  redact: (text: string) => string = redactSecretText;

  /** `meta` is read as each conversation starts and as its model changes (modelChanged). */
  constructor(
    bus: Bus,
    private readonly log: SessionLog,
    private readonly meta: () => ConversationMeta,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.conv = this.freshId();
    bus.on('turn.started', ({ input, segments, kind, images }) => {
      this.ensureStarted();
      // /compact sends nothing the person wrote (its summary is what the log gets); a `!` command is logged once it
      // ran, with its output.
      if (kind === 'compact' || kind === 'command') return;
      // What history would not keep, the log does not either: secrets redacted, a leading-space input left out.
      const kept = this.loggable(input, segments ?? [{ type: 'text', text: input }]);
      this.write(userEvent(this.conv, this.ts(), kept.text, kept.segments, images));
    });
    bus.on('turn.delta', ({ text }) => {
      this.text += text;
      // A fast stream is written a chunk at a time too: redacting and encoding a second of it at once costs a burst of
      // memory.
      if (this.text.length >= MAX_CHUNK_CHARS) return this.flushText();
      if (!this.timer) {
        this.timer = setTimeout(() => this.flushText(), FLUSH_MS);
        this.timer.unref();
      }
    });
    bus.on('conversation.message', (e) => this.message(e));
    // Each request's tokens: a conversation taken up again (-c) starts from its totals, not from nothing.
    bus.on('turn.usage', ({ input, output, cacheRead, cacheWrite, model }) => {
      const cache = { ...(cacheRead ? { cacheRead } : {}), ...(cacheWrite ? { cacheWrite } : {}) };
      this.write({ t: 'usage', conv: this.conv, ts: this.ts(), ...(model ? { model } : {}), input, output, ...cache });
    });
    // What a resumed conversation must send again: the input with the resources it named, secrets kept out.
    bus.on('turn.sent', ({ text }) => this.write({ t: 'sent', conv: this.conv, text: this.redact(text) }));
    bus.on('command.ran', ({ text, segments }) => {
      const kept = this.loggable(text, segments);
      this.write(userEvent(this.conv, this.ts(), kept.text, kept.segments));
    });
    // A message sent into the running turn is the person's input where it joined the conversation.
    bus.on('turn.steered', ({ text, segments }) => {
      this.flushText();
      const kept = this.loggable(text, segments ?? [{ type: 'text', text }]);
      this.write(userEvent(this.conv, this.ts(), kept.text, kept.segments));
    });
    bus.on('conversation.rewound', ({ kept }) => {
      this.flushText();
      this.write({ t: 'rewind', conv: this.conv, ts: this.ts(), kept });
    });
    bus.on('conversation.compacted', ({ summary, kept }) => {
      this.flushText();
      this.write({ t: 'compact', conv: this.conv, ts: this.ts(), summary: this.redact(summary), kept });
    });
    bus.on('turn.ended', ({ status, message }) => {
      this.flushText();
      if (status === 'interrupted') this.write({ t: 'interrupted', conv: this.conv, ts: this.ts() });
      if (status === 'error')
        this.write({ t: 'error', conv: this.conv, ts: this.ts(), message: message ?? 'the turn failed' });
    });
  }
  /** An input as the log keeps it: its secrets as `redact` keeps them, and history's rules (a leading space: none). */
  private loggable(text: string, segments: readonly Segment[]): { text: string; segments: Segment[] } {
    return loggableInput(
      this.redact(text),
      segments.map((seg) => ({ ...seg, text: this.redact(seg.text) })),
    );
  }

  /** An answer complete (its text is its deltas), or a tool's: what the model got, images without their bytes. */
  private message({ message, declined }: Events['conversation.message']): void {
    if (message.role === 'assistant') {
      this.flushText();
      this.write({
        t: 'assistant',
        conv: this.conv,
        msg: this.msg++,
        ...(message.toolCalls?.length ? { toolCalls: message.toolCalls } : {}),
      });
    } else if (message.role === 'tool') {
      this.write({
        t: 'tool',
        conv: this.conv,
        ts: this.ts(),
        callId: message.toolCallId,
        name: message.name,
        content: this.redact(message.content),
        ...(declined ? { declined } : {}),
        ...(message.images?.length ? { images: message.images.map(withoutBytes) } : {}),
      });
    }
  }

  /**
   * Goes on writing an existing conversation (after finish(); its lock taken); `nextMsg` continues its message numbers.
   * `recorded`: the model its log names, which its next input records again if milk goes on with another.
   */
  resume(conv: string, nextMsg: number, recorded: RecordedModel | null = null): void {
    this.recorded = recorded;
    this.pendingName = null;
    this.conv = conv;
    this.started = true;
    this.lastWritten = conv;
    this.msg = nextMsg;
  }

  /** The model changed (/model, a resume going back to its own): a conversation under way records it from here on. */
  modelChanged(): void {
    if (!this.started) return;
    this.recorded = null;
    const { provider, model, baseUrl } = this.meta();
    this.flushText();
    this.write({ t: 'model', conv: this.conv, ts: this.ts(), provider, model, ...(baseUrl ? { baseUrl } : {}) });
  }

  /** A resumed conversation going on with another model than its log's last says so, so its next resume does too. */
  private recordModelIfOther(): void {
    const was = this.recorded;
    this.recorded = null;
    if (!was) return;
    const now = this.meta();
    if (was.provider !== now.provider || was.model !== now.model || (was.baseUrl ?? '') !== (now.baseUrl ?? ''))
      this.modelChanged();
  }

  /** Closes the current conversation; the next input starts a new one. */
  startNew(): void {
    this.finish();
    this.conv = this.freshId();
    this.started = false;
    this.msg = 0;
    this.pendingName = null;
  }

  /** The conversation being written, once it has begun (its first input); null before. */
  writing(): string | null {
    return this.started ? this.conv : null;
  }

  /** An id for a conversation not yet started. */
  freshId(): string {
    return newConversationId(this.now(), Math.random());
  }

  /** At exit: what streamed since the last chunk, and the end of the conversation, go to disk now. */
  close(): void {
    this.finish();
    this.log.flushSync();
  }

  /** Ends the conversation being written (if it has begun) and lets go of its lock. */
  finish(): void {
    this.flushText();
    if (this.started) this.write({ t: 'end', conv: this.conv, ts: this.ts() });
    this.started = false;
    this.log.release();
  }

  private ensureStarted(): void {
    this.recordModelIfOther();
    if (this.started) return;
    this.started = true;
    this.lastWritten = this.conv;
    // A new id: no other milk has it, and from now on none takes it over.
    this.log.hold(this.conv);
    this.write({ t: 'start', conv: this.conv, ts: this.ts(), ...this.meta() });
    if (this.pendingName !== null) this.write({ t: 'name', conv: this.conv, ts: this.ts(), name: this.pendingName });
    this.pendingName = null;
  }

  /** The conversation named (/rename): in its log now, or with its start when it has none yet. */
  rename(name: string): void {
    if (!this.started) {
      this.pendingName = name;
      return;
    }
    this.flushText();
    this.write({ t: 'name', conv: this.conv, ts: this.ts(), name });
  }

  private flushText(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.text) return;
    // A secret the model or a tool repeats is kept out of the log too (per chunk written: at least a second's worth).
    this.write({ t: 'delta', conv: this.conv, ts: this.ts(), msg: this.msg, text: this.redact(this.text) });
    this.text = '';
  }

  private write(e: LogEvent): void {
    this.log.append(e);
  }

  private ts(): string {
    return this.now().toISOString();
  }
}

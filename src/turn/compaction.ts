// Compaction: past the mark of the model's context window the older turns are
// replaced, in what the model gets, by the model's own summary of them (the
// log keeps every message, and records the summary so a resumed conversation
// starts from it); /compact does it on demand. The decisions are compact.ts's
// (pure); this part asks the model and puts the summary in place.

import type { Bus } from '../kernel/bus';
import type { Provider } from '../providers/provider';
import type { ChatMessage } from '../protocol/messages';
import type { ToolSpec } from '../protocol/tools';
import type { Conversation } from './conversation';
import type { ActiveTurn } from './turn';
import { sanitize } from '../protocol/inert';
import { StreamSanitizer } from '../kernel/stream-sanitizer';
import {
  Calibration,
  DEFAULT_CONTEXT_WINDOW,
  MAX_SUMMARY_CHARS,
  SUMMARY_SYSTEM,
  cutToolOutputs,
  estimateTokens,
  isFull,
  messageTokens,
  onlySummary,
  splitAtCurrentTurn,
  summaryMessages,
  summaryRequest,
} from './compact';

export interface CompactionOptions {
  readonly bus: Bus;
  readonly provider: Provider;
  readonly conversation: Conversation;
  /** The model asked now (the settings'). */
  readonly model: () => string | undefined;
  /** The model's context window in tokens (config `contextWindow`), if known. */
  readonly contextWindow?: () => number | undefined;
}

export class Compaction {
  /** What the server counts against what is estimated (compact.ts). */
  private readonly calibration = new Calibration();
  /** The estimated tokens of the last request sent, for the calibration when its usage comes. */
  private lastEstimate = 0;

  constructor(private readonly o: CompactionOptions) {}

  /** A request's tokens, estimated: the system prompt, the tools offered, the messages. */
  estimate(
    messages: readonly ChatMessage[],
    system: string | undefined,
    tools: readonly ToolSpec[] | undefined,
  ): number {
    let n = estimateTokens(system ?? '') + (tools ? estimateTokens(JSON.stringify(tools)) : 0);
    for (const m of messages) n += messageTokens(m);
    return n;
  }

  /** A request is about to go: its estimate is kept, to be compared with what the server counts. */
  sending(messages: readonly ChatMessage[], system: string | undefined, tools: readonly ToolSpec[] | undefined): void {
    this.lastEstimate = this.estimate(messages, system, tools);
  }

  /** The server counted the last request's input tokens. */
  counted(inputTokens: number): void {
    this.calibration.observe(this.lastEstimate, inputTokens);
  }

  private tokens(system: string | undefined, tools: readonly ToolSpec[] | undefined): number {
    return this.calibration.tokens(this.estimate(cutToolOutputs(this.o.conversation.messages), system, tools));
  }

  /** How much of the model's window the next request would take (estimated, calibrated by what servers counted). */
  use(system: string | undefined, tools: readonly ToolSpec[] | undefined): { tokens: number; window: number } {
    return { tokens: this.tokens(system, tools), window: this.o.contextWindow?.() ?? DEFAULT_CONTEXT_WINDOW };
  }

  /**
   * Compacts the turns before the current one when the next request would fill the window past the mark; null when it
   * would not.
   */
  ifFull(turn: ActiveTurn, tools: readonly ToolSpec[] | undefined): Promise<boolean> | null {
    const window = this.o.contextWindow?.() ?? DEFAULT_CONTEXT_WINDOW;
    const tokens = this.tokens(turn.system, tools);
    if (!isFull(tokens, window)) return null;
    const { older, current } = splitAtCurrentTurn(this.o.conversation.messages);
    // The current turn alone, or after the summary made at an earlier crossing: nothing new to summarise (cut outputs
    // and the character budget are what is left). A summary that failed is not asked for again in the same turn.
    if (older.length === 0 || onlySummary(older) || turn.compactionFailed) return null;
    return this.summarise(turn, older, current.length, tokens).then((done) => {
      if (!done) turn.compactionFailed = true;
      return done;
    });
  }

  /** /compact's work: the whole conversation, summarised now; its tokens before, estimated. */
  everything(system: string | undefined): { older: ChatMessage[]; before: number } | null {
    const older = [...this.o.conversation.messages];
    if (!older.some((m) => m.role === 'user')) return null;
    return { older, before: this.tokens(system, undefined) };
  }

  /**
   * Asks the model for a summary of `older` and puts it in their place before
   * the last `kept` messages. A failure leaves the conversation as it was
   * (the character budget still applies), with a note.
   */
  async summarise(
    turn: ActiveTurn,
    older: ChatMessage[],
    kept: number,
    before: number,
    focus?: string,
  ): Promise<boolean> {
    const bus = this.o.bus;
    const count = `${older.length} earlier messages, about ${before.toLocaleString('en-US')} tokens`;
    bus.emit('transcript.note', { text: sanitize(`compacting the context: ${count}, into a summary…`) });
    let summary: string;
    try {
      summary = await this.ask(turn, older, focus);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      if (!turn.cancelled)
        bus.emit('transcript.note', {
          text: sanitize(
            `could not compact the context (${why}); the oldest turns are left out instead, as the budget requires`,
          ),
        });
      return false;
    }
    if (turn.cancelled) return false;
    if (!summary.trim()) {
      bus.emit('transcript.note', {
        text: sanitize('could not compact the context: the model answered with an empty summary; nothing was changed'),
      });
      return false;
    }
    this.o.conversation.summarised(summaryMessages(summary), kept);
    const after = this.tokens(turn.system, undefined);
    bus.emit('conversation.compacted', { turnId: turn.id, summary, kept });
    bus.emit('transcript.note', {
      text: sanitize(
        `── context compacted: ${older.length} earlier messages summarised, about ${before.toLocaleString('en-US')} ` +
          `→ ${after.toLocaleString('en-US')} tokens; the log keeps them all ──`,
      ),
    });
    return true;
  }

  /**
   * The model's summary of `older`, bounded; its own controller, so a summary past its bound is hung up on without
   * ending the turn.
   */
  private async ask(turn: ActiveTurn, older: ChatMessage[], focus?: string): Promise<string> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    turn.controller.signal.addEventListener('abort', onAbort, { once: true });
    const clean = new StreamSanitizer();
    let summary = '';
    try {
      const request = summaryRequest(older, focus);
      const model = this.o.model();
      for await (const item of this.o.provider.stream(request, controller.signal, { model, system: SUMMARY_SYSTEM })) {
        if (typeof item === 'string') summary += clean.push(item);
        // The summary is paid for as any request is.
        else if ('usage' in item)
          this.o.bus.emit('turn.usage', { turnId: turn.id, ...item.usage, ...(model ? { model } : {}) });
        if (summary.length > MAX_SUMMARY_CHARS) break;
      }
      return summary + clean.end();
    } finally {
      controller.abort();
      turn.controller.signal.removeEventListener('abort', onAbort);
    }
  }
}

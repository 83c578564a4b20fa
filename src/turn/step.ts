// One model step: a request streamed, its text shown (inert, through the
// sanitizer) and kept for the conversation within its caps, its reasoning
// shown dim and kept to send back, its usage reported, and the tool calls it
// asks for collected. An answer past the shown cap ends the turn: a stream
// that never stops must not eat the memory, nor ride along in every later
// request.

import type { Bus } from '../kernel/bus';
import type { Provider } from '../providers/provider';
import type { ChatMessage, Usage } from '../protocol/messages';
import type { ToolCall, ToolSpec } from '../protocol/tools';
import type { Effort } from '../settings/effort';
import { Inert, sanitize } from '../protocol/inert';
import { StreamSanitizer } from '../kernel/stream-sanitizer';
import type { ActiveTurn } from './turn';
import { emptyStep } from './turn';
import { showServerSearch } from './server-search';

export class AnswerTooLong extends Error {}

export interface StepOptions {
  readonly bus: Bus;
  readonly provider: Provider;
  /** Characters of one turn's answer shown, and of one step's kept in the conversation, at most. */
  readonly maxShown: number;
  readonly maxKept: number;
}

export interface StepRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolSpec[];
  readonly model?: string;
  /** The conversation's id, for the server's prompt cache. */
  readonly cacheKey?: string;
  /** The reasoning effort to ask. */
  readonly effort?: Effort;
  /** The provider's own web search may go with it (the person allowed it: app/agent-search.ts). */
  readonly webSearch?: boolean;
  /** What the server said the request cost (compaction calibrates its estimate by it). */
  readonly onUsage: (usage: Usage) => void;
}

/** Streams one request of `turn`; the tool calls it asks for (none: the turn's answer is complete). */
export async function streamStep(o: StepOptions, turn: ActiveTurn, req: StepRequest): Promise<ToolCall[]> {
  const clean = new StreamSanitizer();
  const thought = new StreamSanitizer();
  const calls: ToolCall[] = [];
  const signal = turn.controller.signal;
  try {
    for await (const item of o.provider.stream(req.messages, signal, {
      tools: req.tools,
      model: req.model,
      system: turn.system,
      cacheKey: req.cacheKey,
      effort: req.effort,
      ...(req.webSearch ? { webSearch: true } : {}),
    })) {
      if (signal.aborted) return calls;
      if (typeof item === 'string') deliver(o, turn, clean.push(item));
      else if ('usage' in item) {
        req.onUsage(item.usage);
        o.bus.emit('turn.usage', { turnId: turn.id, ...item.usage, ...(req.model ? { model: req.model } : {}) });
      } else if ('reasoning' in item) reason(o, turn, item.reasoning, thought.push(item.reasoning));
      else if ('thinking' in item) turn.step.thinking.push(item.thinking);
      else if ('notice' in item)
        o.bus.emit('transcript.note', { text: sanitize(`${o.provider.name}: ${item.notice}`) });
      else if ('search' in item)
        showServerSearch(o.bus, turn.id, item.search, (turn.searches = (turn.searches ?? 0) + 1));
      else calls.push(item.toolCall);
    }
  } catch (err) {
    // Past the cap: hang up on the server too, not just stop reading.
    if (err instanceof AnswerTooLong) turn.controller.abort();
    throw err;
  }
  deliver(o, turn, clean.end());
  return calls;
}

function live(turn: ActiveTurn): boolean {
  return !turn.cancelled && !turn.controller.signal.aborted;
}

/** Shows streamed text and keeps (a bounded part of) it for the conversation. */
function deliver(o: StepOptions, turn: ActiveTurn, text: Inert): void {
  if (!text || !live(turn)) return;
  const step = turn.step;
  const room = o.maxShown - turn.shown;
  // Cut at the cap: a character cut in two there is made whole again (or replaced) by the sanitizer.
  const shown = text.length > room ? sanitize(text.slice(0, Math.max(0, room))) : text;
  if (step.text.length < o.maxKept) step.text += shown.slice(0, o.maxKept - step.text.length);
  if (step.text.length >= o.maxKept && shown.length > 0) step.cut = true;
  turn.shown += shown.length;
  if (shown) o.bus.emit('turn.delta', { turnId: turn.id, text: shown });
  if (text.length > room) {
    throw new AnswerTooLong(
      `the answer passed ${o.maxShown.toLocaleString('en-US')} characters and was stopped there (the model keeps ` +
        `the first ${o.maxKept.toLocaleString('en-US')})`,
    );
  }
}

/** Reasoning streamed: shown (inert), and kept as it came, up to what the conversation keeps, to send back. */
function reason(o: StepOptions, turn: ActiveTurn, raw: string, shown: Inert): void {
  if (!live(turn)) return;
  const step = turn.step;
  if (step.reasoning.length < o.maxKept) step.reasoning += raw.slice(0, o.maxKept - step.reasoning.length);
  if (shown) o.bus.emit('turn.reasoning', { turnId: turn.id, text: shown });
}

function keptText(turn: ActiveTurn): string {
  const s = turn.step;
  return s.cut ? `${s.text}\n[the rest of this answer was cut off]` : s.text;
}

/**
 * What a stopped step leaves in the conversation: the text it had streamed (its reasoning is not sent back without its
 * answer).
 */
export function partialMessage(turn: ActiveTurn): ChatMessage {
  const content = keptText(turn);
  turn.step = emptyStep();
  return { role: 'assistant', content };
}

/**
 * The step's message for the conversation (its text marked when it was cut), with the calls it asked for; the next step
 * starts afresh.
 */
export function stepMessage(turn: ActiveTurn, calls: readonly ToolCall[] = []): ChatMessage & { role: 'assistant' } {
  const s = turn.step;
  const content = keptText(turn);
  turn.step = emptyStep();
  return {
    role: 'assistant',
    content,
    ...(calls.length ? { toolCalls: [...calls] } : {}),
    ...(s.reasoning ? { reasoning: s.reasoning } : {}),
    ...(s.thinking.length ? { thinking: s.thinking } : {}),
  };
}

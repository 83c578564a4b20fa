// Context that lasts: how many tokens a conversation takes (an estimate from
// its characters, calibrated against what the server says it counted), when
// it is full enough to compact, and what a compacted one is: a summary the
// model wrote of the older turns in their place, the current turn as it is.
// Tool outputs are cut to their head and tail in what is sent. Pure.

import type { ChatMessage } from '../protocol/messages';

/** Compaction starts past this share of the context window. */
export const COMPACT_AT = 0.8;
/** The context window assumed for a model the config says nothing of (tokens). */
export const DEFAULT_CONTEXT_WINDOW = 128_000;
/** A tool output longer than this is sent as its head and tail (characters). */
export const MAX_TOOL_CONTEXT_CHARS = 16_000;
/** The longest summary kept (characters). */
export const MAX_SUMMARY_CHARS = 40_000;

/**
 * Tokens in a text, estimated: a quarter of a token per ASCII character
 * (English prose and code run at about four characters a token in the
 * tokenizers of OpenAI and Anthropic), half for other alphabetic scripts, one
 * for CJK and other ideographic or syllabic characters. Calibration corrects
 * it per conversation.
 */
export function estimateTokens(text: string): number {
  let t = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) t += 0.25;
    else if (c >= 0xdc00 && c < 0xe000)
      continue; // The second half of a pair counted with the first.
    else t += c < 0x3000 ? 0.5 : 1;
  }
  return Math.ceil(t);
}

/** A message's tokens: its text, its tool calls' arguments, and a few for its framing. */
export function messageTokens(m: ChatMessage): number {
  const calls =
    m.role === 'assistant'
      ? (m.toolCalls ?? []).reduce((n, c) => n + estimateTokens(c.name) + estimateTokens(JSON.stringify(c.args)), 0)
      : 0;
  return estimateTokens(m.content) + calls + 4;
}

/**
 * The ratio of what a server counted to what was estimated, from the last
 * request whose usage it reported; 1 until it does. Bounded, so one odd
 * report (a cached prompt, a server that counts differently) cannot make
 * compaction start at once or never.
 */
export class Calibration {
  ratio = 1;

  observe(estimated: number, counted: number): void {
    if (estimated <= 0 || counted <= 0) return;
    this.ratio = Math.min(3, Math.max(0.5, counted / estimated));
  }

  tokens(estimated: number): number {
    return Math.ceil(estimated * this.ratio);
  }
}

/** Whether a request of `tokens` fills the window past the mark. */
export function isFull(tokens: number, window: number): boolean {
  return tokens > window * COMPACT_AT;
}

/** The older turns (to summarise) and the current one (kept whole): split at the last user message. */
export function splitAtCurrentTurn(messages: readonly ChatMessage[]): { older: ChatMessage[]; current: ChatMessage[] } {
  let at = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user') {
      at = i;
      break;
    }
  }
  if (at <= 0) return { older: [], current: [...messages] };
  return { older: messages.slice(0, at), current: messages.slice(at) };
}

/** A long text as its head and tail, saying how much was left out. */
export function headAndTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return (
    `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters of this output left out of the context ` +
    `…]\n${text.slice(text.length - half)}`
  );
}

/** The conversation as sent: long tool outputs cut to head and tail. */
export function cutToolOutputs(messages: readonly ChatMessage[], max = MAX_TOOL_CONTEXT_CHARS): ChatMessage[] {
  return messages.map((m) =>
    m.role === 'tool' && m.content.length > max ? { ...m, content: headAndTail(m.content, max) } : m,
  );
}

export const SUMMARY_SYSTEM =
  'You write summaries of coding sessions for yourself: another instance of you will continue the work from your ' +
  'summary alone, without the conversation it replaces.';

const SUMMARY_MARK =
  '[Summary of the conversation before this point, written when the context filled up. The log keeps the whole of it.]';

/** Whether a user message is a compaction's summary (not something the person typed). */
export function isSummary(content: string): boolean {
  return content.startsWith(SUMMARY_MARK);
}

/** What is asked of the model to summarise the older turns; `focus`: what the person wants kept above all. */
export function summaryRequest(older: readonly ChatMessage[], focus?: string): ChatMessage[] {
  const ask = [
    'Summarise the conversation so far, to replace it: the task as the person asked it (their words where they ' +
      'matter);',
    'what was decided and why; the files read, created or changed, and how; commands run and what they showed;',
    'what is done, what is open, and the next step. Keep exact names, paths, commands, errors and numbers. Write ' +
      'the summary only.',
    focus ? `Above all keep: ${focus}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return [...asText(cutToolOutputs(older)), { role: 'user', content: ask }];
}

/**
 * The conversation with its tool calls and results written out as text: the summary request offers no tools, and a
 * request that carries tool calls without tools is refused by Anthropic's API (400); the model reads what was called
 * and what came back all the same.
 */
export function asText(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m): ChatMessage => {
    if (m.role === 'tool') return { role: 'user', content: `[result of ${m.name}]\n${m.content}` };
    if (m.role !== 'assistant' || !m.toolCalls?.length) return m;
    const calls = m.toolCalls.map((c) => `[called ${c.name} ${JSON.stringify(c.args)}]`).join('\n');
    return { role: 'assistant', content: m.content ? `${m.content}\n${calls}` : calls };
  });
}

/** Whether the turns before the current one hold nothing but an earlier summary (nothing new to compact). */
export function onlySummary(older: readonly ChatMessage[]): boolean {
  return older.length <= 2 && older[0]?.role === 'user' && isSummary(older[0].content);
}

/**
 * The summary in the place of the turns it replaces: a user message, and the model's acknowledgement (both protocols
 * want turns to alternate).
 */
export function summaryMessages(summary: string): ChatMessage[] {
  const text = summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS)}\n[summary cut]` : summary;
  return [
    { role: 'user', content: `${SUMMARY_MARK}\n\n${text}` },
    { role: 'assistant', content: 'I have the summary of the work so far and continue from it.' },
  ];
}

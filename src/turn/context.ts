// What of a conversation is sent with a request: the newest whole turns
// within a character budget. Pure.

import type { ChatMessage } from '../protocol/messages';

function size(m: ChatMessage): number {
  const calls = m.role === 'assistant' ? (m.toolCalls ?? []).reduce((n, c) => n + JSON.stringify(c.args).length, 0) : 0;
  return m.content.length + calls;
}

/**
 * The newest whole turns (a user message and everything after it) that fit
 * in `maxChars`; the latest turn is always kept. `dropped` counts the turns
 * left out.
 */
export function trimContext(
  messages: readonly ChatMessage[],
  maxChars: number,
): { messages: ChatMessage[]; dropped: number } {
  const starts: number[] = [];
  messages.forEach((m, i) => m.role === 'user' && starts.push(i));
  let total = messages.reduce((n, m) => n + size(m), 0);
  let cut = 0;
  let dropped = 0;
  for (let k = 0; k + 1 < starts.length && total > maxChars; k++) {
    for (let i = starts[k]; i < starts[k + 1]; i++) total -= size(messages[i]);
    cut = starts[k + 1];
    dropped++;
  }
  return { messages: messages.slice(cut), dropped };
}

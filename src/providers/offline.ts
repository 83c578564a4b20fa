// The embedded default provider: a local demo agent with no network. It
// streams a short reply word by word with small delays, so streaming, Ctrl-C
// and history can all be tried without a server.

import { Provider, sleep } from './provider';
import { ChatMessage } from '../protocol/messages';
import type { ProviderKind } from './kind';

export interface OfflineOptions {
  /** Delay between words in ms. */
  wordDelayMs?: number;
}

function quote(input: string): string {
  const line = input.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? line.slice(0, 59) + '…' : line;
}

export function offlineReply(input: string, turn: number): string {
  const lines = input.split('\n').length;
  return [
    `(offline demo, turn ${turn}) You wrote ${lines === 1 ? 'one line' : `${lines} lines`}: "${quote(input)}".`,
    'I am the built-in offline agent, so I cannot read your code, but every part of milk works around me:',
    'this reply streams word by word, Ctrl-C stops it at once, and your input is kept in history.',
    'To talk to a real model, type /provider (it asks step by step),',
    'or start milk with --provider openai --base-url URL --model NAME.',
  ].join(' ');
}

export class OfflineProvider implements Provider {
  readonly name = 'offline';
  readonly hint = 'offline demo agent: /provider connects a real model';
  private readonly delay: number;

  constructor(options: OfflineOptions = {}) {
    this.delay = options.wordDelayMs ?? 25;
  }

  async *stream(messages: readonly ChatMessage[], signal: AbortSignal): AsyncIterable<string> {
    const users = messages.filter((m) => m.role === 'user');
    const reply = offlineReply(users[users.length - 1]?.content ?? '', users.length);
    for (const word of reply.split(/(?<= )/)) {
      await sleep(this.delay, signal);
      yield word;
    }
  }
}

export const offlineKind: ProviderKind = {
  title: 'the offline demo',
  unchecked: 'the offline demo: no model is set up',
  build: (_choice, env) => {
    // MILK_OFFLINE_DELAY_MS: the words' pace, for tests and the bench.
    const delay = Number(env.MILK_OFFLINE_DELAY_MS);
    const set = Number.isFinite(delay) && delay >= 0 && env.MILK_OFFLINE_DELAY_MS !== '';
    return new OfflineProvider({ wordDelayMs: set ? delay : undefined });
  },
};

// The conversation as the model gets it, and the inputs a rewind can go back
// to: messages in order, a rewind cutting them back, a compaction replacing
// the older ones by a summary, the newest whole turns within the character
// budget. Holds data only: the runner announces what changes. Pure.

import { imageChip } from '../kernel/images';
import type { ChatMessage } from '../protocol/messages';
import type { Segment } from '../protocol/segments';
import { trimContext } from './context';
import { cutToolOutputs, isSummary } from './compact';

/** An input of this conversation that a rewind can go back to. */
export interface Input {
  /** What was typed, for the composer. */
  segments: Segment[];
  /** Where its message is in the conversation. */
  at: number;
  /**
   * Its turn's number for the file copies (session/checkpoints.ts); -1 for one from before this process (no copies).
   */
  turn: number;
}

export class Conversation {
  private list: ChatMessage[] = [];
  /** The inputs a rewind can go back to (those since the last compaction). */
  private points: Input[] = [];
  /** Turns left out of the last request for the context budget. */
  private dropped = 0;
  /** The first turn this process ran in this conversation (what /diff counts from), or null. */
  private first: number | null = null;

  get messages(): readonly ChatMessage[] {
    return this.list;
  }

  get inputs(): readonly Input[] {
    return this.points;
  }

  get firstTurn(): number | null {
    return this.first;
  }

  /** Replaces it (a resumed one, or none for a new one); its inputs can be rewound to, with no files to put back. */
  load(messages: readonly ChatMessage[]): void {
    this.list = [...messages];
    this.dropped = 0;
    this.first = null;
    this.points = [];
    messages.forEach((m, at) => {
      if (m.role === 'user' && !isSummary(m.content))
        this.points.push({ segments: [{ type: 'text', text: m.content }], at, turn: -1 });
    });
  }

  push(message: ChatMessage): void {
    this.list.push(message);
  }

  /**
   * Takes every image out (a model that does not take images), each message saying which it held; false when there was
   * none to take.
   */
  dropImages(): boolean {
    let dropped = false;
    this.list = this.list.map((m) => {
      if ((m.role !== 'user' && m.role !== 'tool') || !m.images?.length) return m;
      dropped = true;
      const gone = m.images.map((i) => `\n${imageChip(i)} left out: the server refused images`).join('');
      return { ...m, content: m.content + gone, images: [] };
    });
    return dropped;
  }

  /** An input about to join, which a rewind can go back to. */
  markInput(segments: Segment[], turn: number): void {
    this.first ??= turn;
    this.points.push({ segments, at: this.list.length, turn });
  }

  /**
   * Back to before input `index`: it and everything after leave; the input, and how many messages left; null when there
   * is none.
   */
  rewind(index: number): { input: Input; dropped: number } | null {
    const input = this.points[index];
    if (!input) return null;
    const dropped = this.list.length - input.at;
    this.list = this.list.slice(0, input.at);
    this.points = this.points.slice(0, index);
    this.dropped = 0;
    return { input, dropped };
  }

  /**
   * The messages before the last `kept` replaced by `summary` (its messages): inputs inside it can no longer be rewound
   * to.
   */
  summarised(summary: readonly ChatMessage[], kept: number): void {
    const gone = this.list.length - kept;
    this.points = this.points.filter((i) => i.at >= gone).map((i) => ({ ...i, at: i.at - gone + summary.length }));
    this.list = [...summary, ...this.list.slice(gone)];
    this.dropped = 0;
  }

  /**
   * What is sent: long tool outputs cut, the newest whole turns within the
   * character budget; `note` when that leaves out a different number of turns
   * than the last request did.
   */
  context(maxChars: number): { messages: ChatMessage[]; note: string | null } {
    const { messages, dropped } = trimContext(cutToolOutputs(this.list), maxChars);
    if (dropped === this.dropped) return { messages, note: null };
    this.dropped = dropped;
    const note =
      dropped > 0
        ? `${dropped} earlier turn${dropped === 1 ? '' : 's'} left out of what the model gets (context budget); the ` +
          `log keeps them all`
        : null;
    return { messages, note };
  }
}

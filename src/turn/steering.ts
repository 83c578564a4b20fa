// Messages the person sends into a running model turn: queued with an id, and delivered between steps, after the tool
// call in progress and before the next model request, as the person's messages.

import type { Bus } from '../kernel/bus';
import type { ChatMessage } from '../protocol/messages';
import type { Inert } from '../protocol/inert';
import type { Segment } from '../protocol/segments';
import type { ActiveTurn } from './turn';

export class Steering {
  private lastId = 0;

  constructor(private readonly bus: Bus) {}

  /** Queues `text` for `turn`: its id, or null when the turn takes none (not a model turn, or stopped). */
  send(turn: ActiveTurn | null, text: string, display: Inert, segments?: Segment[]): number | null {
    if (!turn?.steering || turn.cancelled) return null;
    const id = ++this.lastId;
    turn.steering.push({ id, text, display, ...(segments ? { segments } : {}) });
    return id;
  }

  /** The messages sent into the turn so far join the conversation as the person's; false when there were none. */
  deliver(turn: ActiveTurn, record: (turnId: number, message: ChatMessage) => void): boolean {
    const pending = turn.steering?.splice(0) ?? [];
    for (const s of pending) {
      record(turn.id, { role: 'user', content: s.text });
      this.bus.emit('turn.steered', {
        turnId: turn.id,
        steerId: s.id,
        text: s.text,
        display: s.display,
        ...(s.segments ? { segments: s.segments } : {}),
      });
    }
    return pending.length > 0;
  }
}

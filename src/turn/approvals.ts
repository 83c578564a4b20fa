// The one channel a tool's question goes out on and its answer comes back on:
// each question has an id, the answer names it, and an answer to a question
// no longer open (its turn was cancelled, or another was asked since) is
// dropped. The views answer on the bus; the engine awaits here.

import type { Approval, Bus, Events } from '../bus';

export type Question = Omit<Events['approval.asked'], 'requestId'>;

export class Approvals {
  private lastId = 0;
  private readonly open = new Map<number, (answer: Approval) => void>();

  constructor(private readonly bus: Bus) {
    bus.on('approval.answered', ({ requestId, approval }) => this.open.get(requestId)?.(approval));
  }

  /** Asks the person; their answer, or 'interrupted' once `signal` fires (the turn was stopped). */
  ask(question: Question, signal: AbortSignal): Promise<Approval | 'interrupted'> {
    if (signal.aborted) return Promise.resolve('interrupted');
    const requestId = ++this.lastId;
    return new Promise((resolve) => {
      const settle = (answer: Approval | 'interrupted'): void => {
        this.open.delete(requestId);
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const onAbort = (): void => settle('interrupted');
      signal.addEventListener('abort', onAbort, { once: true });
      this.open.set(requestId, settle);
      this.bus.emit('approval.asked', { requestId, ...question });
    });
  }
}

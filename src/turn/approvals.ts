// The channels a tool's question goes out on and its answer comes back on: a
// call's approval, and what the model asks the person (ask_user, a plan). Each
// question has an id, the answer names it, and an answer to a question no
// longer open (its turn was cancelled, or another was asked since) is dropped.
// The views answer on the bus; the engine awaits here.

import type { Bus, Events } from '../kernel/bus';
import type { Approval } from '../protocol/approvals';
import type { PersonAnswer } from '../protocol/questions';

export type Question = Omit<Events['approval.asked'], 'requestId'>;
export type PersonQuestion = Omit<Events['question.asked'], 'requestId'>;

/** Questions open on one channel, by id: each settles once, with its answer or 'interrupted'. */
class Requests<A> {
  private lastId = 0;
  private readonly open = new Map<number, (answer: A | 'interrupted') => void>();

  answer(requestId: number, answer: A): void {
    this.open.get(requestId)?.(answer);
  }

  /** Puts a question out (`put` emits it with its id); its answer, or 'interrupted' once `signal` fires. */
  ask(signal: AbortSignal, put: (requestId: number) => void): Promise<A | 'interrupted'> {
    if (signal.aborted) return Promise.resolve('interrupted');
    const requestId = ++this.lastId;
    return new Promise((resolve) => {
      const settle = (answer: A | 'interrupted'): void => {
        this.open.delete(requestId);
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const onAbort = (): void => settle('interrupted');
      signal.addEventListener('abort', onAbort, { once: true });
      this.open.set(requestId, settle);
      put(requestId);
    });
  }
}

/** An approval as it comes back: the answer, and which hunks were taken when the change was taken hunk by hunk. */
export interface Answered {
  readonly approval: Approval;
  readonly hunks?: readonly boolean[];
}

export class Approvals {
  private readonly requests = new Requests<Answered>();

  constructor(private readonly bus: Bus) {
    bus.on('approval.answered', ({ requestId, approval, hunks }) =>
      this.requests.answer(requestId, hunks ? { approval, hunks } : { approval }),
    );
  }

  /** Asks the person; their answer, or 'interrupted' once `signal` fires (the turn was stopped). */
  ask(question: Question, signal: AbortSignal): Promise<Answered | 'interrupted'> {
    return this.requests.ask(signal, (requestId) => this.bus.emit('approval.asked', { requestId, ...question }));
  }
}

/** What the model asks the person (ask_user, propose_plan). */
export class Questions {
  private readonly requests = new Requests<PersonAnswer>();

  constructor(private readonly bus: Bus) {
    bus.on('question.answered', ({ requestId, answer }) => this.requests.answer(requestId, answer));
  }

  ask(question: PersonQuestion, signal: AbortSignal): Promise<PersonAnswer | 'interrupted'> {
    return this.requests.ask(signal, (requestId) => this.bus.emit('question.asked', { requestId, ...question }));
  }
}

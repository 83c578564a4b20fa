// Runs one turn at a time under a PCancelable that owns an AbortController.
// Cancelling is idempotent and ordered: mark cancelled, abort the stream,
// report once. Results carry their turn id so nothing from a cancelled turn
// is ever shown. The runner never touches a widget; it speaks through the bus.

import PCancelable from 'p-cancelable';
import type { Bus } from '../bus';
import { ChatMessage, Provider } from './provider';
import { StreamSanitizer } from './sanitize';

interface ActiveTurn {
  readonly id: number;
  readonly controller: AbortController;
  readonly promise: PCancelable<void>;
  cancelled: boolean;
  reply: string;
}

export class TurnRunner {
  private active: ActiveTurn | null = null;
  private lastId = 0;
  private readonly conversation: ChatMessage[] = [];

  constructor(private readonly bus: Bus, private readonly provider: Provider) {}

  get busy(): boolean {
    return this.active !== null;
  }

  get currentTurnId(): number | null {
    return this.active?.id ?? null;
  }

  /** Starts a turn for `input`; returns its id. Only one turn runs at a time. */
  start(input: string): number {
    if (this.active) throw new Error('a turn is already running');
    const id = ++this.lastId;
    const controller = new AbortController();
    this.conversation.push({ role: 'user', content: input });
    const messages = [...this.conversation];
    const promise = new PCancelable<void>((resolve, reject, onCancel) => {
      onCancel(() => controller.abort());
      this.stream(id, messages, controller.signal).then(resolve, reject);
    });
    const turn: ActiveTurn = { id, controller, promise, cancelled: false, reply: '' };
    this.active = turn;
    this.bus.emit('turn.started', { turnId: id, input });
    promise.then(
      () => this.finish(turn, 'done'),
      (err: unknown) => {
        if (turn.cancelled) return;
        this.finish(turn, 'error', err instanceof Error ? err.message : String(err));
      },
    );
    return id;
  }

  /** Interrupts the running turn. A second call, or a call when idle, does nothing. */
  cancel(): boolean {
    const turn = this.active;
    if (!turn || turn.cancelled) return false;
    turn.cancelled = true;
    turn.promise.cancel();
    this.finish(turn, 'interrupted');
    return true;
  }

  private async stream(id: number, messages: ChatMessage[], signal: AbortSignal): Promise<void> {
    const clean = new StreamSanitizer();
    for await (const delta of this.provider.stream(messages, signal)) {
      if (signal.aborted) return;
      this.deliver(id, clean.push(delta));
    }
    this.deliver(id, clean.end());
  }

  private deliver(id: number, text: string): void {
    const turn = this.active;
    if (!text || !turn || turn.id !== id || turn.cancelled) return;
    turn.reply += text;
    this.bus.emit('turn.delta', { turnId: id, text });
  }

  private finish(turn: ActiveTurn, status: 'done' | 'interrupted' | 'error', message?: string): void {
    if (this.active !== turn) return;
    this.active = null;
    if (turn.reply) this.conversation.push({ role: 'assistant', content: turn.reply });
    this.bus.emit('turn.ended', { turnId: turn.id, status, message });
  }
}

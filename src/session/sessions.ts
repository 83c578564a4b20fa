// Bringing conversations back: --continue (the last one), --resume ID, what
// the picker (--resume, /resume; a view on the composer) offers, and /new. Reads the session log, rebuilds the
// model's context and the transcript, and points the recorder at the chosen
// conversation. The log is never rewritten here, only read.

import type { Bus } from '../bus';
import type { TurnRunner } from '../turn/runner';
import type { LogEvent } from './events';
import type { SessionLog } from './log';
import { ConversationSummary, conversations, replay } from './replay';
import type { SessionRecorder } from './recorder';

export class Sessions {
  constructor(
    private readonly bus: Bus,
    private readonly runner: TurnRunner,
    private readonly log: SessionLog,
    private readonly recorder: SessionRecorder,
    private readonly maxKept?: number,
  ) {}

  /** Resumes the session's last conversation; false when it has none. */
  continueLast(): boolean {
    const events = this.read();
    const all = conversations(events);
    const last = all[all.length - 1];
    if (last) this.resume(events, last);
    this.warnAfter();
    return last !== undefined;
  }

  /** Resumes one conversation by id; false when the session has no such conversation. */
  resumeId(id: string): boolean {
    const events = this.read();
    const found = conversations(events).find((c) => c.id === id);
    if (found) this.resume(events, found);
    this.warnAfter();
    return found !== undefined;
  }

  /** The session's conversations, oldest first, for the resume picker. */
  list(): ConversationSummary[] {
    const all = conversations(this.read());
    this.warnAfter();
    return all;
  }

  /** A damaged log is reported once the conversation is on screen, so the warning stays in view. */
  private warnAfter(): void {
    const w = this.log.takeWarning();
    if (w) this.bus.emit('status.warning', { text: w });
  }

  /** /new: the model forgets, the transcript clears, the log starts another conversation. */
  startNew(): void {
    this.runner.load([]);
    this.recorder.startNew();
    this.bus.emit('session.new', {});
  }

  private read(): LogEvent[] {
    // This process's own unwritten events belong in what is read.
    this.log.flushSync();
    return this.log.read();
  }

  private resume(events: readonly LogEvent[], conv: ConversationSummary): void {
    const r = replay(events, conv.id, this.maxKept);
    this.runner.load(r.messages);
    let next = 0;
    for (const e of events) if (e.conv === conv.id && (e.t === 'assistant' || e.t === 'delta')) next = Math.max(next, e.msg + 1);
    this.recorder.resume(conv.id, next);
    this.bus.emit('session.resumed', { items: r.items, at: r.lastTs });
  }
}

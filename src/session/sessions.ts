// Bringing conversations back: --continue (the most recently active one),
// --resume ID, what the picker (--resume, /resume; a view on the composer)
// offers, and /new. Reads a conversation's log, rebuilds the model's context
// and the transcript, and points the recorder at the chosen conversation. A
// conversation another live milk is writing is not taken over: this milk
// goes on in a copy of it (a branch), and says so. The log is never
// rewritten here, only read.

import type { Bus } from '../bus';
import type { TurnRunner } from '../turn/runner';
import { LogEvent, recordedModel } from './events';
import type { RecordedModel } from '../providers/resume';
import type { ChatMessage } from '../providers/provider';
import type { SessionLog } from './log';
import { logFiles, purgeFile } from './purge';
import { describeIoError } from '../io/errors';
import { ConversationSummary, replay } from './replay';
import type { SessionRecorder } from './recorder';
import { sanitize } from '../inert';

export class Sessions {
  constructor(
    private readonly bus: Bus,
    private readonly runner: TurnRunner,
    private readonly log: SessionLog,
    private readonly recorder: SessionRecorder,
    private readonly maxKept?: number,
    /** Puts back the provider and model the conversation was with; what to say about it (agent-parts.ts). */
    private readonly restoreModel?: (recorded: RecordedModel) => string | null,
    /** Reads a resumed conversation's images again (the log keeps what they were); notes what could not be. */
    private readonly reread?: (messages: ChatMessage[]) => { messages: ChatMessage[]; notes: string[] },
  ) {}

  /**
   * Resumes the session's most recently active conversation (the one with an input written last); false when it has
   * none.
   */
  continueLast(): boolean {
    for (const id of this.log.byRecency()) {
      const events = this.log.read(id);
      if (!events.some((e) => e.t === 'user')) continue;
      this.resume(id, events);
      this.warnAfter();
      return true;
    }
    this.warnAfter();
    return false;
  }

  /** Resumes one conversation by id; false when the session has no such conversation. */
  resumeId(id: string): boolean {
    const events = this.log.byRecency().includes(id) ? this.log.read(id) : [];
    const found = events.some((e) => e.t === 'user');
    if (found) this.resume(id, events);
    this.warnAfter();
    return found;
  }

  /** The session's conversations, most recently active last, for the resume picker. */
  list(): ConversationSummary[] {
    const all = this.log.list();
    this.warnAfter();
    return all;
  }

  /** A damaged log is reported once the conversation is on screen, so the warning stays in view. */
  private warnAfter(): void {
    const w = this.log.takeWarning();
    if (w) this.bus.emit('status.warning', { text: sanitize(w) });
  }

  /**
   * Takes an input deleted from history out of every conversation log in
   * the data dir: one file per tick, so keys go on being read while a large
   * data dir is gone through. Says how many were taken out, or what failed.
   */
  purgeInput(text: string): void {
    const dataDir = this.log.dataDir();
    if (!dataDir) return;
    this.log.flushSync();
    const files = logFiles(dataDir);
    const match = (t: string): boolean => t === text;
    let inputs = 0;
    let failed: unknown = null;
    const step = (i: number): void => {
      if (i >= files.length) {
        if (failed)
          this.bus.emit('status.warning', {
            text: sanitize(`not deleted from every conversation log (${describeIoError(failed)})`),
          });
        else if (inputs > 0)
          this.bus.emit('status.hint', {
            text: sanitize(
              `deleted from history and from the conversation logs (${inputs} ${inputs === 1 ? 'input' : 'inputs'})`,
            ),
          });
        return;
      }
      try {
        inputs += purgeFile(files[i], { match, quote: text }).inputs;
      } catch (err) {
        failed ??= err;
      }
      setImmediate(() => step(i + 1));
    };
    setImmediate(() => step(0));
  }

  /** /new: the model forgets, the transcript clears, the log starts another conversation. */
  startNew(): void {
    this.runner.load([]);
    this.recorder.startNew();
    this.bus.emit('session.new', {});
  }

  private resume(id: string, events: LogEvent[] = this.log.read(id)): void {
    this.recorder.finish();
    let conv = id;
    let branched: string | null = null;
    const holder = this.log.hold(id);
    if (holder !== null) {
      conv = this.recorder.freshId();
      this.log.branch(events, conv);
      this.log.hold(conv);
      const who = holder > 0 ? `another milk (pid ${holder})` : 'another milk';
      branched = `conversation ${id} is open in ${who}; this one goes on in a copy of it, ${conv}`;
    }
    // Before the recorder is pointed at it: the switch back is no change of the conversation's own model.
    const recorded = recordedModel(events);
    const switched = recorded && this.restoreModel ? this.restoreModel(recorded) : null;
    const r = replay(events, id, this.maxKept);
    const images = this.reread?.(r.messages) ?? { messages: r.messages, notes: [] };
    this.runner.load(images.messages, r.checklist);
    let next = 0;
    for (const e of events) if (e.t === 'assistant' || e.t === 'delta') next = Math.max(next, e.msg + 1);
    this.recorder.resume(conv, next, recorded);
    // What a log holds was a model's or a tool's output, or an error's words: shown as inert as it was live.
    this.bus.emit('session.resumed', {
      items: r.items.map((i) => ({ kind: i.kind, text: sanitize(i.text) })),
      at: r.lastTs,
    });
    if (branched) this.bus.emit('transcript.note', { text: sanitize(branched) });
    if (switched) this.bus.emit('transcript.note', { text: sanitize(switched) });
    for (const note of images.notes) this.bus.emit('transcript.note', { text: sanitize(note) });
  }
}

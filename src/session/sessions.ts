// Bringing conversations back: --continue (the most recently active one),
// --resume ID, what the picker (--resume, /resume; a view on the composer)
// offers, and /new. Reads a conversation's log, rebuilds the model's context
// and the transcript, and points the recorder at the chosen conversation. A
// conversation another live milk is writing is not taken over: this milk
// goes on in a copy of it (a branch), and says so. The log is never
// rewritten here, only read.

import type { Bus } from '../kernel/bus';
import type { TurnRunner } from '../turn/runner';
import { LogEvent, recordedModel } from './events';
import type { RecordedModel } from '../providers/resume';
import type { ChatMessage } from '../protocol/messages';
import type { SessionLog } from './log';
import { logFiles, purgeFile } from './purge';
import { describeIoError } from '../io/errors';
import { ConversationSummary, replay } from './replay';
import type { SessionRecorder } from './recorder';
import { sanitize } from '../protocol/inert';
import { exportDoc, exportJson, exportMarkdown } from './export';
import { writeAtomic } from '../io/files';
import { lastTurn } from './bug-report';
import * as os from 'node:os';
import * as path from 'node:path';

export class Sessions {
  constructor(
    private readonly bus: Bus,
    private readonly runner: TurnRunner,
    private readonly log: SessionLog,
    private readonly recorder: SessionRecorder,
    private readonly maxKept?: number,
    /** Puts back the provider and model the conversation was with; what to say about it (app/agent.ts). */
    private readonly restoreModel?: (recorded: RecordedModel) => string | null,
    /** Reads a resumed conversation's images again (the log keeps what they were); notes what could not be. */
    private readonly reread?: (messages: ChatMessage[]) => { messages: ChatMessage[]; notes: string[] },
  ) {}

  /**
   * Resumes the session's most recently active conversation (the one with an input written last); false when it has
   * none.
   */
  continueLast(fork = false): boolean {
    for (const id of this.log.byRecency()) {
      const events = this.log.read(id);
      if (!events.some((e) => e.t === 'user')) continue;
      this.resume(id, events, fork);
      this.warnAfter();
      return true;
    }
    this.warnAfter();
    return false;
  }

  /**
   * Resumes one conversation by id; false when the session has no such conversation. `fork`: it goes on in a copy,
   * the conversation itself left as it was.
   */
  resumeId(idOrName: string, fork = false): boolean {
    const id = this.log.byRecency().includes(idOrName) ? idOrName : this.named(idOrName);
    const events = id !== null ? this.log.read(id) : [];
    const found = id !== null && events.some((e) => e.t === 'user');
    if (found) this.resume(id, events, fork);
    this.warnAfter();
    return found;
  }

  /** The conversation `name` names (the most recently active of those that bear it), or null. */
  private named(name: string): string | null {
    const all = this.log.list().filter((c) => c.name === name);
    return all.length ? all[all.length - 1].id : null;
  }

  /** Names the current conversation (/rename), as its log keeps it. */
  rename(name: string): void {
    this.recorder.rename(name);
    this.bus.emit('conversation.named', { name });
  }

  /** The current conversation's last turn as its log keeps it (/bug); empty before its first input. */
  lastTurn(): LogEvent[] {
    const conv = this.recorder.writing();
    if (conv === null || !this.log.dataDir()) return [];
    this.log.flushSync();
    return lastTurn(this.log.read(conv), conv);
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

  /** /fork: the conversation goes on in a copy from here, the one so far left as it was; what to tell the person. */
  fork(): string {
    const from = this.recorder.writing();
    if (from === null) return 'nothing to fork yet: this conversation has had no input';
    if (!this.log.dataDir()) return 'no conversation log here (no data dir): nothing to fork';
    this.log.flushSync();
    const events = this.log.read(from);
    this.warnAfter();
    const to = this.recorder.freshId();
    this.recorder.finish();
    this.log.branch(events, to);
    this.log.hold(to);
    this.recorder.resume(to, nextMessage(events));
    return `forked: this conversation goes on as ${to}; ${from} stays as it was (milk --resume ${from})`;
  }

  /**
   * /export: the conversation so far, from its log (masked as the log is), to `where` (relative to `workspace`, `~/`
   * for the home folder; by default milk-ID.md there), as JSON when it ends in .json; what to tell the person.
   */
  exportTo(where: string | undefined, workspace: string): string {
    const conv = this.recorder.writing();
    if (conv === null) return 'nothing to export yet: this conversation has had no input';
    const file = path.resolve(workspace, expandHome(where ?? `milk-${conv}.md`));
    if (!this.log.dataDir()) return 'no conversation log here (no data dir): nothing to export';
    this.log.flushSync();
    const doc = exportDoc(this.log.read(conv), conv, new Date().toISOString());
    this.warnAfter();
    const json = file.toLowerCase().endsWith('.json');
    try {
      writeAtomic(file, json ? exportJson(doc) : exportMarkdown(doc));
    } catch (err) {
      return `not exported: ${describeIoError(err)}`;
    }
    const what = `${doc.entries.length} ${doc.entries.length === 1 ? 'entry' : 'entries'}`;
    return `exported conversation ${conv} (${what}, as ${json ? 'JSON' : 'Markdown'}) to ${file}`;
  }

  private resume(id: string, events: LogEvent[] = this.log.read(id), fork = false): void {
    this.recorder.finish();
    let conv = id;
    let branched: string | null = null;
    const holder = fork ? null : this.log.hold(id);
    if (fork || holder !== null) {
      conv = this.recorder.freshId();
      this.log.branch(events, conv);
      this.log.hold(conv);
      const who = holder !== null && holder > 0 ? `another milk (pid ${holder})` : 'another milk';
      branched = fork
        ? `forked: conversation ${id} goes on here as ${conv}; ${id} stays as it was`
        : `conversation ${id} is open in ${who}; this one goes on in a copy of it, ${conv}`;
    }
    // Before the recorder is pointed at it: the switch back is no change of the conversation's own model.
    const recorded = recordedModel(events);
    const switched = recorded && this.restoreModel ? this.restoreModel(recorded) : null;
    const r = replay(events, id, this.maxKept);
    const images = this.reread?.(r.messages) ?? { messages: r.messages, notes: [] };
    this.runner.load(images.messages, r.checklist);
    this.recorder.resume(conv, nextMessage(events), recorded);
    // What a log holds was a model's or a tool's output, or an error's words: shown as inert as it was live.
    this.bus.emit('session.resumed', {
      items: r.items.map((i) => ({ kind: i.kind, text: sanitize(i.text) })),
      at: r.lastTs,
      spent: r.spent,
    });
    let name = '';
    for (const e of events) if (e.t === 'name') name = e.name;
    this.bus.emit('conversation.named', { name });
    if (branched) this.bus.emit('transcript.note', { text: sanitize(branched) });
    if (switched) this.bus.emit('transcript.note', { text: sanitize(switched) });
    for (const note of images.notes) this.bus.emit('transcript.note', { text: sanitize(note) });
  }
}

/** The number the next assistant message of a conversation with these events takes. */
function nextMessage(events: readonly LogEvent[]): number {
  let next = 0;
  for (const e of events) if (e.t === 'assistant' || e.t === 'delta') next = Math.max(next, e.msg + 1);
  return next;
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

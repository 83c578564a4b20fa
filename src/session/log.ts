// One session's conversation logs on disk: one file per conversation,
// `<data>/sessions/<id>/<conversation>.jsonl`, so that no file grows with
// every conversation ever had, and each is read line by line (io/lines.ts),
// never as one string: a log of any size stays readable. A log is read
// forgivingly (a damaged one is copied aside, then rewritten clean), appended
// to with one O_APPEND write per batch, off the keystroke (events are queued
// and written together right after the event that queued them, in order),
// and flushed at exit. A conversation a milk is writing is locked
// (`<conversation>.jsonl.lock`, for as long as that milk lives): a second
// milk that wants it gets a copy to go on with instead of garbling it.
// Sessions of older versions kept every conversation in one
// `<data>/sessions/<id>.jsonl`; it is split into the folder when first read.
// Messages name files, never their content. Where the files are, reading one
// and splitting an older one: log-files.ts.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { asideName, ensureDir, fileEnd, openForAppend, writeAll, writeAtomic } from '../io/files';
import { describeIoError } from '../io/errors';
import { lockHolder, tryLock, unlock } from '../io/lock';
import { LogEvent, ParsedLog, serializeEvent } from './events';
import type { ConversationSummary } from './replay';
import {
  FOREIGN_NOTE,
  byActivity,
  conversationFile,
  conversationIds,
  migrateLegacyLog,
  problemsOf,
  readLogFile,
  summarizeFile,
} from './log-files';

/**
 * Conversation locks this process holds: a lock with our pid that is not in here is a dead process's that had our pid.
 */
const heldHere = new Set<string>();

export class SessionLog {
  private fd: number | null = null;
  /** The conversation whose file is open (or is to be opened for what is pending). */
  private openConv: string | null = null;
  private pending = '';
  private pendingConv: string | null = null;
  /** A drain is scheduled for after the current event. */
  private drainScheduled = false;
  private failed = false;
  private held: string | null = null;
  private migrated = false;
  /** What the last read found wrong, for the caller to show once the conversation is on screen. */
  private readWarning: string | null = null;
  /** FOREIGN_NOTE was given. */
  private notedForeign = false;

  /**
   * `dir` null: no data dir; nothing is read or written. `legacy`: the older one-file log, split into `dir` when first
   * read.
   */
  constructor(
    readonly dir: string | null,
    private readonly warn: (text: string) => void,
    private readonly legacy: string | null = null,
  ) {}

  /** The data dir the log is in, or null. */
  dataDir(): string | null {
    return this.dir ? path.dirname(path.dirname(this.dir)) : null;
  }

  /** The file of a conversation, or null without a data dir. */
  fileOf(conv: string): string | null {
    return this.dir ? conversationFile(this.dir, conv) : null;
  }

  /** The warning the last read left (damage, unreadable), once. */
  takeWarning(): string | null {
    const w = this.readWarning;
    this.readWarning = null;
    return w;
  }

  /** The session's conversations with at least one input, most recently active last. */
  list(): ConversationSummary[] {
    if (!this.dir) return [];
    this.migrate();
    // This process's own unwritten events belong in what is read.
    this.flushSync();
    const dir = this.dir;
    return conversationIds(dir)
      .flatMap((id) => summarizeFile(conversationFile(dir, id)) ?? [])
      .sort(byActivity);
  }

  /**
   * The conversations with a file, most recently written first (by the
   * files' times: a --continue reads only the one it takes, not every
   * conversation the session ever had).
   */
  byRecency(): string[] {
    if (!this.dir) return [];
    this.migrate();
    this.flushSync();
    const dir = this.dir;
    const when = (id: string): number => {
      try {
        return fs.statSync(conversationFile(dir, id)).mtimeMs;
      } catch {
        return 0;
      }
    };
    return conversationIds(dir)
      .map((id) => ({ id, at: when(id) }))
      .sort((a, b) => b.at - a.at || b.id.localeCompare(a.id))
      .map((c) => c.id);
  }

  /**
   * Every good event of one conversation. A damaged log is copied aside and rewritten with its good
   * events and a newer milk's, line for line; takeWarning() says so. A newer milk's events alone are
   * not damage: they are skipped, the file left as it is, and said once.
   */
  read(conv: string): LogEvent[] {
    const file = this.fileOf(conv);
    if (!file) return [];
    this.migrate();
    this.flushSync();
    let parsed: ParsedLog;
    try {
      parsed = readLogFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.readWarning = `conversation log unreadable (${describeIoError(err)}); starting a new conversation`;
      return [];
    }
    const events = parsed.events.filter((e) => e.conv === conv);
    const problems = problemsOf(parsed);
    if (problems.length > 0) this.repair(file, conv, events.length, problems);
    else if (parsed.unknown > 0 && !this.notedForeign) {
      this.notedForeign = true;
      this.readWarning = FOREIGN_NOTE;
    }
    return events;
  }

  /**
   * Takes the lock of a conversation this milk will write to, letting go of
   * the one it held. Returns null when taken, else the pid of the live milk
   * that holds it (a lock whose holder is dead is broken).
   */
  hold(conv: string): number | null {
    const file = this.fileOf(conv);
    if (!file) return null;
    if (this.held === conv) return null;
    this.release();
    try {
      ensureDir(path.dirname(file));
      if (!tryLock(file, Infinity)) {
        const holder = lockHolder(file);
        if (holder !== process.pid || heldHere.has(file)) return holder ?? -1;
        // Our pid, not taken by us: a dead milk's whose pid was reused for this one.
        unlock(file);
        if (!tryLock(file, Infinity)) return lockHolder(file) ?? -1;
      }
    } catch {
      // A folder that cannot take a lock file cannot take the log either; the first write says so.
      return null;
    }
    heldHere.add(file);
    this.held = conv;
    return null;
  }

  /** Lets go of the conversation held, after writing what is queued for it. */
  release(): void {
    if (this.held === null) return;
    this.flushSync();
    const file = this.fileOf(this.held) as string;
    unlock(file);
    heldHere.delete(file);
    this.held = null;
  }

  /** Starts conversation `to` as a copy of `events` (another conversation's), so it goes on from where that one is. */
  branch(events: readonly LogEvent[], to: string): void {
    const file = this.fileOf(to);
    if (!file) return;
    try {
      writeAtomic(
        file,
        events.map((e) => serializeEvent({ ...e, conv: to })),
        { exclusive: true },
      );
    } catch (err) {
      this.fail(err);
    }
  }

  /** Queues an event; it is written asynchronously, in order, to its conversation's file. */
  append(event: LogEvent): void {
    if (!this.dir) return;
    if (this.pendingConv !== null && this.pendingConv !== event.conv) this.flushSync();
    this.pendingConv = event.conv;
    this.pending += serializeEvent(event);
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      setImmediate(() => {
        this.drainScheduled = false;
        this.flushSync();
      });
    }
  }

  /**
   * Writes whatever is queued, now: after the key or event that queued it
   * (never inside it), and at exit. One write of whole lines to the page
   * cache, as a history append is: a write still in flight when the log is
   * flushed at exit, or read by the next milk, could land after what follows it.
   */
  flushSync(): void {
    if (!this.pending) return;
    if (this.open(this.pendingConv as string)) {
      try {
        writeAll(this.fd as number, this.pending);
      } catch (err) {
        this.fail(err);
      }
    }
    this.pending = '';
    this.pendingConv = null;
  }

  private migrate(): void {
    if (this.migrated || !this.legacy || !this.dir) return;
    this.migrated = true;
    const w = migrateLegacyLog(this.legacy, this.dir);
    if (w) this.readWarning = w;
  }

  /**
   * Opens a conversation's file for appending, once and again whenever the
   * file at the path is no longer the one open (another milk repaired and
   * replaced it: appending to the old one would write into a file nobody
   * will read). A torn last line (a writer killed mid-line) gets its newline first.
   */
  private open(conv: string): boolean {
    if (this.fd !== null && this.openConv === conv && !this.replaced()) return true;
    if (this.fd !== null) {
      fs.closeSync(this.fd);
      this.fd = null;
    }
    const file = this.fileOf(conv);
    if (this.failed || !file) return false;
    try {
      ensureDir(path.dirname(file));
      this.fd = openForAppend(file);
      this.openConv = conv;
      if (fileEnd(this.fd) === 'torn') this.pending = '\n' + this.pending;
      return true;
    } catch (err) {
      this.fail(err);
      return false;
    }
  }

  /** Whether the path now names another file than the one open. */
  private replaced(): boolean {
    try {
      return fs.statSync(this.fileOf(this.openConv as string) as string).ino !== fs.fstatSync(this.fd as number).ino;
    } catch {
      return true;
    }
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.warn(`conversation log not saved (${describeIoError(err)}); this conversation will not resume`);
  }

  /**
   * Copies a damaged log aside and rewrites it with its good lines (this conversation's and a newer milk's), in order.
   */
  private repair(file: string, conv: string, events: number, problems: string[]): void {
    const aside = asideName(file);
    try {
      fs.copyFileSync(file, aside, fs.constants.COPYFILE_EXCL);
      fs.chmodSync(aside, 0o600);
      const kept: string[] = [];
      readLogFile(
        aside,
        (e, line) => {
          if (e.conv === conv) kept.push(line + '\n');
        },
        (line) => kept.push(line + '\n'),
      );
      writeAtomic(file, kept);
      this.readWarning =
        `conversation log damaged (${problems.join(', ')}); kept ${events} events, original saved ` +
        `as ${path.basename(aside)}`;
    } catch (err) {
      this.readWarning =
        `conversation log damaged (${problems.join(', ')}); could not save a copy ` + `(${describeIoError(err)})`;
    }
  }
}

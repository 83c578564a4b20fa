// One session's conversation log on disk, `<data>/sessions/<id>.jsonl`:
// read forgivingly at resume (a damaged file is copied aside, then rewritten
// clean), appended to with one O_APPEND write per batch, off the keystroke
// (events are queued and written together right after the event that queued
// them, in order), and flushed at exit. Messages name the file, never its content.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { asideName, ensureDir, fileEnd, openForAppend, readRegular, writeAll, writeAtomic } from '../io/files';
import { describeIoError } from '../io/errors';
import { LogEvent, parseLog, serializeEvent } from './events';
import { validEvent } from './schema';

export function sessionLogPath(dataDir: string, sessionId: string): string {
  return path.join(dataDir, 'sessions', `${sessionId}.jsonl`);
}

export class SessionLog {
  private fd: number | null = null;
  private pending = '';
  /** A drain is scheduled for after the current event. */
  private drainScheduled = false;
  private failed = false;
  /** What the last read found wrong, for the caller to show once the conversation is on screen. */
  private readWarning: string | null = null;

  /** `file` null: no data dir; nothing is read or written. */
  constructor(readonly file: string | null, private readonly warn: (text: string) => void) {}

  /** The warning the last read left (damage, unreadable), once. */
  takeWarning(): string | null {
    const w = this.readWarning;
    this.readWarning = null;
    return w;
  }

  /** Every good event in the log. A damaged log is copied aside and rewritten with its good events; takeWarning() says so. */
  read(): LogEvent[] {
    if (!this.file) return [];
    let text: string;
    try {
      text = readRegular(this.file).toString('utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.readWarning = `conversation log unreadable (${describeIoError(err)}); starting a new conversation`;
      return [];
    }
    const parsed = parseLog(text, validEvent);
    const problems = [
      parsed.bad ? `${parsed.bad} unreadable line${parsed.bad === 1 ? '' : 's'}` : '',
      parsed.unknown ? `${parsed.unknown} event${parsed.unknown === 1 ? '' : 's'} of unknown type` : '',
    ].filter(Boolean);
    if (problems.length > 0) this.repair(text, parsed.events, problems);
    return parsed.events;
  }

  /** Queues an event; it is written asynchronously, in order. */
  append(event: LogEvent): void {
    if (!this.file) return;
    this.pending += serializeEvent(event);
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Writes whatever is queued, now (exit). */
  flushSync(): void {
    if (!this.pending || !this.open()) return;
    try {
      writeAll(this.fd as number, this.pending);
    } catch (err) {
      this.fail(err);
    }
    this.pending = '';
  }

  /**
   * Writes what is queued, after the key or event that queued it (never
   * inside it). One write of whole lines to the page cache, as a history
   * append is: a write still in flight when the log is flushed at exit, or
   * read by the next milk, could land after what follows it.
   */
  private drain(): void {
    this.drainScheduled = false;
    if (!this.pending) return;
    if (!this.open()) {
      this.pending = '';
      return;
    }
    try {
      writeAll(this.fd as number, this.pending);
    } catch (err) {
      this.fail(err);
    }
    this.pending = '';
  }

  /**
   * Opens for appending, once and again whenever the file at the path is no
   * longer the one open (another milk repaired and replaced it: appending to
   * the old one would write into a file nobody will read). A torn last line
   * (a writer killed mid-line) gets its newline first.
   */
  private open(): boolean {
    if (this.fd !== null && !this.replaced()) return true;
    if (this.fd !== null) {
      fs.closeSync(this.fd);
      this.fd = null;
    }
    if (this.failed || !this.file) return false;
    try {
      ensureDir(path.dirname(this.file));
      this.fd = openForAppend(this.file);
      if (fileEnd(this.fd) === 'torn') this.pending = '\n' + this.pending;
      return true;
    } catch (err) {
      this.fail(err);
      return false;
    }
  }

  /** Whether the path now names another file than the one open (one stat per write, at most one a second). */
  private replaced(): boolean {
    try {
      return fs.statSync(this.file as string).ino !== fs.fstatSync(this.fd as number).ino;
    } catch {
      return true;
    }
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.warn(`conversation log not saved (${describeIoError(err)}); this conversation will not resume`);
  }

  private repair(original: string, events: readonly LogEvent[], problems: string[]): void {
    const file = this.file as string;
    const aside = asideName(file);
    try {
      fs.writeFileSync(aside, original, { mode: 0o600, flag: 'wx' });
      writeAtomic(file, events.map(serializeEvent).join(''));
      this.readWarning = `conversation log damaged (${problems.join(', ')}); kept ${events.length} events, original saved as ${path.basename(aside)}`;
    } catch (err) {
      this.readWarning = `conversation log damaged (${problems.join(', ')}); could not save a copy (${describeIoError(err)})`;
    }
  }
}

// A session's conversation logs as files: where they are, which there are,
// reading one line by line (forgivingly: see events.ts), summarising one, and
// splitting an older version's one-file log (session/log.ts writes them).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { asideName, ensureDir, writeAtomic } from '../io/files';
import { eachLine, eachLineHead } from '../io/lines';
import { describeIoError } from '../io/errors';
import { withLock } from '../io/lock';
import { LogEvent, LogReader, ParsedLog, serializeEvent } from './events';
import { ConversationSummary, Summarizer } from './replay';
import { validEvent } from './schema';
import { dataLayout } from '../kernel/data-dir';

/** The longest line read from a log: an input of eight maximal pastes, escaped; a longer line is a bad line. */
export const MAX_LOG_LINE_BYTES = 256 * 1024 * 1024;

/** The folder of one session's conversations. */
export function sessionLogDir(dataDir: string, sessionId: string): string {
  return dataLayout(dataDir).sessionLogs(sessionId);
}

/** What `<data>/sessions` holds (session folders, history files, older one-file logs); none when it cannot be read. */
export function sessionsEntries(dataDir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dataLayout(dataDir).sessions, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Where versions before one-file-per-conversation kept a session's log. */
export function legacyLogPath(dataDir: string, sessionId: string): string {
  return dataLayout(dataDir).legacyLog(sessionId);
}

export function conversationFile(dir: string, conv: string): string {
  return path.join(dir, `${conv}.jsonl`);
}

const CONV_FILE = /^(c[0-9a-z]{1,40})\.jsonl$/;

/** The conversations that have a file in `dir`. */
export function conversationIds(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => CONV_FILE.exec(n)?.slice(1, 2) ?? []).sort();
}

/**
 * Reads one log file line by line; `keep` takes each good event with its line (default: the result's
 * `events`), `foreign` each line of an event type a newer milk wrote.
 */
export function readLogFile(
  file: string,
  keep?: (e: LogEvent, line: string) => void,
  foreign?: (line: string, conv: unknown) => void,
): ParsedLog {
  const reader = new LogReader(validEvent, keep, foreign);
  const scan = eachLine(file, MAX_LOG_LINE_BYTES, (line) => reader.take(line));
  reader.parsed.torn = scan.torn;
  reader.parsed.bad += scan.oversized;
  return reader.parsed;
}

/**
 * The lines of a log whose event is one of `types`, read by their first `headBytes` (the log writes `t` first): every
 * other line, and the rest of a long one, is never decoded. `head` is valid during the call only; `whole`: it is the
 * whole line. Throws as eachLineHead.
 */
export function eachEventHead<T extends string>(
  file: string,
  types: readonly T[],
  headBytes: number,
  fn: (type: T, head: Buffer, whole: boolean) => void,
): void {
  const prefixes = types.map((t) => Buffer.from(`{"t":"${t}"`));
  eachLineHead(file, headBytes, (head, whole) => {
    const at = prefixes.findIndex((p) => head.length >= p.length && head.compare(p, 0, p.length, 0, p.length) === 0);
    if (at >= 0) fn(types[at], head, whole);
  });
}

/** A conversation file's summary; null when it cannot be read or has no input. */
export function summarizeFile(file: string): ConversationSummary | null {
  const s = new Summarizer();
  try {
    readLogFile(file, (e) => s.take(e));
  } catch {
    return null;
  }
  return s.done()[0] ?? null;
}

/** Conversations most recently active last; `--continue` takes the last. */
export function byActivity(a: ConversationSummary, b: ConversationSummary): number {
  return a.lastTs.localeCompare(b.lastTs) || a.id.localeCompare(b.id);
}

/** What makes a log damaged: its unreadable lines. A newer milk's events are not damage (see FOREIGN_NOTE). */
export function problemsOf(parsed: ParsedLog): string[] {
  return parsed.bad ? [`${parsed.bad} unreadable line${parsed.bad === 1 ? '' : 's'}`] : [];
}

/** Said once per process when a log holds events a newer milk wrote. */
export const FOREIGN_NOTE = 'conversation log holds events a newer milk wrote: kept in the file, skipped here';

/**
 * Splits an older version's one-file session log into one file per
 * conversation, under its lock (two milks starting at once split it once).
 * A conversation file that exists already is left as it is. The old file is
 * removed when it was read clean, else kept aside. Returns a warning or null.
 */
export function migrateLegacyLog(legacy: string, dir: string): string | null {
  if (!fs.existsSync(legacy)) return null;
  try {
    return withLock(legacy, () => {
      const lines = new Map<string, string[]>();
      const add = (conv: string, line: string): void => {
        let list = lines.get(conv);
        if (!list) lines.set(conv, (list = []));
        list.push(line);
      };
      // A newer milk's event that names no conversation has no file to go to: it is lost, so it counts as damage.
      let homeless = 0;
      const parsed = readLogFile(
        legacy,
        (e) => add(e.conv, serializeEvent(e)),
        (line, conv) => {
          if (typeof conv === 'string') add(conv, line + '\n');
          else homeless++;
        },
      );
      parsed.bad += homeless;
      ensureDir(dir);
      for (const [conv, list] of lines) {
        if (!CONV_FILE.test(`${conv}.jsonl`)) continue;
        writeAtomic(conversationFile(dir, conv), list, { exclusive: true });
      }
      const problems = problemsOf(parsed);
      if (problems.length === 0) {
        fs.rmSync(legacy, { force: true });
        return null;
      }
      const aside = asideName(legacy);
      fs.renameSync(legacy, aside);
      return (
        `conversation log damaged (${problems.join(', ')}); kept what was readable, original saved as ` +
        `${path.basename(aside)}`
      );
    });
  } catch (err) {
    return `older conversation log not read (${describeIoError(err)})`;
  }
}

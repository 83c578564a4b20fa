// Taking an input out of the conversation logs when it is deleted from
// history (Shift+Delete, `milk history delete`): a secret that slipped past
// the filter must not stay on disk in the log either. Every log in the data
// dir is read line by line; one that holds such an input is rewritten with
// that input replaced by a marker, everything else as it was. A milk still
// appending to a log while it is rewritten loses nothing: what it added
// meanwhile is carried over before the new file takes the old one's place,
// and it reopens the new file at its next write (session/log.ts).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeAtomic } from '../io/files';
import { eachLine } from '../io/lines';
import { conversationIds, conversationFile, MAX_LOG_LINE_BYTES, sessionsEntries } from './log-files';
import { LogEvent, serializeEvent, userEvent, userText } from './events';
import { dataLayout } from '../kernel/data-dir';

export const PURGED_TEXT = '[deleted from history]';

/** Every conversation log under `<data>/sessions`: each session's folder, and older one-file logs. */
export function logFiles(dataDir: string): string[] {
  const dir = dataLayout(dataDir).sessions;
  return sessionsEntries(dataDir).flatMap((d) => {
    if (d.isDirectory())
      return conversationIds(path.join(dir, d.name)).map((id) => conversationFile(path.join(dir, d.name), id));
    return d.isFile() && d.name.endsWith('.jsonl') ? [path.join(dir, d.name)] : [];
  });
}

function purged(e: Extract<LogEvent, { t: 'user' }>): LogEvent {
  return userEvent(e.conv, e.ts, PURGED_TEXT, [{ type: 'text', text: PURGED_TEXT }]);
}

/** The user event of a line, if it is one (a line that is not is kept as it is, byte for byte). */
function userEventOf(line: string): Extract<LogEvent, { t: 'user' }> | null {
  if (!line.includes('"user"')) return null;
  try {
    const v = JSON.parse(line) as LogEvent;
    return v && v.t === 'user' && Array.isArray(v.segments) ? v : null;
  } catch {
    return null;
  }
}

/**
 * What a deletion takes out of the logs: the inputs that `match`, and wherever `quote` (the deleted text) is quoted in
 * another event — an answer, a tool's result, a compaction's summary — that quote, which would otherwise go to the
 * model again on --continue. A quote shorter than MIN_QUOTE is left alone: it would also hit ordinary words.
 */
export interface Deletion {
  readonly match: (text: string) => boolean;
  readonly quote?: string;
}

export const MIN_QUOTE = 8;

/** Inputs taken out, and other events whose quotes of the text were. */
export interface Purged {
  inputs: number;
  quotes: number;
}

/** A line (not an input) with every quote of `quote` in its strings replaced; null when it holds none. */
function scrubbed(line: string, quote: string | undefined): string | null {
  if (!quote || quote.length < MIN_QUOTE || !line.includes(JSON.stringify(quote).slice(1, -1))) return null;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  const walk = (x: unknown): unknown =>
    typeof x === 'string'
      ? x.split(quote).join(PURGED_TEXT)
      : Array.isArray(x)
        ? x.map(walk)
        : x !== null && typeof x === 'object'
          ? Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]))
          : x;
  return JSON.stringify(walk(v)) + '\n';
}

/** One line of a log as a deletion leaves it, and what it took out of it. */
function purgeLine(line: string, d: Deletion): { out: string; input: boolean; quoted: boolean } {
  const e = userEventOf(line);
  if (e && d.match(userText(e))) return { out: serializeEvent(purged(e)), input: true, quoted: false };
  const scrub = scrubbed(line, d.quote);
  return scrub === null
    ? { out: line + '\n', input: false, quoted: false }
    : { out: scrub, input: false, quoted: true };
}

/** What a deletion would take out of a log; nothing when it cannot be read. */
export function countInFile(file: string, d: Deletion): Purged {
  const n: Purged = { inputs: 0, quotes: 0 };
  try {
    eachLine(file, MAX_LOG_LINE_BYTES, (line) => {
      const p = purgeLine(line, d);
      if (p.input) n.inputs++;
      if (p.quoted) n.quotes++;
    });
  } catch {
    return { inputs: 0, quotes: 0 };
  }
  return n;
}

/** Takes a deletion out of one log; returns what it took. Throws on I/O failure, leaving the file as it was. */
export function purgeFile(file: string, d: Deletion): Purged {
  const lines: string[] = [];
  const n: Purged = { inputs: 0, quotes: 0 };
  const scan = eachLine(file, MAX_LOG_LINE_BYTES, (line) => {
    const p = purgeLine(line, d);
    if (p.input) n.inputs++;
    if (p.quoted) n.quotes++;
    lines.push(p.out);
  });
  if (n.inputs + n.quotes === 0) return n;
  // A line too long to hold is not dropped by a rewrite: the file is left as it is.
  if (scan.oversized > 0) throw Object.assign(new Error(`${file} has a line too long to rewrite`), { code: 'EFBIG' });
  // What a running milk appended since the read goes over too (bytes past what was read).
  const grown = fs.statSync(file).size - scan.bytes;
  if (grown > 0) {
    const tail = Buffer.alloc(grown);
    const fd = fs.openSync(file, 'r');
    try {
      fs.readSync(fd, tail, 0, grown, scan.bytes);
    } finally {
      fs.closeSync(fd);
    }
    if (scan.torn) lines[lines.length - 1] = lines[lines.length - 1].replace(/\n$/, '');
    lines.push(tail.toString('utf8'));
  }
  writeAtomic(file, lines);
  return n;
}

function add(a: Purged, b: Purged): Purged {
  return { inputs: a.inputs + b.inputs, quotes: a.quotes + b.quotes };
}

/**
 * Every log of a data dir, for `milk history delete`: a failure on one file does not stop the others, and is thrown at
 * the end.
 */
export function logInputs(dataDir: string): {
  count(d: Deletion): Purged;
  purge(d: Deletion): Purged;
} {
  const none: Purged = { inputs: 0, quotes: 0 };
  return {
    count: (d) => logFiles(dataDir).reduce((n, f) => add(n, countInFile(f, d)), none),
    purge: (d) => {
      let n = none;
      let failed: unknown = null;
      for (const f of logFiles(dataDir)) {
        try {
          n = add(n, purgeFile(f, d));
        } catch (err) {
          failed ??= err;
        }
      }
      if (failed) throw failed;
      return n;
    },
  };
}

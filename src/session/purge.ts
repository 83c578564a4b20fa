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
import { dataLayout } from '../data-dir';

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

/** How many inputs in a log `match`; 0 when it cannot be read. */
export function countInFile(file: string, match: (text: string) => boolean): number {
  let n = 0;
  try {
    eachLine(file, MAX_LOG_LINE_BYTES, (line) => {
      const e = userEventOf(line);
      if (e && match(userText(e))) n++;
    });
  } catch {
    return 0;
  }
  return n;
}

/** Replaces the inputs of one log that `match`; returns how many. Throws on I/O failure, leaving the file as it was. */
export function purgeFile(file: string, match: (text: string) => boolean): number {
  const lines: string[] = [];
  let n = 0;
  const scan = eachLine(file, MAX_LOG_LINE_BYTES, (line) => {
    const e = userEventOf(line);
    if (e && match(userText(e))) {
      n++;
      lines.push(serializeEvent(purged(e)));
    } else {
      lines.push(line + '\n');
    }
  });
  if (n === 0) return 0;
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

/**
 * Every log of a data dir, for `milk history delete`: a failure on one file does not stop the others, and is thrown at
 * the end.
 */
export function logInputs(dataDir: string): {
  count(match: (text: string) => boolean): number;
  purge(match: (text: string) => boolean): number;
} {
  return {
    count: (match) => logFiles(dataDir).reduce((n, f) => n + countInFile(f, match), 0),
    purge: (match) => {
      let n = 0;
      let failed: unknown = null;
      for (const f of logFiles(dataDir)) {
        try {
          n += purgeFile(f, match);
        } catch (err) {
          failed ??= err;
        }
      }
      if (failed) throw failed;
      return n;
    },
  };
}

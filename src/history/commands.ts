// `milk history list|path|clear|delete`: history from the shell. These print what
// the person asked to see (that is their purpose), but errors and prompts
// never include entry text.

import { confirm } from '../io/confirm';
import { segmentsText } from '../editor/model';
import { historyHeader, parseHistory, recallable } from './format';
import { historyPaths } from './service';
import type { HistoryMode } from '../settings/store';
import { HistoryFile } from './store';
import { describeIoError } from '../io/errors';
import { DEFAULT_MAX_ENTRIES, HistoryEntry, compactEntries } from './rules';
import { readRegular } from '../io/files';
import { visibleControls } from '../editor/text';

export interface Target {
  dataDir: string;
  sessionId: string;
  scope: HistoryMode;
}

export class HistoryCommandError extends Error {}

function fileFor(t: Target): string {
  return historyPaths(t.dataDir, t.sessionId)[t.scope];
}

/**
 * The file as a store, to rewrite it under its lock. The header is used only
 * when the file has no good one of its own (a rewrite keeps the one on disk).
 */
function storeFor(t: Target, maxEntries: number): HistoryFile {
  return new HistoryFile(
    fileFor(t),
    historyHeader(t.scope, { sessionId: t.sessionId, workspace: null, displayName: t.sessionId }),
    maxEntries,
  );
}

/** An entry's text after `lead`, its later lines after `hang` (by default lined up under the first). */
function writeEntry(out: NodeJS.WritableStream, lead: string, raw: string, hang = ' '.repeat(lead.length)): void {
  // On a terminal, what was stored is shown inert: its escape sequences could write the clipboard or retitle it.
  const text = (out as { isTTY?: boolean }).isTTY ? visibleControls(raw) : raw;
  const [first, ...rest] = text.split('\n');
  out.write(`${lead}${first}\n`);
  for (const line of rest) out.write(`${hang}${line}\n`);
}

function readEntries(t: Target, missing: 'empty' | 'error' = 'empty') {
  const file = fileFor(t);
  let bytes: Buffer;
  try {
    bytes = readRegular(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && missing === 'error' && t.scope === 'session') {
      throw new HistoryCommandError(
        `no history for session ${t.sessionId} (no ${file}); milk history path shows where each list is`,
      );
    }
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new HistoryCommandError(`cannot read ${file} (${describeIoError(err)})`);
  }
  // As milk shows them: appends from several processes may repeat an entry until the file is compacted.
  return compactEntries(parseHistory(bytes).entries.filter(recallable), Infinity);
}

/**
 * `missing`: what a session with no history file is: nothing to list, or an error (a session named that does not
 * exist).
 */
export function historyList(
  t: Target,
  options: { json: boolean; missing?: 'empty' | 'error' },
  out: NodeJS.WritableStream,
): void {
  const entries = readEntries(t, options.missing ?? 'empty');
  if (options.json) {
    for (const e of entries)
      out.write(JSON.stringify({ ts: e.ts, segments: e.segments, text: segmentsText(e.segments) }) + '\n');
    return;
  }
  const width = String(entries.length).length;
  entries.forEach((e, i) => writeEntry(out, `${String(i + 1).padStart(width)}  `, segmentsText(e.segments)));
}

export function historyPath(dataDir: string, sessionId: string, out: NodeJS.WritableStream): void {
  const p = historyPaths(dataDir, sessionId);
  out.write(`session  ${p.session}\nglobal   ${p.global}\n`);
}

export async function historyClear(t: Target, options: { yes: boolean }, out: NodeJS.WritableStream): Promise<boolean> {
  const file = fileFor(t);
  const count = readEntries(t).length;
  if (count === 0) {
    out.write(`nothing to clear in ${file}\n`);
    return true;
  }
  if (!options.yes && !(await confirm(`Clear ${count} ${count === 1 ? 'entry' : 'entries'} from ${file}? [y/N] `))) {
    out.write('not cleared\n');
    return false;
  }
  try {
    storeFor(t, DEFAULT_MAX_ENTRIES).clear();
  } catch (err) {
    throw new HistoryCommandError(`cannot clear ${file} (${describeIoError(err)})`);
  }
  out.write(`cleared ${count} ${count === 1 ? 'entry' : 'entries'} from ${file}\n`);
  return true;
}

/**
 * Deletes every entry containing `match` (exact case) from the files named:
 * after listing them and asking, unless --yes. Each file is rewritten under
 * its lock with every other entry and its header as they were.
 */
/**
 * The conversation logs, as `milk history delete` reaches them (session/purge.ts, handed in: history does not read
 * logs).
 */
export interface LogInputs {
  /** The inputs that `match`, and the other events that quote `quote` (session/purge.ts). */
  count(d: { match: (text: string) => boolean; quote?: string }): { inputs: number; quotes: number };
  /** Takes them out: the inputs replaced by a marker, the quotes by the same marker. */
  purge(d: { match: (text: string) => boolean; quote?: string }): { inputs: number; quotes: number };
}

export async function historyDelete(
  files: ReadonlyArray<Target>,
  match: string,
  options: { yes: boolean },
  out: NodeJS.WritableStream,
  logs?: LogInputs,
): Promise<boolean> {
  if (!match) throw new HistoryCommandError('--match needs some text');
  const contains = (text: string): boolean => text.includes(match);
  const has = (e: HistoryEntry): boolean => contains(segmentsText(e.segments));
  const found = files.map((t) => ({ t, file: fileFor(t), entries: readEntries(t).filter(has) }));
  const deletion = { match: contains, quote: match };
  const counted = logs?.count(deletion) ?? { inputs: 0, quotes: 0 };
  const inLogs = counted.inputs;
  const total = found.reduce((n, f) => n + f.entries.length, 0) + inLogs + counted.quotes;
  if (total === 0) {
    out.write(`no entry contains that text in ${found.map((f) => f.file).join(' or ')}\n`);
    return true;
  }
  for (const f of found) {
    if (f.entries.length === 0) continue;
    out.write(`${f.file}:\n`);
    // Unnumbered: a later line hangs deeper, so it cannot pass for another entry.
    for (const e of f.entries) writeEntry(out, '  ', segmentsText(e.segments), '    ');
  }
  if (inLogs > 0) out.write(`and ${inLogs} ${inLogs === 1 ? 'input' : 'inputs'} in the conversation logs\n`);
  if (counted.quotes > 0) {
    const quoting = counted.quotes === 1 ? 'answer, result or summary quotes' : 'answers, results or summaries quote';
    out.write(`and the text where ${counted.quotes} ${quoting} it in the conversation logs\n`);
  }
  if (!options.yes && !(await confirm(`Delete ${total} ${total === 1 ? 'entry' : 'entries'}? [y/N] `))) {
    out.write('nothing deleted\n');
    return false;
  }
  for (const f of found) {
    if (f.entries.length === 0) continue;
    try {
      // Read whole, however long: a deletion must reach every copy, not just the newest lines.
      const n = storeFor(f.t, Number.MAX_SAFE_INTEGER).remove(has);
      out.write(`deleted ${n} from ${f.file}\n`);
    } catch (err) {
      throw new HistoryCommandError(`cannot delete from ${f.file} (${describeIoError(err)})`);
    }
  }
  if (inLogs + counted.quotes > 0 && logs) {
    try {
      const done = logs.purge(deletion);
      out.write(`deleted ${done.inputs} from the conversation logs\n`);
      if (done.quotes > 0) out.write(`and the text from ${done.quotes} more events there that quoted it\n`);
    } catch (err) {
      throw new HistoryCommandError(`cannot delete from the conversation logs (${describeIoError(err)})`);
    }
  }
  return true;
}

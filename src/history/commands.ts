// `milk history list|path|clear`: history from the shell. These print what
// the person asked to see (that is their purpose), but errors and prompts
// never include entry text.

import * as fs from 'node:fs';
import { confirm } from '../confirm';
import { segmentsText } from '../editor/model';
import { historyHeader, parseHistory } from './format';
import { historyPaths, HistoryMode } from './service';
import { HistoryFile, describeIoError } from './store';
import { DEFAULT_MAX_ENTRIES, compactEntries } from './rules';

export interface Target {
  dataDir: string;
  sessionId: string;
  scope: HistoryMode;
}

export class HistoryCommandError extends Error {}

function fileFor(t: Target): string {
  return historyPaths(t.dataDir, t.sessionId)[t.scope];
}

function readEntries(t: Target) {
  const file = fileFor(t);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new HistoryCommandError(`cannot read ${file} (${describeIoError(err)})`);
  }
  // As milk shows them: appends from several processes may repeat an entry until the file is compacted.
  return compactEntries(parseHistory(bytes).entries, Infinity);
}

export function historyList(t: Target, options: { json: boolean }, out: NodeJS.WritableStream): void {
  const entries = readEntries(t);
  if (options.json) {
    for (const e of entries) out.write(JSON.stringify({ ts: e.ts, segments: e.segments, text: segmentsText(e.segments) }) + '\n');
    return;
  }
  const width = String(entries.length).length;
  entries.forEach((e, i) => {
    const [first, ...rest] = segmentsText(e.segments).split('\n');
    out.write(`${String(i + 1).padStart(width)}  ${first}\n`);
    for (const line of rest) out.write(`${' '.repeat(width)}  ${line}\n`);
  });
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
  if (!options.yes && !(await confirm(`Clear ${count} entries from ${file}? [y/N] `))) {
    out.write('not cleared\n');
    return false;
  }
  // Used only if the file has no good header of its own; clear keeps the one on disk.
  const header = historyHeader(t.scope, { sessionId: t.sessionId, workspace: null, displayName: t.sessionId });
  try {
    new HistoryFile(file, header, DEFAULT_MAX_ENTRIES).clear();
  } catch (err) {
    throw new HistoryCommandError(`cannot clear ${file} (${describeIoError(err)})`);
  }
  out.write(`cleared ${count} entries from ${file}\n`);
  return true;
}

// `milk sessions [list|show|rm]`: sessions from the shell. Lists every
// session in the data dir (its log and its input history), prints one
// conversation as plain text for scripts and sharing, and removes a session
// after asking. Session ids are checked before they name a file.

import * as fs from 'node:fs';
import { confirm } from '../confirm';
import * as path from 'node:path';
import { checkSessionName } from '../config/paths';
import { parseHistory } from '../history/format';
import { historyPaths } from '../history/service';
import { parseLog } from './events';
import { validEvent } from './schema';
import { sessionLogPath } from './log';
import { conversations, replay } from './replay';
import { maxOf } from '../arrays';
import { readRegular } from '../io/files';
import { visibleControls } from '../editor/text';

export class SessionCommandError extends Error {}

export interface SessionRow {
  id: string;
  /** The workspace it belongs to, or null for a named session. */
  workspace: string | null;
  lastUsed: string;
  conversations: number;
  historyEntries: number;
}

function readText(file: string): string | null {
  try {
    return readRegular(file).toString('utf8');
  } catch {
    return null;
  }
}

function mtime(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function checkedId(id: string): string {
  const problem = checkSessionName(id);
  if (problem) throw new SessionCommandError(`${JSON.stringify(id)} is not a session id (${problem})`);
  return id;
}

/** Every session in the data dir, newest first. */
export function listSessions(dataDir: string): SessionRow[] {
  const dir = path.join(dataDir, 'sessions');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const ids = new Set(names.filter((n) => /\.(jsonl|history)$/.test(n)).map((n) => n.replace(/\.(jsonl|history)$/, '')));
  const rows: SessionRow[] = [];
  for (const id of ids) {
    if (checkSessionName(id)) continue;
    const logFile = sessionLogPath(dataDir, id);
    const histFile = historyPaths(dataDir, id).session;
    const log = parseLog(readText(logFile) ?? '', validEvent);
    const hist = readText(histFile);
    const parsed = hist ? parseHistory(Buffer.from(hist)) : null;
    const start = log.events.find((e) => e.t === 'start');
    const workspace = parsed?.header?.workspace ?? (start && start.t === 'start' ? start.workspace : null) ?? null;
    const last = Math.max(mtime(logFile), mtime(histFile));
    rows.push({ id, workspace, lastUsed: new Date(last).toISOString(), conversations: conversations(log.events).length, historyEntries: parsed?.entries.length ?? 0 });
  }
  return rows.sort((a, b) => b.lastUsed.localeCompare(a.lastUsed));
}

export function sessionsList(dataDir: string, options: { json: boolean }, out: NodeJS.WritableStream): void {
  const rows = listSessions(dataDir);
  if (options.json) {
    for (const r of rows) out.write(JSON.stringify(r) + '\n');
    return;
  }
  if (rows.length === 0) {
    out.write(`no sessions in ${dataDir}\n`);
    return;
  }
  const width = maxOf(rows.map((r) => r.id.length), 0);
  for (const r of rows) {
    const when = r.lastUsed.slice(0, 16).replace('T', ' ');
    out.write(`${r.id.padEnd(width)}  ${when}  ${String(r.conversations).padStart(3)} conv  ${String(r.historyEntries).padStart(5)} inputs  ${r.workspace ?? '(named)'}\n`);
  }
}

/** Prints conversation `n` (1 = the oldest; default the newest) of a session as plain text. */
export function sessionsShow(dataDir: string, id: string, options: { conversation?: number }, out: NodeJS.WritableStream): void {
  const text = readText(sessionLogPath(dataDir, checkedId(id)));
  if (text === null) throw new SessionCommandError(`no conversation log for session ${id}`);
  const events = parseLog(text, validEvent).events;
  const all = conversations(events);
  const n = options.conversation ?? all.length;
  const conv = all[n - 1];
  if (!conv) throw new SessionCommandError(`session ${id} has ${all.length} conversation${all.length === 1 ? '' : 's'}; no number ${n}`);
  out.write(`# ${id} · conversation ${n} of ${all.length} (${conv.id}) · ${conv.started.slice(0, 16).replace('T', ' ')}\n\n`);
  for (const item of replay(events, conv.id).items) {
    // On a terminal, what was stored (a file the model read, a paste) is shown inert, as the screen shows it.
    const stored = item.text.replace(/\n+$/, '');
    const body = (out as { isTTY?: boolean }).isTTY ? visibleControls(stored) : stored;
    switch (item.kind) {
      case 'user': out.write(body.split('\n').map((l) => `> ${l}`).join('\n') + '\n\n'); break;
      case 'tool': out.write(`$ ${body}\n`); break;
      case 'output': out.write(body.split('\n').map((l) => `    ${l}`).join('\n') + '\n\n'); break;
      case 'error': out.write(`! ${body}\n\n`); break;
      default: out.write(body + '\n\n');
    }
  }
}

/** Removes a session's conversation log and input history, after asking unless `yes`. */
export async function sessionsRm(dataDir: string, id: string, options: { yes: boolean }, out: NodeJS.WritableStream): Promise<boolean> {
  const files = [sessionLogPath(dataDir, checkedId(id)), historyPaths(dataDir, id).session].filter((f) => fs.existsSync(f));
  if (files.length === 0) throw new SessionCommandError(`no session ${id} in ${dataDir}`);
  if (!options.yes && !(await confirm(`Remove session ${id} (${files.map((f) => path.basename(f)).join(', ')})? [y/N] `))) {
    out.write('not removed\n');
    return false;
  }
  for (const f of files) fs.rmSync(f, { force: true });
  out.write(`removed session ${id}\n`);
  return true;
}

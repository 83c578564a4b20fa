// `milk sessions [list|show|rm]`: sessions from the shell. Lists every
// session in the data dir (its log and its input history), prints one
// conversation as plain text for scripts and sharing, and removes a session
// after asking. Session ids are checked before they name a file.

import * as fs from 'node:fs';
import * as os from 'node:os';
import { searchSessions, workspaceOf } from './search';
import { hitLine } from './search-hits';
import { confirm } from '../io/confirm';
import * as path from 'node:path';
import { checkSessionName } from '../config/paths';
import { parseHistory } from '../history/format';
import { historyPaths } from '../history/service';
import type { LogEvent } from './events';
import {
  byActivity,
  eachEventHead,
  conversationFile,
  conversationIds,
  legacyLogPath,
  readLogFile,
  sessionLogDir,
  sessionsEntries,
  summarizeFile,
} from './log-files';
import { ConversationSummary, Summarizer, replay } from './replay';
import { maxOf } from '../kernel/arrays';
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
  /** The names its conversations were given (/rename), oldest first. */
  names: string[];
}

/** A conversation's name (its newest name event), read from its name lines only; null when it has none. */
function conversationName(file: string): string | null {
  let name: string | null = null;
  try {
    eachEventHead(file, ['name'], 4096, (_type, head, whole) => {
      try {
        const e = JSON.parse(head.toString('utf8')) as { name?: unknown };
        if (whole && typeof e.name === 'string') name = e.name;
      } catch {
        // A torn line names nothing; the name before it stands.
      }
    });
  } catch {
    return null;
  }
  return name;
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

/**
 * A session's conversations, most recently active last, with the file each is in (read only: an older one-file log is
 * read in place).
 */
function sessionConversations(dataDir: string, id: string): Array<{ summary: ConversationSummary; file: string }> {
  const dir = sessionLogDir(dataDir, id);
  const found = conversationIds(dir).flatMap((conv) => {
    const file = conversationFile(dir, conv);
    const summary = summarizeFile(file);
    return summary ? [{ summary, file }] : [];
  });
  const legacy = legacyLogPath(dataDir, id);
  const s = new Summarizer();
  try {
    readLogFile(legacy, (e) => s.take(e));
  } catch {
    // None, or unreadable: what the folder holds is listed.
  }
  const inFolder = new Set(found.map((f) => f.summary.id));
  for (const summary of s.done()) if (!inFolder.has(summary.id)) found.push({ summary, file: legacy });
  return found.sort((a, b) => byActivity(a.summary, b.summary));
}

/** The workspace named by a session's first conversation start, if any. */
function loggedWorkspace(file: string | undefined): string | null {
  let workspace: string | null = null;
  if (!file) return null;
  try {
    readLogFile(file, (e) => {
      if (e.t === 'start' && workspace === null) workspace = e.workspace;
    });
  } catch {
    return null;
  }
  return workspace;
}

/** Every session in the data dir, newest first. */
export function listSessions(dataDir: string): SessionRow[] {
  const ids = new Set(
    sessionsEntries(dataDir).flatMap((d) => {
      if (d.isDirectory()) return [d.name];
      return /\.(jsonl|history)$/.test(d.name) ? [d.name.replace(/\.(jsonl|history)$/, '')] : [];
    }),
  );
  const rows: SessionRow[] = [];
  for (const id of ids) {
    if (checkSessionName(id)) continue;
    const histFile = historyPaths(dataDir, id).session;
    const convs = sessionConversations(dataDir, id);
    const hist = readText(histFile);
    const parsed = hist ? parseHistory(Buffer.from(hist)) : null;
    const workspace = parsed?.header?.workspace ?? loggedWorkspace(convs[0]?.file);
    const last = maxOf([mtime(histFile), mtime(legacyLogPath(dataDir, id)), ...convs.map((c) => mtime(c.file))], 0);
    rows.push({
      id,
      workspace,
      lastUsed: new Date(last).toISOString(),
      conversations: convs.length,
      historyEntries: parsed?.entries.length ?? 0,
      names: convs.flatMap((c) => conversationName(c.file) ?? []),
    });
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
  const width = maxOf(
    rows.map((r) => r.id.length),
    0,
  );
  for (const r of rows) {
    const when = r.lastUsed.slice(0, 16).replace('T', ' ');
    out.write(
      `${r.id.padEnd(width)}  ${when}  ${String(r.conversations).padStart(3)} conv  ` +
        `${String(r.historyEntries).padStart(5)} inputs  ${r.workspace ?? '(named)'}` +
        `${r.names.length ? `  ${r.names.map((n) => JSON.stringify(n)).join(', ')}` : ''}\n`,
    );
  }
}

/**
 * `--list`: one row per conversation, oldest first: its number, its id (for --resume), when it began, its inputs, its
 * name (/rename) and first line.
 */
function listConversations(all: ReadonlyArray<{ summary: ConversationSummary }>, out: NodeJS.WritableStream): void {
  const tty = (out as { isTTY?: boolean }).isTTY === true;
  all.forEach(({ summary: c }, i) => {
    const what = c.name ? `${c.name} · ${c.first}` : c.first;
    const first = tty ? visibleControls(what) : what;
    out.write(
      `${String(i + 1).padStart(3)}  ${c.id}  ${c.started.slice(0, 16).replace('T', ' ')}  ` +
        `${String(c.turns).padStart(3)} input${c.turns === 1 ? ' ' : 's'}  ${first}\n`,
    );
  });
}

/**
 * Prints conversation `n` (1 = the oldest; default the newest) of a session as plain text, or with `list` every
 * conversation's id.
 */
export function sessionsShow(
  dataDir: string,
  id: string,
  options: { conversation?: number; list?: boolean },
  out: NodeJS.WritableStream,
): void {
  const all = sessionConversations(dataDir, checkedId(id));
  if (all.length === 0) throw new SessionCommandError(`no conversation log for session ${id}`);
  if (options.list) return listConversations(all, out);
  const n = options.conversation ?? all.length;
  const found = all[n - 1];
  if (!found)
    throw new SessionCommandError(
      `session ${id} has ${all.length} conversation${all.length === 1 ? '' : 's'}; no number ${n}`,
    );
  const conv = found.summary;
  const events: LogEvent[] = [];
  readLogFile(found.file, (e) => {
    if (e.conv === conv.id) events.push(e);
  });
  out.write(
    `# ${id} · conversation ${n} of ${all.length} (${conv.id}) · ${conv.started.slice(0, 16).replace('T', ' ')}\n\n`,
  );
  for (const item of replay(events, conv.id).items) {
    // On a terminal, what was stored (a file the model read, a paste) is shown inert, as the screen shows it.
    const stored = item.text.replace(/\n+$/, '');
    const body = (out as { isTTY?: boolean }).isTTY ? visibleControls(stored) : stored;
    switch (item.kind) {
      case 'user':
        out.write(
          body
            .split('\n')
            .map((l) => `> ${l}`)
            .join('\n') + '\n\n',
        );
        break;
      case 'tool':
        out.write(`$ ${body}\n`);
        break;
      case 'output':
        out.write(
          body
            .split('\n')
            .map((l) => `    ${l}`)
            .join('\n') + '\n\n',
        );
        break;
      case 'error':
        out.write(`! ${body}\n\n`);
        break;
      default:
        out.write(body + '\n\n');
    }
  }
}

/** Removes a session's conversation log and input history, after asking unless `yes`. */
export async function sessionsRm(
  dataDir: string,
  id: string,
  options: { yes: boolean },
  out: NodeJS.WritableStream,
): Promise<boolean> {
  const folder = sessionLogDir(dataDir, checkedId(id));
  const files = [folder, legacyLogPath(dataDir, id), historyPaths(dataDir, id).session].filter((f) => fs.existsSync(f));
  if (files.length === 0) throw new SessionCommandError(`no session ${id} in ${dataDir}`);
  if (
    !options.yes &&
    !(await confirm(
      `Remove session ${id} (${files.map((f) => path.basename(f) + (f === folder ? '/' : '')).join(', ')})? [y/N] `,
    ))
  ) {
    out.write('not removed\n');
    return false;
  }
  for (const f of files) fs.rmSync(f, { force: true, recursive: f === folder });
  out.write(`removed session ${id}\n`);
  return true;
}

/**
 * `milk sessions search QUERY`: every conversation's inputs, answers and tool output that hold QUERY (smart case),
 * newest first, each with its date, workspace, conversation and a line of context; `here`: this workspace's only.
 * False when nothing matched.
 */
export async function sessionsSearch(
  dataDir: string,
  query: string,
  options: { here: string | null; json: boolean },
  out: NodeJS.WritableStream,
): Promise<boolean> {
  if (!query.trim()) throw new SessionCommandError('search for what? milk sessions search QUERY');
  const found = await searchSessions(dataDir, query, options.here);
  const places = new Map<string, string>();
  const where = (session: string, conv: string): string => {
    const key = `${session}/${conv}`;
    if (!places.has(key)) places.set(key, workspaceOf(dataDir, session, conv) ?? session);
    return places.get(key) as string;
  };
  const home = os.homedir();
  const shown = (p: string): string => (p === home || p.startsWith(home + path.sep) ? '~' + p.slice(home.length) : p);
  for (const h of found.hits) {
    if (options.json) out.write(JSON.stringify({ ...h, workspace: where(h.session, h.conv) }) + '\n');
    else out.write(visibleControls(hitLine(h, shown(where(h.session, h.conv)))) + '\n');
  }
  if (!options.json) {
    const more = found.more > 0 ? `, and ${found.more} more not listed` : '';
    out.write(
      found.hits.length === 0
        ? `no conversation holds "${query}"\n`
        : `${found.hits.length} match${found.hits.length === 1 ? '' : 'es'}${more}; in its workspace, ` +
            `milk --resume CONVERSATION opens one (/search does it from milk)\n`,
    );
  }
  return found.hits.length > 0;
}

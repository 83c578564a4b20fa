// Every conversation searchable: `milk sessions search QUERY` and /search look
// through the conversation logs of every workspace (or this one's), with
// ripgrep where it is on PATH (a fixed string, smart case, over the JSON lines:
// a gigabyte in well under two seconds here), else line by line in Node. Each
// matched line is read as the event it is (session/search-hits.ts): inputs,
// answers and tool output, with their conversation, date and a line of context.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { eachLine } from '../io/lines';
import { Hit, hitOf, newestFirst } from './search-hits';
import { MAX_LOG_LINE_BYTES, readLogFile } from './log-files';

export interface SearchResult {
  readonly hits: Hit[];
  /** More matched than are listed. */
  readonly more: number;
  /** What found them: ripgrep, or milk's own scan. */
  readonly by: 'ripgrep' | 'scan';
}

/** The most hits listed. */
export const MAX_HITS = 500;

/** The logs searched: every session's conversations, or one session's (`only`). */
function logFiles(dataDir: string, only: string | null): Array<{ session: string; file: string; mtime: string }> {
  const root = path.join(dataDir, 'sessions');
  const out: Array<{ session: string; file: string; mtime: string }> = [];
  let sessions: fs.Dirent[];
  try {
    sessions = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const d of sessions) {
    if (!d.isDirectory() || (only !== null && d.name !== only)) continue;
    for (const f of fs.readdirSync(path.join(root, d.name)).filter((n) => n.endsWith('.jsonl'))) {
      const file = path.join(root, d.name, f);
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (st?.isFile()) out.push({ session: d.name, file, mtime: st.mtime.toISOString() });
    }
  }
  return out;
}

/** Searches the logs for `query`; `here`: only the session whose id it is. */
export async function searchSessions(
  dataDir: string,
  query: string,
  here: string | null = null,
): Promise<SearchResult> {
  const files = logFiles(dataDir, here);
  const byFile = new Map(files.map((f) => [f.file, f]));
  const hits: Hit[] = [];
  let matched = 0;
  const take = (file: string, line: string): void => {
    const f = byFile.get(file);
    if (!f) return;
    const hit = hitOf(line, query, f.session, f.mtime);
    if (!hit) return;
    matched++;
    if (hits.length < MAX_HITS * 4) hits.push(hit);
  };
  if (files.length === 0 || !query) return { hits: [], more: 0, by: 'scan' };
  const roots = here === null ? [path.join(dataDir, 'sessions')] : [path.join(dataDir, 'sessions', here)];
  // At most PER_CONVERSATION lines of each log are read as events: a common word matches most lines of most logs,
  // and piping and parsing them all costs seconds; the rest are counted.
  const rg = await ripgrep(roots, query, ['--max-count', String(PER_CONVERSATION)], take);
  let lines = matched;
  if (rg) lines = Math.max(matched, await ripgrepCount(roots, query));
  else
    for (const f of files) {
      let n = 0;
      eachLine(f.file, MAX_LOG_LINE_BYTES, (line) => {
        if (!quick(line, query)) return;
        if (n++ < PER_CONVERSATION) take(f.file, line);
        else lines++;
      });
    }
  const sorted = newestFirst(hits).slice(0, MAX_HITS);
  return { hits: sorted, more: Math.max(0, lines - sorted.length), by: rg ? 'ripgrep' : 'scan' };
}

/** The lines of each conversation read as matches; the rest are counted. */
const PER_CONVERSATION = 20;

/** A cheap test before a line is parsed: the query in its raw text (smart case). */
function quick(line: string, query: string): boolean {
  return query === query.toLowerCase() ? line.toLowerCase().includes(query) : line.includes(query);
}

const RG_ARGS = ['--no-config', '--fixed-strings', '--smart-case', '--glob', '*.jsonl', '--hidden', '--no-ignore'];

/** How many lines rg finds `query` on under `roots` (-1 where it cannot run). */
function ripgrepCount(roots: string[], query: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('rg', [...RG_ARGS, '--count', '--no-filename', '-e', query, '--', ...roots], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    child.on('error', () => resolve(-1));
    child.on('close', () => resolve(out.split('\n').reduce((n, l) => n + (Number(l) || 0), 0)));
  });
}

/** Runs rg over the logs under `roots`, each matched line to `take`; false where rg cannot run. */
function ripgrep(
  roots: string[],
  query: string,
  extra: readonly string[],
  take: (file: string, line: string) => void,
): Promise<boolean> {
  return new Promise((resolve) => {
    const args = [...RG_ARGS, ...extra, '--no-heading', '--with-filename', '--null', '--no-line-number'];
    const child = spawn('rg', [...args, '-e', query, '--', ...roots], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const lines = lineSplitter(MAX_LOG_LINE_BYTES, (l) => {
      const nul = l.indexOf('\0');
      if (nul > 0) take(l.slice(0, nul), l.slice(nul + 1));
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => lines.push(chunk));
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      lines.end();
      // 0: matches, 1: none; anything else: rg could not search.
      resolve(code === 0 || code === 1);
    });
  });
}

/**
 * Text that comes in chunks, as lines to `fn`, in time linear in its length however long a line is (a chunk is never
 * joined to what came before until its line ends); a line longer than `max` characters is skipped whole.
 */
export function lineSplitter(max: number, fn: (line: string) => void): { push(chunk: string): void; end(): void } {
  let parts: string[] = [];
  let held = 0;
  let skipping = false;
  const hold = (part: string): void => {
    if (skipping || part === '') return;
    if (held + part.length > max) {
      skipping = true;
      parts = [];
      return;
    }
    parts.push(part);
    held += part.length;
  };
  const endLine = (): void => {
    if (!skipping) fn(parts.join(''));
    parts = [];
    held = 0;
    skipping = false;
  };
  return {
    push: (chunk) => {
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
        hold(chunk.slice(start, nl));
        endLine();
        start = nl + 1;
      }
      hold(chunk.slice(start));
    },
    end: () => {
      if (held > 0 || skipping) endLine();
    },
  };
}

/** The workspace a conversation log began in (its first start event), or null. */
export function workspaceOf(dataDir: string, session: string, conv: string): string | null {
  let found: string | null = null;
  try {
    readLogFile(path.join(dataDir, 'sessions', session, `${conv}.jsonl`), (e) => {
      if (found === null && e.t === 'start') found = e.workspace;
    });
  } catch {
    return null;
  }
  return found;
}

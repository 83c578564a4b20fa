// The history file format: JSON Lines, a header line then one entry per line.
// Parsing is forgiving (bad lines are counted and skipped, never fatal) and
// never puts file content into a message. An entry holding a segment of a
// type this milk does not know (a newer milk's) is neither bad nor shown: it
// is kept, line for line, through every rewrite, and recall skips it.
// Pure: bytes in, data out.

import { HistoryEntry, MAX_ENTRY_CHARS } from './rules';
import type { HistoryMode } from '../settings/store';

export const FORMAT = 'milk-history';
export const VERSION = 1;

export interface HistoryHeader {
  readonly format: typeof FORMAT;
  readonly version: number;
  readonly scope: HistoryMode;
  readonly sessionId: string | null;
  readonly workspace: string | null;
  readonly displayName: string;
}

/** The header a history file of this scope gets; the global one names no session. */
export function historyHeader(
  scope: HistoryHeader['scope'],
  session: { sessionId: string; workspace: string | null; displayName: string },
): HistoryHeader {
  const isSession = scope === 'session';
  return {
    format: FORMAT,
    version: VERSION,
    scope,
    sessionId: isSession ? session.sessionId : null,
    workspace: isSession ? session.workspace : null,
    displayName: isSession ? session.displayName : 'global',
  };
}

export interface Parsed {
  header: HistoryHeader | null;
  entries: HistoryEntry[];
  /** Lines that could not be used; a file with any is copied aside before rewriting. */
  badLines: number;
  /** A short, content-free description of what was wrong. */
  problems: string[];
  /** Entries in `entries` with a segment type this milk does not know: kept in the file, never recalled. */
  foreign: number;
}

/** A segment this milk knows, one of a type it does not (a newer milk's), or not a segment at all. */
function segmentKind(v: unknown): 'known' | 'foreign' | 'bad' {
  if (typeof v !== 'object' || v === null) return 'bad';
  const s = v as { type?: unknown; text?: unknown; size?: unknown };
  if (s.type === 'text' || s.type === 'paste' || s.type === 'file') return typeof s.text === 'string' ? 'known' : 'bad';
  // A pasted image: its path and pixel size (never its bytes).
  if (s.type === 'image') return typeof s.text === 'string' && typeof s.size === 'string' ? 'known' : 'bad';
  return typeof s.type === 'string' ? 'foreign' : 'bad';
}

/** Entries with a segment this milk cannot show: they stay in the file and out of recall. */
const foreignEntries = new WeakSet<HistoryEntry>();

/** Whether Up/Down, search and `milk history` may show an entry (not one of a newer milk's kinds). */
export function recallable(e: HistoryEntry): boolean {
  return !foreignEntries.has(e);
}

/** The parsed value itself when it is a well-formed entry (no copy: this runs 100k times on load). */
function toEntry(v: unknown): HistoryEntry | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as { ts?: unknown; segments?: unknown };
  if (typeof o.ts !== 'string' || !Array.isArray(o.segments) || o.segments.length === 0) return null;
  let foreign = false;
  for (const seg of o.segments) {
    const kind = segmentKind(seg);
    if (kind === 'bad') return null;
    if (kind === 'foreign') foreign = true;
  }
  if (foreign) foreignEntries.add(o as HistoryEntry);
  return o as HistoryEntry;
}

function isHeader(v: unknown): v is HistoryHeader {
  if (typeof v !== 'object' || v === null) return false;
  const h = v as Partial<HistoryHeader>;
  return h.format === FORMAT && typeof h.version === 'number' && (h.scope === 'session' || h.scope === 'global');
}

const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

// The exact line each parsed entry came from: rewriting a large file reuses
// them instead of serializing every entry again (about 10x faster at 100k).
const rawLines = new WeakMap<HistoryEntry, string>();

export function parseHistory(bytes: Uint8Array): Parsed {
  const out: Parsed = { header: null, entries: [], badLines: 0, problems: [], foreign: 0 };
  let text: string;
  try {
    text = fatalDecoder.decode(bytes);
  } catch {
    // Decode line by line, so one bad byte costs one line.
    out.problems.push('invalid UTF-8');
    const lines: string[] = [];
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          lines.push(fatalDecoder.decode(bytes.subarray(start, i)));
        } catch {
          out.badLines++;
        }
        start = i + 1;
      }
    }
    text = lines.join('\n');
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length === 0 || line.trim() === '') continue;
    // No entry milk keeps is longer than MAX_ENTRY_CHARS (JSON may escape a character in six): a longer
    // line, appended by something else, is a bad line, not a reason to parse and hold megabytes.
    if (line.length > MAX_LINE_CHARS) {
      out.badLines++;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      out.badLines++;
      continue;
    }
    if (i === 0 && isHeader(value)) {
      out.header = value;
      continue;
    }
    const entry = toEntry(value);
    if (entry && entryLength(entry) > MAX_ENTRY_CHARS) {
      out.badLines++;
      continue;
    }
    if (entry) {
      out.entries.push(entry);
      rawLines.set(entry, line);
      if (!recallable(entry)) out.foreign++;
    } else out.badLines++;
  }
  if (text.length > 0 && out.header === null) out.problems.push('missing or foreign header');
  if (out.badLines > 0) out.problems.push(`${out.badLines} unreadable line${out.badLines === 1 ? '' : 's'}`);
  return out;
}

const MAX_LINE_CHARS = MAX_ENTRY_CHARS * 6 + 4096;

function entryLength(e: HistoryEntry): number {
  let n = 0;
  for (const s of e.segments) n += typeof s.text === 'string' ? s.text.length : 0;
  return n;
}

/** True when the file must be copied aside before it is rewritten. */
export function needsRepair(p: Parsed, header: HistoryHeader): boolean {
  if (p.problems.length > 0) return true;
  return p.header !== null && (p.header.version > VERSION || p.header.scope !== header.scope);
}

/** One entry as its line (without the newline); a parsed entry keeps the line it came from. */
export function serializeEntry(e: HistoryEntry): string {
  return (
    rawLines.get(e) ??
    JSON.stringify(
      e.from === undefined ? { ts: e.ts, segments: e.segments } : { ts: e.ts, segments: e.segments, from: e.from },
    )
  );
}

export function serializeHeader(header: HistoryHeader): string {
  return JSON.stringify(header);
}

export function serializeHistory(header: HistoryHeader, entries: readonly HistoryEntry[]): string {
  const lines = [serializeHeader(header)];
  for (const e of entries) lines.push(serializeEntry(e));
  lines.push('');
  return lines.join('\n');
}

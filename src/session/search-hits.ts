// What a line of a conversation log that matched a search is, for `milk
// sessions search` and /search: an input, an answer's chunk or a tool's output,
// its conversation, when (its event's own time; the log's in logs older than
// that), and a line of context around the match — or nothing, when the match
// was only in the line's JSON (a field's name) and not in what was said. Smart
// case as in history search. Pure.

export type HitKind = 'input' | 'answer' | 'tool output';

export interface Hit {
  readonly session: string;
  readonly conv: string;
  readonly kind: HitKind;
  /** ISO 8601: when its event was written, or the log's last change where the event has no time (older logs). */
  readonly when: string;
  /** A line of what was said, around the match (control characters shown as spaces). */
  readonly context: string;
}

/** Characters of context before a match and after it: the match near the start, where a narrow list still shows it. */
const BEFORE = 24;
const AFTER = 80;

/** The hit a matched log line holds, or null. */
export function hitOf(line: string, query: string, session: string, logTime: string): Hit | null {
  let e: { t?: unknown; conv?: unknown; ts?: unknown; text?: unknown; content?: unknown; segments?: unknown };
  try {
    e = JSON.parse(line) as typeof e;
  } catch {
    return null;
  }
  const kind: HitKind | null =
    e.t === 'user' ? 'input' : e.t === 'delta' ? 'answer' : e.t === 'tool' ? 'tool output' : null;
  if (kind === null || typeof e.conv !== 'string') return null;
  const text =
    e.t === 'tool'
      ? e.content
      : typeof e.text === 'string'
        ? e.text
        : Array.isArray(e.segments)
          ? e.segments.map((s: { text?: unknown }) => (typeof s.text === 'string' ? s.text : '')).join('')
          : null;
  if (typeof text !== 'string') return null;
  const context = around(text, query);
  if (context === null) return null;
  const when = typeof e.ts === 'string' ? e.ts : logTime;
  return { session, conv: e.conv, kind, when, context };
}

/** The line of `text` around the first match of `query`, cut to a little before the match and more after it. */
export function around(text: string, query: string): string | null {
  // Smart case, as history search has it: an upper-case letter asks for the case exactly.
  const exact = query !== query.toLowerCase();
  const at = (exact ? text : text.toLowerCase()).indexOf(exact ? query : query.toLowerCase());
  if (at < 0 || !query) return null;
  const lineStart = text.lastIndexOf('\n', at) + 1;
  const nl = text.indexOf('\n', at + query.length);
  const lineEnd = nl < 0 ? text.length : nl;
  const from = Math.max(lineStart, at - BEFORE);
  const to = Math.min(lineEnd, at + query.length + AFTER);
  const cut = (from > lineStart ? '…' : '') + text.slice(from, to) + (to < lineEnd ? '…' : '');
  // eslint-disable-next-line no-control-regex
  return cut.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ');
}

/** Newest first; within one time, in the order found. */
export function newestFirst(hits: readonly Hit[]): Hit[] {
  return hits
    .map((h, i) => ({ h, i }))
    .sort((a, b) => (a.h.when === b.h.when ? a.i - b.i : a.h.when < b.h.when ? 1 : -1))
    .map((x) => x.h);
}

/** One line of a hit for the shell and the picker: when, where, which conversation, what, the context. */
export function hitLine(h: Hit, where: string): string {
  const when = h.when.slice(0, 16).replace('T', ' ');
  return `${when}  ${where}  ${h.conv}  ${h.kind}: ${h.context}`;
}

// The conversation log's vocabulary: one JSON object per line, each tagged
// with its conversation. Parsing is forgiving: a torn or garbage line, an
// event of the wrong shape and an event type this version does not know are
// skipped and counted, never fatal, and no message ever quotes a line's
// content. Pure (the shape check is handed in: session/schema.ts).

import type { Segment } from '../editor/model';
import type { ToolCall } from '../providers/provider';

export type LogEvent =
  | { t: 'start'; conv: string; ts: string; provider: string; model: string; workspace: string | null }
  | { t: 'user'; conv: string; ts: string; text: string; segments: Segment[] }
  /** A chunk of assistant message `msg` as it streamed (written at least once a second). */
  | { t: 'delta'; conv: string; msg: number; text: string }
  /** Assistant message `msg` is complete: its text is its deltas joined; it may ask for tools. */
  | { t: 'assistant'; conv: string; msg: number; toolCalls?: ToolCall[] }
  | { t: 'tool'; conv: string; callId: string; name: string; content: string; declined?: boolean }
  | { t: 'interrupted'; conv: string; ts: string }
  | { t: 'error'; conv: string; ts: string; message: string }
  | { t: 'end'; conv: string; ts: string };

export interface ParsedLog {
  events: LogEvent[];
  /** Lines that could not be used (torn, not JSON, malformed). */
  bad: number;
  /** Events of types this version does not know (skipped). */
  unknown: number;
  /** The file did not end with a newline: a writer died mid-line. */
  torn: boolean;
}

const KNOWN = new Set(['start', 'user', 'delta', 'assistant', 'tool', 'interrupted', 'error', 'end']);

/**
 * Parses a log's text; `valid` says whether an object is a well-formed event
 * (session/schema.ts, the schema library's check, passed in so that this
 * stays pure and start-up loads no schema).
 */
export function parseLog(text: string, valid: (event: unknown) => boolean): ParsedLog {
  const out: ParsedLog = { events: [], bad: 0, unknown: 0, torn: text.length > 0 && !text.endsWith('\n') };
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      out.bad++;
      continue;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      out.bad++;
      continue;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.t === 'string' && !KNOWN.has(o.t)) {
      out.unknown++;
      continue;
    }
    if (valid(o)) out.events.push(o as LogEvent);
    else out.bad++;
  }
  return out;
}

export function serializeEvent(e: LogEvent): string {
  return JSON.stringify(e) + '\n';
}

/** A conversation id: sortable by time, unique enough across processes. */
export function newConversationId(now: Date, random: number): string {
  return `c${now.getTime().toString(36)}${Math.floor(random * 36 ** 4).toString(36).padStart(4, '0')}`;
}

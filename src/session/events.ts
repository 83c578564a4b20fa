// The conversation log's vocabulary: one JSON object per line, each tagged
// with its conversation. Parsing is forgiving: a torn or garbage line and an
// event of the wrong shape are skipped and counted, never fatal; an event type
// this version does not know (a newer milk's) is skipped but is not damage:
// the file keeps it. No message ever quotes a line's content. Pure (the shape
// check is handed in: session/schema.ts).

import type { Segment } from '../protocol/segments';
import type { RecordedModel } from '../providers/resume';
import type { ToolCall } from '../protocol/tools';
import type { Spend } from '../providers/pricing/cost';
import { withoutBytes } from '../kernel/images';
import { type ImagePart } from '../protocol/images';

export type LogEvent =
  /** `baseUrl`: the HTTP providers' server (logs before it was recorded lack it). */
  | {
      t: 'start';
      conv: string;
      ts: string;
      provider: string;
      model: string;
      baseUrl?: string;
      workspace: string | null;
    }
  /** The model asked from here on (/model, or a resume that went back to the conversation's own). */
  | { t: 'model'; conv: string; ts: string; provider: string; model: string; baseUrl?: string }
  /** `text` is left out when it is the segments' texts joined (a paste is stored once, in its segment). */
  | { t: 'user'; conv: string; ts: string; text?: string; segments: Segment[]; images?: ImagePart[] }
  /** The input just logged as the model got it, where that was more (the MCP resources it named, read into it). */
  | { t: 'sent'; conv: string; text: string }
  /**
   * A chunk of assistant message `msg` as it streamed (written at least once a second); `ts`, when it was written
   * (a search's match is dated by it; logs before it had none).
   */
  | { t: 'delta'; conv: string; ts?: string; msg: number; text: string }
  /** Assistant message `msg` is complete: its text is its deltas joined; it may ask for tools. */
  | { t: 'assistant'; conv: string; msg: number; toolCalls?: ToolCall[] }
  /** What one request cost as its server counted it, and the model asked: a resumed conversation's totals. */
  | ({ t: 'usage'; conv: string; ts: string; model?: string } & Spend)
  | {
      t: 'tool';
      conv: string;
      /** When the tool's result came (absent in older logs). */
      ts?: string;
      callId: string;
      name: string;
      content: string;
      declined?: boolean;
      images?: ImagePart[];
    }
  /**
   * The messages before this point but the last `kept` (the current turn's) were replaced, in what the model gets, by
   * its summary of them.
   */
  | { t: 'compact'; conv: string; ts: string; summary: string; kept: number }
  /**
   * A rewind: the model's context from here on is its first `kept` messages (the later ones stay in the log, before
   * this line).
   */
  | { t: 'rewind'; conv: string; ts: string; kept: number }
  | { t: 'interrupted'; conv: string; ts: string }
  | { t: 'error'; conv: string; ts: string; message: string }
  | { t: 'end'; conv: string; ts: string }
  /** The person named the conversation (/rename): the newest name is its name. */
  | { t: 'name'; conv: string; ts: string; name: string };

export interface ParsedLog {
  events: LogEvent[];
  /** Lines that could not be used (torn, not JSON, malformed). */
  bad: number;
  /** Events of types this version does not know (a newer milk's): skipped, and kept in the file. */
  unknown: number;
  /** The file did not end with a newline: a writer died mid-line. */
  torn: boolean;
}

const KNOWN = new Set([
  'name',
  'start',
  'model',
  'user',
  'sent',
  'delta',
  'assistant',
  'tool',
  'usage',
  'compact',
  'rewind',
  'interrupted',
  'error',
  'end',
]);

/**
 * Reads a log line by line (a log is read in chunks, never as one string);
 * `valid` says whether an object is a well-formed event (session/schema.ts,
 * the schema library's check, passed in so that this stays pure and
 * start-up loads no schema). An event of a type this version does not know
 * is a newer milk's: counted and handed to `foreign` as its line, never bad.
 */
export class LogReader {
  readonly parsed: ParsedLog = { events: [], bad: 0, unknown: 0, torn: false };

  /** `keep`: where each good event goes with its line (default: `parsed.events`); `foreign`: each newer milk's line. */
  constructor(
    private readonly valid: (event: unknown) => boolean,
    private readonly keep?: (e: LogEvent, line: string) => void,
    private readonly foreign?: (line: string, conv: unknown) => void,
  ) {}

  take(line: string): void {
    if (!line.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      this.parsed.bad++;
      return;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      this.parsed.bad++;
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.t === 'string' && !KNOWN.has(o.t)) {
      this.parsed.unknown++;
      this.foreign?.(line, o.conv);
    } else if (!this.valid(o)) this.parsed.bad++;
    else if (this.keep) this.keep(o as LogEvent, line);
    else this.parsed.events.push(o as LogEvent);
  }
}

/** Parses a log's whole text (tests, small logs). */
export function parseLog(text: string, valid: (event: unknown) => boolean): ParsedLog {
  const reader = new LogReader(valid);
  for (const line of text.split('\n')) reader.take(line);
  reader.parsed.torn = text.length > 0 && !text.endsWith('\n');
  return reader.parsed;
}

/** What was typed, as the log keeps it. */
export function userText(e: Extract<LogEvent, { t: 'user' }>): string {
  return e.text ?? e.segments.map((s) => s.text).join('');
}

/** A user event, its text written only when the segments do not already hold it. */
/** `images`: what they were (path, size, SHA-256), never their bytes. */
export function userEvent(conv: string, ts: string, text: string, segments: Segment[], images?: ImagePart[]): LogEvent {
  const also = images?.length ? { images: images.map(withoutBytes) } : {};
  return segments.map((s) => s.text).join('') === text
    ? { t: 'user', conv, ts, segments, ...also }
    : { t: 'user', conv, ts, text, segments, ...also };
}

export function serializeEvent(e: LogEvent): string {
  return JSON.stringify(e) + '\n';
}

/** A conversation id: sortable by time, unique enough across processes. */
export function newConversationId(now: Date, random: number): string {
  return `c${now.getTime().toString(36)}${Math.floor(random * 36 ** 4)
    .toString(36)
    .padStart(4, '0')}`;
}

/** The provider, server and model a conversation was last talking to; null for a log that names none. */
export function recordedModel(events: readonly LogEvent[]): RecordedModel | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.t === 'start' || e.t === 'model')
      return { provider: e.provider, model: e.model, ...(e.baseUrl ? { baseUrl: e.baseUrl } : {}) };
  }
  return null;
}

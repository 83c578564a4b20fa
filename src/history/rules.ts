// What goes into history and how a list of entries grows: blank, space-led and
// secret-looking inputs stay out, a consecutive duplicate is skipped, the
// newest N are kept. Pure functions over plain data.

import { segmentsText } from '../editor/model';
import { Segment } from '../protocol/segments';
import { SECRET_SHAPES } from '../kernel/secret-shapes';

export interface HistoryEntry {
  /** When it was entered, ISO 8601. */
  readonly ts: string;
  readonly segments: readonly Segment[];
  /** In the global history: the session it was entered in (its display name). */
  readonly from?: string;
}

export const DEFAULT_MAX_ENTRIES = 500;

/**
 * Inputs longer than this are not kept: each load and compaction reads the
 * whole file, so one huge paste would tax every start that follows.
 */
export const MAX_ENTRY_CHARS = 1_000_000;

/**
 * Shapes of credentials people paste by accident. Each has a name (shown in
 * the status bar instead of the text) and a test in __tests__/unit/history-rules.
 */
export const SECRET_PATTERNS: ReadonlyArray<{ name: string; pattern: RegExp }> = SECRET_SHAPES.map((s) => ({
  name: s.name,
  pattern: new RegExp(s.pattern.source, s.pattern.flags.replace('g', '')),
}));

export type StoreVerdict =
  { store: true } | { store: false; reason: 'blank' | 'space' | 'secret' | 'too-large'; secret?: string };

/** bash's ignorespace: an input typed with a leading space (or tab) is kept out of history, and out of the log. */
function enteredWithSpace(segments: readonly Segment[]): boolean {
  return segments[0]?.type === 'text' && /^[ \t]/.test(segments[0].text);
}

/** Whether an input may be written to history, and if not, why (never the text). */
export function storeVerdict(segments: readonly Segment[]): StoreVerdict {
  const text = segmentsText(segments);
  if (text.trim().length === 0) return { store: false, reason: 'blank' };
  if (enteredWithSpace(segments)) return { store: false, reason: 'space' };
  if (text.length > MAX_ENTRY_CHARS) return { store: false, reason: 'too-large' };
  for (const { name, pattern } of SECRET_PATTERNS) {
    if (pattern.test(text)) return { store: false, reason: 'secret', secret: name };
  }
  return { store: true };
}

/** `text` with every secret-shaped part replaced by `[secret: its kind]`. */
export function redactSecretText(text: string): string {
  let out = text;
  for (const { name, pattern } of SECRET_SHAPES) out = out.replace(pattern, `[secret: ${name}]`);
  return out;
}

/**
 * An input as the conversation log may keep it, by the history's rule: an
 * input entered with a leading space is not kept at all, and secrets are
 * redacted (the model got what was typed; the log and `milk sessions show` never do).
 */
export function loggableInput(text: string, segments: readonly Segment[]): { text: string; segments: Segment[] } {
  if (enteredWithSpace(segments)) {
    const note = '[not kept: entered with a leading space]';
    return { text: note, segments: [{ type: 'text', text: note }] };
  }
  return { text: redactSecretText(text), segments: segments.map((s) => ({ ...s, text: redactSecretText(s.text) })) };
}

export function sameInput(a: HistoryEntry, b: HistoryEntry): boolean {
  if (a.segments.length !== b.segments.length) return false;
  return a.segments.every(
    (s, i) =>
      s.type === b.segments[i].type &&
      s.text === b.segments[i].text &&
      (KNOWN_SEGMENTS.has(s.type) || sameForeign(s, b.segments[i])),
  );
}

const KNOWN_SEGMENTS: ReadonlySet<string> = new Set(['text', 'paste', 'file']);

/** A newer milk's segment (history/format.ts keeps them) is the same only when all of it is: its text may be none. */
function sameForeign(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Appends unless the newest entry is the same input. */
export function appendDeduped(entries: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  const last = entries[entries.length - 1];
  if (last && sameInput(last, entry)) return entries as HistoryEntry[];
  return [...entries, entry];
}

/** Keeps the newest `max` entries. */
export function capEntries(entries: readonly HistoryEntry[], max: number): HistoryEntry[] {
  const n = Math.max(1, Math.floor(max));
  return entries.length > n ? entries.slice(entries.length - n) : (entries as HistoryEntry[]);
}

/**
 * What loading and compaction leave of a file's entries: no consecutive
 * duplicates, the newest `max`. One pass, linear in the entries.
 */
export function compactEntries(entries: readonly HistoryEntry[], max: number): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  for (const e of entries) {
    const last = out[out.length - 1];
    if (!last || !sameInput(last, e)) out.push(e);
  }
  return capEntries(out, max);
}

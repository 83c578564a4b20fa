// Secrets that never leave: what is sent to the model's server (tool
// results, attached files, pasted text, the system prompt's files) is scanned
// with milk's shapes (kernel/secret-shapes.ts, the ones history keeps out) and
// a maintained detector's (app/secret-detector.ts), and each secret found
// is sent as a placeholder, the same one every time for the same value
// (`[secret:aws-key-1]`); the model is told values were masked. A placeholder
// in a tool call's arguments is put back to its value only once the person
// approves that call, which shows it. /secrets lists what was masked and can
// let one value through. The conversation itself keeps the values (the
// person's screen shows them); only what leaves is masked. Pure.

import type { ChatMessage } from '../protocol/messages';
import { SecretSpan, secretSpans } from '../kernel/secret-shapes';

/** A secret a detector beside milk's own shapes found (app/secret-detector.ts), where it is in the text. */
export interface Detected {
  readonly start: number;
  readonly end: number;
  /** Its kind, as a placeholder names it: lower-case letters and dashes. */
  readonly slug: string;
  readonly name: string;
}

/** What finds secrets in a text beside milk's shapes; it may be loading still, so the answer is awaited. */
export type Detect = (text: string) => Promise<readonly Detected[]>;

const PLACEHOLDER = /\[secret:([a-z-]+)-(\d+)\]/g;

/** What the model is told, once anything it is sent was masked. */
export const MASKED_NOTE =
  'Some values in this conversation are secrets that milk masked before sending, as placeholders such as ' +
  '[secret:aws-key-1]: the real values were not sent. Where a tool call needs one, write its placeholder as it is; ' +
  'milk puts the value back once the person approves that call.';

export interface Masked {
  readonly placeholder: string;
  readonly name: string;
  readonly allowed: boolean;
}

export class SecretMask {
  private readonly byValue = new Map<string, string>();
  private readonly byPlaceholder = new Map<string, { value: string; name: string }>();
  private readonly counts = new Map<string, number>();
  private readonly allowed = new Set<string>();

  /**
   * `text` with every secret as its placeholder: those milk's shapes find and those `found` (a detector's, in the same
   * text); `all`: the values let through masked too (for the log).
   */
  mask(text: string, all = false, found: readonly Detected[] = []): string {
    if (!text) return text;
    // Values masked before are masked wherever they come again: the log (sync, no detector) keeps a detector's finds
    // as their placeholders too.
    const spans: Detected[] = [...secretSpans(text).map(asDetected), ...this.knownIn(text)];
    const taken: Detected[] = [];
    // The earliest first, the longer of two that begin together; one that overlaps a secret already taken is in it.
    for (const s of [...spans, ...found].sort((a, b) => a.start - b.start || b.end - a.end)) {
      const last = taken[taken.length - 1];
      if (last && s.start < last.end) continue;
      taken.push(s);
    }
    let out = '';
    let at = 0;
    for (const s of taken) {
      const value = text.slice(s.start, s.end);
      if (!all && this.allowed.has(value)) continue;
      out += text.slice(at, s.start) + this.placeholderOf(value, s);
      at = s.end;
    }
    return at === 0 ? text : out + text.slice(at);
  }

  private knownIn(text: string): Detected[] {
    const out: Detected[] = [];
    for (const value of this.byValue.keys())
      for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length))
        out.push({ start: i, end: i + value.length, slug: '', name: '' });
    return out;
  }

  private placeholderOf(value: string, kind: { slug: string; name: string }): string {
    const known = this.byValue.get(value);
    if (known) return known;
    const n = (this.counts.get(kind.slug) ?? 0) + 1;
    this.counts.set(kind.slug, n);
    const placeholder = `[secret:${kind.slug}-${n}]`;
    this.byValue.set(value, placeholder);
    this.byPlaceholder.set(placeholder, { value, name: kind.name });
    return placeholder;
  }

  /** The placeholders of this session's secrets in `text`. */
  placeholdersIn(text: string): string[] {
    const found = new Set<string>();
    for (const m of text.matchAll(PLACEHOLDER)) if (this.byPlaceholder.has(m[0])) found.add(m[0]);
    return [...found];
  }

  /** `text` with this session's placeholders back as their values. */
  unmask(text: string): string {
    return text.replace(PLACEHOLDER, (p) => this.byPlaceholder.get(p)?.value ?? p);
  }

  /** What was masked this session, in the order first seen. */
  list(): Masked[] {
    return [...this.byPlaceholder].map(([placeholder, { value, name }]) => ({
      placeholder,
      name,
      allowed: this.allowed.has(value),
    }));
  }

  /** Lets one value through from the next request on (by its placeholder, or its number in the list); false: none. */
  allow(which: string): boolean {
    const list = this.list();
    const byNumber = /^\d+$/.test(which) ? list[Number(which) - 1]?.placeholder : undefined;
    const entry = this.byPlaceholder.get(byNumber ?? which.trim());
    if (!entry) return false;
    this.allowed.add(entry.value);
    return true;
  }

  /** A value as the person's approval question shows it: enough to know it, not the whole. */
  hint(placeholder: string): string {
    const v = this.byPlaceholder.get(placeholder)?.value ?? '';
    const oneLine = v.split('\n')[0];
    return oneLine.length <= 10 ? oneLine : `${oneLine.slice(0, 6)}…${oneLine.slice(-4)}`;
  }
}

/** A tool call's arguments with every string in them passed through `f`. */
export function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
}

/** mapStrings with an `f` that answers later. */
async function mapStringsAsync(value: unknown, f: (s: string) => Promise<string>): Promise<unknown> {
  const found: string[] = [];
  mapStrings(value, (s) => (found.push(s), s));
  const done = new Map<string, string>();
  for (const s of found) if (!done.has(s)) done.set(s, await f(s));
  return mapStrings(value, (s) => done.get(s) ?? s);
}

function asDetected(s: SecretSpan): Detected {
  return { start: s.start, end: s.end, slug: s.shape.slug, name: s.shape.name };
}

/**
 * A request as it leaves: every message and the system prompt masked (by milk's shapes, and by `detect`'s when
 * given), and the model told when anything was.
 */
export async function maskRequest(
  mask: SecretMask,
  messages: readonly ChatMessage[],
  system: string | undefined,
  detect?: Detect,
): Promise<{ messages: ChatMessage[]; system: string | undefined }> {
  const masked = async (s: string): Promise<string> => mask.mask(s, false, s && detect ? await detect(s) : []);
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const content = await masked(m.content);
    if (m.role !== 'assistant' || !m.toolCalls) {
      out.push({ ...m, content });
      continue;
    }
    const calls = [];
    for (const c of m.toolCalls) calls.push({ ...c, args: (await mapStringsAsync(c.args, masked)) as typeof c.args });
    out.push({ ...m, content, toolCalls: calls });
  }
  const sys = system === undefined ? undefined : await masked(system);
  const any = mask.list().some((e) => !e.allowed);
  return { messages: out, system: any ? `${sys ?? ''}${sys ? '\n\n' : ''}${MASKED_NOTE}` : sys };
}

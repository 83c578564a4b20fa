// Secrets that never leave: what is sent to the model's server (tool
// results, attached files, pasted text, the system prompt's files) is scanned
// with the shapes history keeps out (history/rules.ts), and each secret found
// is sent as a placeholder, the same one every time for the same value
// (`[secret:aws-key-1]`); the model is told values were masked. A placeholder
// in a tool call's arguments is put back to its value only once the person
// approves that call, which shows it. /secrets lists what was masked and can
// let one value through. The conversation itself keeps the values (the
// person's screen shows them); only what leaves is masked. Pure.

import type { ChatMessage } from '../protocol/messages';

interface Shape {
  /** The placeholder's kind: `[secret:<slug>-N]`. */
  readonly slug: string;
  readonly name: string;
  readonly pattern: RegExp;
  /** The capture group that is the secret itself (the rest is its label, kept), or 0 for the whole match. */
  readonly group: number;
}

// The shapes of history's rules (history/rules.ts), each matching every occurrence; a private key's whole block.
const SHAPES: readonly Shape[] = [
  { slug: 'aws-key', name: 'AWS access key', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b/g, group: 0 },
  {
    slug: 'aws-secret',
    name: 'AWS secret key',
    pattern: /aws_secret_access_key\s*[=:]\s*["']?([A-Za-z0-9/+=]{40})/gi,
    group: 1,
  },
  {
    slug: 'github-token',
    name: 'GitHub token',
    pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{22,}/g,
    group: 0,
  },
  { slug: 'gitlab-token', name: 'GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, group: 0 },
  { slug: 'slack-token', name: 'Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, group: 0 },
  { slug: 'stripe-key', name: 'Stripe key', pattern: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g, group: 0 },
  { slug: 'npm-token', name: 'npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, group: 0 },
  { slug: 'api-key', name: 'API key', pattern: /\bsk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_-]{20,}/g, group: 0 },
  { slug: 'google-key', name: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, group: 0 },
  {
    slug: 'private-key',
    name: 'private key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    group: 0,
  },
];

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

  /** `text` with every secret as its placeholder; `all`: the values let through masked too (for the log). */
  mask(text: string, all = false): string {
    if (!text) return text;
    let out = text;
    for (const shape of SHAPES) {
      shape.pattern.lastIndex = 0;
      if (!shape.pattern.test(out)) continue;
      shape.pattern.lastIndex = 0;
      out = out.replace(shape.pattern, (whole: string, ...groups: unknown[]) => {
        const value = shape.group === 0 ? whole : (groups[shape.group - 1] as string | undefined);
        if (!value || (!all && this.allowed.has(value))) return whole;
        const placeholder = this.placeholderOf(value, shape);
        return shape.group === 0 ? placeholder : whole.replace(value, placeholder);
      });
    }
    return out;
  }

  private placeholderOf(value: string, shape: Shape): string {
    const known = this.byValue.get(value);
    if (known) return known;
    const n = (this.counts.get(shape.slug) ?? 0) + 1;
    this.counts.set(shape.slug, n);
    const placeholder = `[secret:${shape.slug}-${n}]`;
    this.byValue.set(value, placeholder);
    this.byPlaceholder.set(placeholder, { value, name: shape.name });
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

/** A request as it leaves: every message and the system prompt masked, and the model told when anything was. */
export function maskRequest(
  mask: SecretMask,
  messages: readonly ChatMessage[],
  system: string | undefined,
): { messages: ChatMessage[]; system: string | undefined } {
  const out = messages.map((m): ChatMessage => {
    if (m.role !== 'assistant') return { ...m, content: mask.mask(m.content) };
    const calls = m.toolCalls?.map((c) => ({ ...c, args: mapStrings(c.args, (s) => mask.mask(s)) as typeof c.args }));
    return { ...m, content: mask.mask(m.content), ...(calls ? { toolCalls: calls } : {}) };
  });
  const sys = system === undefined ? undefined : mask.mask(system);
  const any = mask.list().some((e) => !e.allowed);
  return { messages: out, system: any ? `${sys ?? ''}${sys ? '\n\n' : ''}${MASKED_NOTE}` : sys };
}

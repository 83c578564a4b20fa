// /export: a conversation as a file a person reads (Markdown) or a program
// does (JSON), made from its log: every input, answer, tool call and what the
// tool gave back, in the order they happened. What the log masked stays
// masked, and the calls' arguments, which the log keeps as sent, are masked
// here by the same rules. Pure.

import { imageChip } from '../kernel/images';
import { redactSecretText } from '../history/rules';
import { LogEvent, userText } from './events';
import { maxOf, pushAll } from '../kernel/arrays';
import { sanitize } from '../protocol/inert';

export type ExportEntry =
  | { role: 'user'; ts: string; text: string; images?: string[] }
  | { role: 'assistant'; text: string; toolCalls?: Array<{ id: string; name: string; args: unknown }> }
  | { role: 'tool'; callId: string; name: string; content: string; declined?: boolean }
  | { role: 'note'; ts?: string; text: string };

export interface ExportDoc {
  conversation: string;
  exported: string;
  workspace: string | null;
  started: string | null;
  /** The models it talked to, in order (`provider model`). */
  models: string[];
  entries: ExportEntry[];
}

/** The conversation `conv` of `events`, as the export holds it. */
export function exportDoc(events: readonly LogEvent[], conv: string, exported: string): ExportDoc {
  const doc: ExportDoc = { conversation: conv, exported, workspace: null, started: null, models: [], entries: [] };
  let answer = '';
  const flush = (): void => {
    if (answer) doc.entries.push({ role: 'assistant', text: answer });
    answer = '';
  };
  for (const e of events) {
    if (e.conv !== conv) continue;
    if (e.t === 'delta') {
      answer += e.text;
      continue;
    }
    if (e.t === 'assistant') {
      const calls = e.toolCalls?.map((c) => ({ id: c.id, name: c.name, args: maskedArgs(c.args) }));
      if (answer || calls?.length)
        doc.entries.push({ role: 'assistant', text: answer, ...(calls ? { toolCalls: calls } : {}) });
      answer = '';
      continue;
    }
    flush();
    take(doc, e);
  }
  flush();
  return doc;
}

function take(doc: ExportDoc, e: Exclude<LogEvent, { t: 'delta' | 'assistant' }>): void {
  switch (e.t) {
    case 'start':
      doc.workspace = e.workspace;
      doc.started = e.ts;
      doc.models.push(`${e.provider} ${e.model}`);
      return;
    case 'model':
      doc.models.push(`${e.provider} ${e.model}`);
      return note(doc, `model: ${e.provider} ${e.model}`, e.ts);
    case 'user': {
      const images = e.images?.map((p) => imageChip(p));
      doc.entries.push({ role: 'user', ts: e.ts, text: userText(e), ...(images?.length ? { images } : {}) });
      return;
    }
    case 'tool':
      doc.entries.push({
        role: 'tool',
        callId: e.callId,
        name: e.name,
        content: e.content,
        ...(e.declined ? { declined: true } : {}),
      });
      return;
    case 'compact':
      return note(doc, `the conversation before here was summarised for the model:\n\n${e.summary}`, e.ts);
    case 'rewind':
      return note(doc, `rewound: the model's context went back to its first ${e.kept} messages`, e.ts);
    case 'interrupted':
      return note(doc, 'interrupted', e.ts);
    case 'error':
      return note(doc, `error: ${e.message}`, e.ts);
    case 'end':
    case 'sent':
      return;
  }
}

function note(doc: ExportDoc, text: string, ts?: string): void {
  doc.entries.push({ role: 'note', ...(ts ? { ts } : {}), text });
}

/** A call's arguments with any secret in their strings masked (the log keeps them as the model sent them). */
function maskedArgs(args: Record<string, unknown>): unknown {
  const text = JSON.stringify(args);
  const masked = redactSecretText(text);
  if (masked === text) return args;
  try {
    return JSON.parse(masked) as unknown;
  } catch {
    return masked;
  }
}

/** The export as JSON, one document. */
export function exportJson(doc: ExportDoc): string {
  return JSON.stringify(doc, null, 2) + '\n';
}

/** The export as Markdown: a heading per input and answer, calls and outputs in fences that nothing inside closes. */
export function exportMarkdown(doc: ExportDoc): string {
  const out: string[] = [`# milk conversation ${doc.conversation}`, ''];
  if (doc.workspace) out.push(`- workspace: ${doc.workspace}`);
  if (doc.models.length) out.push(`- model: ${doc.models[0]}`);
  if (doc.started) out.push(`- started: ${doc.started}`);
  out.push(`- exported: ${doc.exported}`, '');
  for (const e of doc.entries) {
    pushAll(out, entryMarkdown(e));
    out.push('');
  }
  // What the tools returned is the model's and the workspace's: a file `cat` shows must run no escape sequence in it
  // (a clipboard write, a title, a clear), as the screen never does. Tabs are kept, unlike on the screen.
  return out
    .join('\n')
    .replace(/\n+$/, '\n')
    .split('\t')
    .map((part) => sanitize(part))
    .join('\t');
}

function entryMarkdown(e: ExportEntry): string[] {
  switch (e.role) {
    case 'user':
      return [`## You · ${e.ts}`, '', e.text, ...(e.images ?? []).map((chip) => `\n${chip}`)];
    case 'assistant': {
      const calls = (e.toolCalls ?? []).flatMap((c) => [
        '',
        `**${c.name}** call:`,
        '',
        ...fenced(argsText(c.args), 'json'),
      ]);
      return ['## milk', ...(e.text ? ['', e.text] : []), ...calls];
    }
    case 'tool':
      return [`**${e.name}** ${e.declined ? 'not run' : 'result'}:`, '', ...fenced(e.content, 'text')];
    case 'note':
      return [`> ${e.text.split('\n').join('\n> ')}`];
  }
}

function argsText(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args, null, 2);
}

/** `text` in a fence longer than any run of backticks it holds. */
export function fenced(text: string, lang: string): string[] {
  const longest = maxOf(
    (text.match(/`+/g) ?? []).map((run) => run.length),
    0,
  );
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence + lang, text.replace(/\n$/, ''), fence];
}

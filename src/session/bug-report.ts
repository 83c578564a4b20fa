// /bug's report: what a maintainer needs to reproduce a problem (the build, the machine, the terminal, /doctor's
// lines, and the last turn's shape: its events in order, when each came, its errors and the tools it asked for),
// without what the person typed or the model wrote. Those go in only when the person has seen them and said yes:
// `shownText` is what /bug shows, `bugReport(…, true)` what it then adds. Tool arguments and output never go in
// (they are the workspace's files and commands). Pure.

import { LogEvent, userText } from './events';
import { redactSecrets } from '../kernel/redact';
import { redactSecretText } from '../history/rules';
import { fenced as fence } from './export';

export interface BugFacts {
  /** `milk --version`'s line. */
  readonly version: string;
  readonly platform: string;
  readonly node: string;
  /** TERM, TERM_PROGRAM and the like, as `NAME=value`. */
  readonly terminal: readonly string[];
  readonly doctor: readonly string[];
  /** When the report was made (ISO). */
  readonly made: string;
}

/** The last turn of conversation `conv`: its last input and everything after it; empty when it had none. */
export function lastTurn(events: readonly LogEvent[], conv: string): LogEvent[] {
  const own = events.filter((e) => e.conv === conv);
  let at = -1;
  own.forEach((e, i) => {
    if (e.t === 'user') at = i;
  });
  return at < 0 ? [] : own.slice(at);
}

/** The person's input and the model's text in `turn`, as /bug shows them before asking; null when there is none. */
export function shownText(turn: readonly LogEvent[]): string | null {
  const input = turn.flatMap((e) => (e.t === 'user' ? [userText(e)] : []));
  const answer = turn.flatMap((e) => (e.t === 'delta' ? [e.text] : [])).join('');
  if (!input.join('').trim() && !answer.trim()) return null;
  return `## Your input\n\n${fenced(input.join('\n'))}\n\n## The model's text\n\n${fenced(answer || '(none)')}`;
}

/** The report as Markdown; `withText`: the person said yes to `shownText(turn)` going in. */
export function bugReport(facts: BugFacts, turn: readonly LogEvent[], withText: boolean): string {
  const parts = [
    '# milk bug report',
    list([
      `made: ${facts.made}`,
      `version: ${facts.version}`,
      `platform: ${facts.platform}`,
      `node: ${facts.node}`,
      ...facts.terminal.map((t) => `terminal: ${t}`),
    ]),
    `## milk doctor\n\n${fenced(facts.doctor.join('\n') || '(no checks)')}`,
    lastTurnPart(turn),
  ];
  const text = withText ? shownText(turn) : null;
  parts.push(text ?? "## Your input and the model's text\n\nnot included (/bug asks before they go in)");
  return parts.join('\n\n') + '\n';
}

function lastTurnPart(turn: readonly LogEvent[]): string {
  if (turn.length === 0) return '## The last turn\n\nnone: this conversation has had no input';
  const start = Date.parse(turn[0].t === 'user' ? turn[0].ts : '');
  const tools = turn.flatMap((e) => (e.t === 'assistant' ? (e.toolCalls ?? []).map((c) => c.name) : []));
  const errors = turn.flatMap((e) => (e.t === 'error' ? [redactSecretText(redactSecrets(e.message, undefined))] : []));
  const models = turn.flatMap((e) => (e.t === 'usage' && e.model ? [e.model] : []));
  return [
    '## The last turn',
    list([
      `events: ${kinds(turn)}`,
      `tools asked for: ${tools.length ? tools.join(', ') : 'none'}`,
      `models: ${models.length ? [...new Set(models)].join(', ') : 'not recorded'}`,
      `errors: ${errors.length ? '' : 'none'}`,
    ]) + errors.map((m) => `\n  - ${oneLine(m)}`).join(''),
    '### Timings (seconds after the input)',
    fenced(timings(turn, start).join('\n')),
  ].join('\n\n');
}

/** The events' kinds in order, a run of one kind counted once (`delta ×12`). */
function kinds(turn: readonly LogEvent[]): string {
  const runs: Array<{ t: string; n: number }> = [];
  for (const e of turn) {
    const last = runs[runs.length - 1];
    if (last?.t === e.t) last.n++;
    else runs.push({ t: e.t, n: 1 });
  }
  return runs.map((r) => (r.n > 1 ? `${r.t} ×${r.n}` : r.t)).join(', ');
}

/** When each dated event came: the first words, each tool's result, usage, errors, the end. */
function timings(turn: readonly LogEvent[], start: number): string[] {
  const lines: string[] = [];
  let words = false;
  for (const e of turn) {
    const ts = 'ts' in e && typeof e.ts === 'string' ? Date.parse(e.ts) : NaN;
    if (!Number.isFinite(ts) || !Number.isFinite(start)) continue;
    const at = `+${((ts - start) / 1000).toFixed(3)}`.padStart(9);
    if (e.t === 'delta' && !words) {
      words = true;
      lines.push(`${at}  first words`);
    } else if (e.t === 'tool') lines.push(`${at}  tool ${e.name}${e.declined ? ' (declined)' : ''}`);
    else if (e.t !== 'delta' && e.t !== 'user') lines.push(`${at}  ${e.t}`);
  }
  return lines.length ? lines : ['(no dated events)'];
}

function list(items: readonly string[]): string {
  return items.map((i) => `- ${i}`).join('\n');
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? line.slice(0, 299) + '…' : line;
}

function fenced(text: string): string {
  return fence(text, '').join('\n');
}

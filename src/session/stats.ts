// Usage over time (/stats, `milk stats`): each conversation log summed once into cells (a day, a workspace, a model:
// tokens, requests, turns, dollars), which app/stats.ts caches by the log's size and modification time; then the
// cells of a period added up by day, model and workspace. Reading a log looks only at a line's first bytes: the
// bulk of a log is the model's words and tools' output, which usage never needs. Pure.

import type { Spend } from '../providers/pricing/cost';
import { money } from '../providers/pricing/cost';

export interface StatsCell {
  /** The person's local date, YYYY-MM-DD. */
  readonly day: string;
  readonly workspace: string;
  /** `provider model`. */
  readonly model: string;
  input: number;
  output: number;
  cacheRead: number;
  requests: number;
  turns: number;
  usd: number;
  /** Requests no price was known for. */
  unpriced: number;
}

export interface StatsPlace {
  readonly provider: string;
  readonly model: string;
  readonly baseUrl?: string;
}

export interface StatsReading {
  /** A timestamp's local date. */
  dayOf(ts: string): string;
  /** A request's dollars, null when no price is known. */
  price(place: StatsPlace, spend: Spend): number | null;
}

/** The events usage is summed from; every other line of a log is skipped unread. */
export const STATS_TYPES = ['start', 'model', 'usage', 'user'] as const;

type StatsType = (typeof STATS_TYPES)[number];

interface ConvState {
  workspace: string;
  place: StatsPlace;
}

/** One log's cells, line by line: `take` each needed line (whole, or a user line's first bytes). */
export class StatsSummarizer {
  private readonly cells = new Map<string, StatsCell>();
  private readonly convs = new Map<string, ConvState>();

  constructor(private readonly reading: StatsReading) {}

  take(type: StatsType, text: string): void {
    if (type === 'user') return this.turn(text);
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    const conv = str(e.conv);
    if (conv === null) return;
    if (type === 'usage') return this.usage(conv, e);
    const provider = str(e.provider);
    const model = str(e.model);
    if (provider === null || model === null) return;
    const baseUrl = str(e.baseUrl) ?? undefined;
    const was = this.convs.get(conv);
    const workspace = type === 'start' ? (str(e.workspace) ?? '(no workspace)') : (was?.workspace ?? '(unknown)');
    this.convs.set(conv, { workspace, place: { provider, model, baseUrl } });
  }

  done(): StatsCell[] {
    return [...this.cells.values()];
  }

  /** An input: a turn, dated by its `ts`, read from the line's first bytes (an input may be megabytes). */
  private turn(head: string): void {
    // An unescaped `"key":"` is a key: inside a string its quotes are escaped.
    const conv = /"conv":"([^"\\]+)"/.exec(head);
    const ts = /"ts":"([^"\\]+)"/.exec(head);
    if (conv && ts) this.cell(conv[1], ts[1], undefined).turns++;
  }

  private usage(conv: string, e: Record<string, unknown>): void {
    const ts = str(e.ts);
    const input = count(e.input);
    const output = count(e.output);
    if (ts === null || input === null || output === null) return;
    const spend: Spend = { input, output, cacheRead: count(e.cacheRead) ?? 0, cacheWrite: count(e.cacheWrite) ?? 0 };
    // The model the server says answered, else the one the conversation was asking.
    const model = str(e.model) ?? undefined;
    const c = this.cell(conv, ts, model);
    c.input += input;
    c.output += output;
    c.cacheRead += spend.cacheRead ?? 0;
    c.requests++;
    const place = this.convs.get(conv)?.place ?? { provider: 'unknown', model: 'unknown' };
    const usd = this.reading.price(model ? { ...place, model } : place, spend);
    if (usd === null) c.unpriced++;
    else c.usd += usd;
  }

  private cell(conv: string, ts: string, model: string | undefined): StatsCell {
    const state = this.convs.get(conv);
    const place = state?.place;
    const name = `${place?.provider ?? 'unknown'} ${model ?? place?.model ?? 'unknown'}`;
    const day = this.reading.dayOf(ts);
    const workspace = state?.workspace ?? '(unknown)';
    const key = JSON.stringify([day, workspace, name]);
    let c = this.cells.get(key);
    if (!c) {
      c = {
        day,
        workspace,
        model: name,
        input: 0,
        output: 0,
        cacheRead: 0,
        requests: 0,
        turns: 0,
        usd: 0,
        unpriced: 0,
      };
      this.cells.set(key, c);
    }
    return c;
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** 45 ? v : null;

/** A period: the first and last day it takes in (inclusive, YYYY-MM-DD; null: no bound), and how it reads. */
export interface Period {
  readonly from: string | null;
  readonly to: string | null;
  readonly label: string;
}

export const PERIOD_WORDS = 'today, week, month (the default), year, all, Nd, YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD';

/** The period a word names, counted back from `today`; a string saying what is wrong otherwise. */
export function parsePeriod(word: string | undefined, today: string): Period | string {
  const w = (word ?? 'month').trim().toLowerCase();
  const back = (days: number, label: string): Period => ({ from: addDays(today, 1 - days), to: today, label });
  if (w === 'today') return { from: today, to: today, label: `today (${today})` };
  if (w === 'week') return back(7, 'over the last 7 days');
  if (w === 'month') return back(30, 'over the last 30 days');
  if (w === 'year') return back(365, 'over the last 365 days');
  if (w === 'all') return { from: null, to: null, label: 'over all time' };
  const days = /^([1-9]\d{0,4})d$/.exec(w);
  if (days) return back(Number(days[1]), `over the last ${days[1]} days`);
  const range = /^(\d{4}-\d{2}-\d{2})(?:\.\.(\d{4}-\d{2}-\d{2})?)?$/.exec(w);
  if (range && validDay(range[1]) && (!range[2] || validDay(range[2]))) {
    const to = range[2] ?? (w.includes('..') ? null : today);
    if (to && to < range[1]) return `the period ends before it starts: ${w}`;
    return { from: range[1], to, label: to ? `from ${range[1]} to ${to}` : `since ${range[1]}` };
  }
  return `not a period: ${word} (one of ${PERIOD_WORDS})`;
}

function validDay(day: string): boolean {
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === day;
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export interface StatsRow {
  readonly name: string;
  turns: number;
  requests: number;
  input: number;
  output: number;
  cacheRead: number;
  usd: number;
  unpriced: number;
}

export interface StatsTable {
  readonly period: Period;
  readonly total: StatsRow;
  readonly byDay: StatsRow[];
  readonly byModel: StatsRow[];
  readonly byWorkspace: StatsRow[];
}

/** The cells in `period` added up: in all, by day (oldest first), by model and by workspace (most tokens first). */
export function statsTable(cells: Iterable<StatsCell>, period: Period): StatsTable {
  const total = row('total');
  const groups = {
    day: new Map<string, StatsRow>(),
    model: new Map<string, StatsRow>(),
    ws: new Map<string, StatsRow>(),
  };
  for (const c of cells) {
    if ((period.from && c.day < period.from) || (period.to && c.day > period.to)) continue;
    add(total, c);
    add(rowIn(groups.day, c.day), c);
    add(rowIn(groups.model, c.model), c);
    add(rowIn(groups.ws, c.workspace), c);
  }
  const bySize = (a: StatsRow, b: StatsRow): number =>
    b.input + b.output - (a.input + a.output) || b.turns - a.turns || a.name.localeCompare(b.name);
  return {
    period,
    total,
    byDay: [...groups.day.values()].sort((a, b) => a.name.localeCompare(b.name)),
    byModel: [...groups.model.values()].sort(bySize),
    byWorkspace: [...groups.ws.values()].sort(bySize),
  };
}

function row(name: string): StatsRow {
  return { name, turns: 0, requests: 0, input: 0, output: 0, cacheRead: 0, usd: 0, unpriced: 0 };
}

function rowIn(map: Map<string, StatsRow>, name: string): StatsRow {
  let r = map.get(name);
  if (!r) map.set(name, (r = row(name)));
  return r;
}

function add(r: StatsRow, c: StatsCell): void {
  r.turns += c.turns;
  r.requests += c.requests;
  r.input += c.input;
  r.output += c.output;
  r.cacheRead += c.cacheRead;
  r.usd += c.usd;
  r.unpriced += c.unpriced;
}

const n = (x: number): string => x.toLocaleString('en-US');

/** The table as lines a person reads: the total, then a section each (`home` shortens workspaces to `~/`). */
export function statsLines(t: StatsTable, home: string): string[] {
  if (t.total.turns === 0 && t.total.requests === 0) return [`usage ${t.period.label}: nothing recorded`];
  const head = `usage ${t.period.label}: ${rowText(t.total)}`;
  const section = (title: string, rows: StatsRow[], show: (name: string) => string): string[] => {
    const names = rows.map((r) => show(r.name));
    const width = Math.min(
      48,
      names.reduce((w, s) => Math.max(w, s.length), 0),
    );
    return ['', title, ...rows.map((r, i) => `  ${names[i].padEnd(width)}  ${rowText(r)}`)];
  };
  const tilde = (ws: string): string =>
    home && (ws === home || ws.startsWith(home + '/')) ? '~' + ws.slice(home.length) : ws;
  return [
    head,
    ...section('by day', t.byDay, (d) => d),
    ...section('by model', t.byModel, (m) => m),
    ...section('by workspace', t.byWorkspace, tilde),
  ];
}

function rowText(r: StatsRow): string {
  const turns = `${n(r.turns)} turn${r.turns === 1 ? '' : 's'}`;
  const cached = r.cacheRead ? ` (${n(r.cacheRead)} cached)` : '';
  const priced = r.requests - r.unpriced;
  const usd =
    priced === 0 ? '' : r.unpriced ? ` · ${money(r.usd)} (${r.unpriced} requests unpriced)` : ` · ${money(r.usd)}`;
  return `${turns} · ${n(r.input)} tokens in${cached}, ${n(r.output)} out${usd}`;
}

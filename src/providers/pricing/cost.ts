// What requests cost: tokens as the servers counted them and, where a price
// is known, money. A tally per turn, per conversation and per session; a
// price from config.json (`models.<name>.price`) worked out here, one from
// the price table by price-table.ts. Pure.

/** US dollars per million tokens, as config.json's `models.<name>.price` gives them. */
export interface Price {
  readonly input: number;
  readonly output: number;
  /** Cached input tokens read back; the input price when not given. */
  readonly cacheRead?: number;
  /** Input tokens written to the cache; the input price when not given. */
  readonly cacheWrite?: number;
}

/** What one request cost: its tokens (input counts the cached ones too). */
export interface Spend {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

/** A request's tokens and the model it asked, as a conversation's log keeps them. */
export interface ModelSpend extends Spend {
  readonly model?: string;
}

export interface Tally {
  input: number;
  output: number;
  cacheRead: number;
  requests: number;
  /** Dollars of the requests whose price was known, and how many they were. */
  usd: number;
  priced: number;
  /** Requests no price was known for (their tokens are counted, their money is not). */
  unpriced: number;
}

export function emptyTally(): Tally {
  return { input: 0, output: 0, cacheRead: 0, requests: 0, usd: 0, priced: 0, unpriced: 0 };
}

/** Counts a request's tokens (its price may come later: tallyMoney). */
export function tallyTokens(t: Tally, s: Spend): void {
  t.input += s.input;
  t.output += s.output;
  t.cacheRead += s.cacheRead ?? 0;
  t.requests++;
}

/** Counts a request's price in dollars; null: none is known. */
export function tallyMoney(t: Tally, usd: number | null): void {
  if (usd === null) t.unpriced++;
  else {
    t.usd += usd;
    t.priced++;
  }
}

/** A request's price by a config price: uncached input, cache reads and writes, and output, each at its rate. */
export function priceOf(s: Spend, p: Price): number {
  const read = s.cacheRead ?? 0;
  const write = s.cacheWrite ?? 0;
  const fresh = Math.max(0, s.input - read - write);
  const m = 1_000_000;
  return (
    (fresh * p.input + read * (p.cacheRead ?? p.input) + write * (p.cacheWrite ?? p.input) + s.output * p.output) / m
  );
}

/**
 * `$12.34` and `$0.42` to the cent from a cent up; `$0.0023` (two significant digits) below; `<$0.0001` below that,
 * so a small cost never reads `$0.0000`.
 */
export function money(usd: number): string {
  if (usd === 0) return '$0';
  if (usd >= 0.01) return `$${usd.toFixed(2)}`;
  if (usd < 0.0001) return '<$0.0001';
  return `$${Number(usd.toPrecision(2))}`;
}

const n = (x: number): string => x.toLocaleString('en-US');

/**
 * `12,345 tokens in (9,000 cached), 678 out · $0.0123`: the money only when every request was priced; a share unpriced
 * is said.
 */
export function tallyText(t: Tally): string {
  const cached = t.cacheRead > 0 ? ` (${n(t.cacheRead)} cached)` : '';
  return `${n(t.input)} tokens in${cached}, ${n(t.output)} out${moneyText(t)}`;
}

/** ` · $0.0123`, ` · $0.01 for 3 of 4 requests (no price for the rest)`, or nothing when no request was priced. */
export function moneyText(t: Tally): string {
  if (t.priced === 0) return '';
  if (t.priced === t.requests) return ` · ${money(t.usd)}`;
  return ` · ${money(t.usd)} for ${t.priced} of ${t.requests} requests (no price for the rest)`;
}

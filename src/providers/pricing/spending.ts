// What this session's requests cost, as the servers counted them: a tally
// for the turn, the conversation (a new or resumed one starts its own) and
// the session. Tokens are counted as each request reports them; its money
// too when config.json prices the model. A price from the table waits until
// the table is loaded — never during a turn (it takes ~50 ms of the main
// thread): `settle()` loads it and prices what waited, when milk is idle or a
// command asks for the cost.

import type { Bus } from '../../kernel/bus';
import { type ModelSpend, type Spend, type Tally, emptyTally, tallyMoney, tallyTokens } from './cost';

/**
 * A request's price in dollars for `model`: a number, null when none is known, or undefined when only the price table
 * can say and it is not loaded (`load` then loads it).
 */
export interface Pricer {
  price(model: string | undefined, spend: Spend): number | null | undefined;
  load(): void;
}

export class Spending {
  readonly session: Tally = emptyTally();
  private conv: Tally = emptyTally();
  private last: Tally = emptyTally();
  /** Requests whose price waits for the table, with the tallies they count in. */
  private waiting: Array<{ model?: string; spend: Spend; tallies: Tally[] }> = [];
  /** The newest request's price in dollars; null when none is known (or not yet). */
  lastUsd: number | null = null;

  constructor(
    bus: Bus,
    private readonly pricer: Pricer,
  ) {
    bus.on('turn.started', () => (this.last = emptyTally()));
    bus.on('session.new', () => (this.conv = emptyTally()));
    // A conversation taken up again comes with what its log says it cost: the session's own tally stays this session's.
    bus.on('session.resumed', ({ spent }) => {
      this.conv = emptyTally();
      this.last = emptyTally();
      spent?.requests.forEach((r, i) => this.count(r, i >= spent.lastTurnFrom ? [this.conv, this.last] : [this.conv]));
    });
    bus.on('turn.usage', (u) => (this.lastUsd = this.count(u, [this.session, this.conv, this.last])));
  }

  /** Counts a request in `tallies`: its tokens now, its money now or once the table is loaded; its price, or null. */
  private count(u: ModelSpend, tallies: Tally[]): number | null {
    for (const t of tallies) tallyTokens(t, u);
    const usd = this.pricer.price(u.model, u);
    if (usd === undefined) this.waiting.push({ model: u.model, spend: u, tallies });
    else for (const t of tallies) tallyMoney(t, usd);
    return usd ?? null;
  }

  /** Whether some requests' price waits for the table. */
  get unsettled(): boolean {
    return this.waiting.length > 0;
  }

  /** Loads the table if a price waits for it, and prices what waited. */
  settle(): void {
    if (this.waiting.length === 0) return;
    this.pricer.load();
    for (const w of this.waiting.splice(0)) {
      const usd = this.pricer.price(w.model, w.spend) ?? null;
      for (const t of w.tallies) tallyMoney(t, usd);
    }
  }

  /** This conversation's requests in this session (a resumed one's earlier requests are not counted again). */
  get conversation(): Tally {
    return this.conv;
  }

  /** The last turn's requests (the one running, while one runs). */
  get turn(): Tally {
    return this.last;
  }
}

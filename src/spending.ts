// What this session's requests cost, as the servers counted them: a tally
// for the turn, the conversation (a new or resumed one starts its own) and
// the session, each request priced when it is counted (config.json's price
// for the model, else the price table's, else none: tokens only).

import type { Bus } from './bus';
import { type Spend, type Tally, emptyTally, tallyAdd } from './cost';

/** A request's price in dollars for `model`; null when none is known. */
export type Pricer = (model: string | undefined, spend: Spend) => number | null;

export class Spending {
  readonly session: Tally = emptyTally();
  private conv: Tally = emptyTally();
  private last: Tally = emptyTally();
  /** The newest request's price in dollars; null when none is known. */
  lastUsd: number | null = null;

  constructor(bus: Bus, price: Pricer) {
    bus.on('turn.started', () => (this.last = emptyTally()));
    bus.on('session.new', () => (this.conv = emptyTally()));
    bus.on('session.resumed', () => (this.conv = emptyTally()));
    bus.on('turn.usage', (u) => {
      const usd = (this.lastUsd = price(u.model, u));
      for (const t of [this.session, this.conv, this.last]) tallyAdd(t, u, usd);
    });
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

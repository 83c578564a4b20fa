// What a conversation cost: counted request by request from the bus, and, for a conversation taken up again (-c,
// /resume), from what its log says its requests cost — the session's own tally stays this session's.
import { Bus } from '../../src/kernel/bus';
import { sanitize } from '../../src/protocol/inert';
import { Spending, type Pricer } from '../../src/providers/pricing/spending';

/** $1 per thousand tokens in and out for gpt-4o; the table must be loaded first for o3; nothing known for others. */
function pricer(): Pricer & { loaded: boolean } {
  const p = {
    loaded: false,
    price(model: string | undefined, s: { input: number; output: number }) {
      const usd = (s.input + s.output) / 1000;
      if (model === 'gpt-4o') return usd;
      if (model === 'o3') return p.loaded ? usd : undefined;
      return null;
    },
    load() {
      p.loaded = true;
    },
  };
  return p;
}

describe('spending', () => {
  it('counts a resumed conversation from its log, its last turn as the turn, and not in the session', () => {
    const bus = new Bus();
    const spending = new Spending(bus, pricer());
    bus.emit('turn.started', { turnId: 1, input: 'x', display: sanitize('') });
    bus.emit('turn.usage', { turnId: 1, input: 1000, output: 0, model: 'gpt-4o' });
    const requests = [
      { input: 2000, output: 1000, model: 'gpt-4o' },
      { input: 500, output: 500 },
      { input: 1000, output: 0, model: 'o3' },
    ];
    bus.emit('session.resumed', { items: [], at: null, spent: { requests, lastTurnFrom: 1 } });
    expect(spending.conversation).toMatchObject({ input: 3500, output: 1500, requests: 3, usd: 3, priced: 1 });
    expect(spending.turn).toMatchObject({ input: 1500, output: 500, requests: 2 });
    expect(spending.session).toMatchObject({ input: 1000, requests: 1, usd: 1 });
    // o3's price waited for the table.
    expect(spending.unsettled).toBe(true);
    spending.settle();
    expect(spending.conversation).toMatchObject({ usd: 4, priced: 2, unpriced: 1 });
    expect(spending.turn).toMatchObject({ usd: 1, priced: 1, unpriced: 1 });
    // The next turn counts on from there.
    bus.emit('turn.started', { turnId: 2, input: 'y', display: sanitize('') });
    bus.emit('turn.usage', { turnId: 2, input: 100, output: 100, model: 'gpt-4o' });
    expect(spending.conversation).toMatchObject({ input: 3600, output: 1600, requests: 4 });
    expect(spending.turn).toMatchObject({ input: 100, output: 100, requests: 1 });
  });

  it('starts a conversation resumed from an older log, which kept no costs, from nothing', () => {
    const bus = new Bus();
    const spending = new Spending(bus, pricer());
    bus.emit('turn.usage', { turnId: 1, input: 1000, output: 0, model: 'gpt-4o' });
    bus.emit('session.resumed', { items: [], at: null });
    expect(spending.conversation.requests).toBe(0);
    expect(spending.session.requests).toBe(1);
  });
});

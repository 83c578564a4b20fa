import { Bus, Events } from '../../src/kernel/bus';
import { TurnRunner } from '../../src/turn/runner';
import { Provider, sleep } from '../../src/providers/provider';
import { ChatMessage } from '../../src/protocol/messages';
import { OfflineProvider } from '../../src/providers/offline';
import { sanitize } from '../../src/protocol/inert';

/** A provider that yields scripted deltas, and can ignore the abort signal like a stuck server. */
class ScriptedProvider implements Provider {
  readonly name = 'test';
  seen: ChatMessage[][] = [];
  constructor(
    private readonly deltas: string[],
    private readonly delayMs = 5,
    private readonly ignoreAbort = false,
  ) {}
  async *stream(messages: readonly ChatMessage[], signal: AbortSignal): AsyncIterable<string> {
    this.seen.push([...messages]);
    const never = new AbortController().signal;
    for (const d of this.deltas) {
      await sleep(this.delayMs, this.ignoreAbort ? never : signal);
      yield d;
    }
  }
}

function record(bus: Bus) {
  const events: Array<[keyof Events, unknown]> = [];
  for (const name of ['turn.started', 'turn.delta', 'turn.ended'] as const) bus.on(name, (p) => events.push([name, p]));
  return events;
}

function ended(bus: Bus): Promise<Events['turn.ended']> {
  return new Promise((resolve) => {
    const off = bus.on('turn.ended', (e) => {
      off();
      resolve(e);
    });
  });
}

describe('turn runner', () => {
  it('streams deltas with the turn id and ends done', async () => {
    const bus = new Bus();
    const events = record(bus);
    const runner = new TurnRunner(bus, new ScriptedProvider(['a', 'b']));
    const done = ended(bus);
    const id = runner.start('hi');
    expect(runner.busy).toBe(true);
    expect(await done).toEqual({ turnId: id, status: 'done', message: undefined });
    expect(events.map(([n]) => n)).toEqual(['turn.started', 'turn.delta', 'turn.delta', 'turn.ended']);
    expect(runner.busy).toBe(false);
  });

  it('cancels at once, reports interrupted once, and drops late deltas', async () => {
    const bus = new Bus();
    const events = record(bus);
    // This provider ignores the abort signal, as a stream stuck in a read would.
    const runner = new TurnRunner(bus, new ScriptedProvider(['a', 'b', 'c', 'd'], 10, true));
    const id = runner.start('hi');
    await new Promise((r) => setTimeout(r, 15));
    expect(runner.cancel()).toBe(true);
    expect(runner.busy).toBe(false);
    expect(runner.cancel()).toBe(false);
    await new Promise((r) => setTimeout(r, 60));
    const ends = events.filter(([n]) => n === 'turn.ended');
    expect(ends).toEqual([['turn.ended', { turnId: id, status: 'interrupted', message: undefined }]]);
    const afterEnd = events.slice(events.findIndex(([n]) => n === 'turn.ended') + 1);
    expect(afterEnd).toEqual([]);
  });

  it('aborts the provider stream on cancel', async () => {
    const bus = new Bus();
    let aborted = false;
    const provider: Provider = {
      name: 'watch',
      async *stream(_m, signal) {
        signal.addEventListener('abort', () => (aborted = true));
        await sleep(1000, signal);
        yield 'never';
      },
    };
    const runner = new TurnRunner(bus, provider);
    runner.start('x');
    runner.cancel();
    expect(aborted).toBe(true);
  });

  it('reports a provider failure as an error end, and the next turn works', async () => {
    const bus = new Bus();
    const failing: Provider = {
      name: 'fail',
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new Error('connection refused');
      },
    };
    const runner = new TurnRunner(bus, failing);
    const e = ended(bus);
    runner.start('x');
    expect((await e).status).toBe('error');
    expect((await e).message).toBe('connection refused');
    expect(runner.busy).toBe(false);
  });

  it('sends the conversation so far as context', async () => {
    const bus = new Bus();
    const provider = new ScriptedProvider(['ok'], 1);
    const runner = new TurnRunner(bus, provider);
    let e = ended(bus);
    runner.start('one');
    await e;
    e = ended(bus);
    runner.start('two');
    await e;
    expect(provider.seen[1]).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'two' },
    ]);
  });

  it('leaves the oldest whole turns out of a request past the context budget, and says so once', async () => {
    const bus = new Bus();
    const notes: string[] = [];
    bus.on('transcript.note', ({ text }) => notes.push(text));
    const provider = new ScriptedProvider(['x'.repeat(300)], 0);
    const runner = new TurnRunner(bus, provider, { maxContextChars: 500 });
    for (const input of ['one', 'two', 'three', 'four']) {
      const e = ended(bus);
      runner.start(input);
      await e;
    }
    const last = provider.seen[provider.seen.length - 1];
    expect(last.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['three', 'four']);
    expect(notes).toEqual([
      '1 earlier turn left out of what the model gets (context budget); the log keeps them all',
      '2 earlier turns left out of what the model gets (context budget); the log keeps them all',
    ]);
  });

  it('takes a resumed conversation as its context', async () => {
    const bus = new Bus();
    const provider = new ScriptedProvider(['ok'], 0);
    const runner = new TurnRunner(bus, provider);
    runner.load([
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'answer' },
    ]);
    const e = ended(bus);
    runner.start('now');
    await e;
    expect(provider.seen[0].map((m) => m.content)).toEqual(['earlier', 'answer', 'now']);
  });

  it('sanitizes what the model sends', async () => {
    const bus = new Bus();
    const text: string[] = [];
    bus.on('turn.delta', (d) => text.push(d.text));
    const runner = new TurnRunner(bus, new ScriptedProvider(['a\x1b]0;t', 'itle\x07b\x1b[2J'], 1));
    const e = ended(bus);
    runner.start('x');
    await e;
    expect(text.join('')).toBe('ab');
  });
});

describe('offline provider', () => {
  it('streams a reply word by word that quotes the input', async () => {
    const words: string[] = [];
    for await (const w of new OfflineProvider({ wordDelayMs: 0 }).stream(
      [{ role: 'user', content: 'hello there' }],
      new AbortController().signal,
    )) {
      words.push(w);
    }
    expect(words.length).toBeGreaterThan(10);
    expect(words.join('')).toContain('"hello there"');
  });
  it('stops as soon as it is aborted', async () => {
    const ac = new AbortController();
    const stream = new OfflineProvider({ wordDelayMs: 1000 }).stream([{ role: 'user', content: 'x' }], ac.signal);
    const it = stream[Symbol.asyncIterator]();
    const next = it.next();
    ac.abort();
    await expect(next).rejects.toThrow('aborted');
  });

  describe('steering', () => {
    it('a message sent into the turn joins the conversation before its next request; an ending turn makes one more', async () => {
      const bus = new Bus();
      const provider = new ScriptedProvider(['a', 'b'], 10);
      const runner = new TurnRunner(bus, provider);
      const steered: Array<Events['turn.steered']> = [];
      bus.on('turn.steered', (e) => steered.push(e));
      const done = ended(bus);
      const turnId = runner.start('hi');
      const id = runner.steer('also this', sanitize('also this'));
      expect(id).not.toBeNull();
      expect((await done).status).toBe('done');
      expect(provider.seen).toHaveLength(2);
      expect(provider.seen[1].slice(-2)).toEqual([
        { role: 'assistant', content: 'ab' },
        { role: 'user', content: 'also this' },
      ]);
      expect(steered).toEqual([{ turnId, steerId: id, text: 'also this', display: 'also this' }]);
    });

    it("none is taken with no turn running, nor by a turn that is not the model's", async () => {
      const bus = new Bus();
      const runner = new TurnRunner(bus, new ScriptedProvider(['a'], 10));
      expect(runner.steer('x', sanitize('x'))).toBeNull();
      runner.start('hi');
      await ended(bus);
      const compacting = ended(bus);
      expect(runner.compact()).not.toBeNull();
      expect(runner.steer('x', sanitize('x'))).toBeNull();
      await compacting;
    });

    it('one not delivered when the turn is cancelled never reaches the model', async () => {
      const bus = new Bus();
      const provider = new ScriptedProvider(['a', 'b', 'c'], 20);
      const runner = new TurnRunner(bus, provider);
      const steered: unknown[] = [];
      bus.on('turn.steered', (e) => steered.push(e));
      const done = ended(bus);
      runner.start('hi');
      runner.steer('later', sanitize('later'));
      runner.cancel();
      expect((await done).status).toBe('interrupted');
      await new Promise((r) => setTimeout(r, 80));
      expect(steered).toEqual([]);
      expect(provider.seen).toHaveLength(1);
    });
  });
});

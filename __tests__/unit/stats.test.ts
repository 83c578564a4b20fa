import { STATS_TYPES, StatsSummarizer, parsePeriod, statsLines, statsTable } from '../../src/session/stats';

const reading = {
  dayOf: (ts: string) => ts.slice(0, 10),
  price: (place: { model: string }, s: { input: number; output: number }) =>
    place.model === 'priced' ? (s.input + s.output) / 1000 : null,
};

function summarize(lines: object[]) {
  const s = new StatsSummarizer(reading);
  for (const line of lines) {
    const text = JSON.stringify(line);
    const type = (line as { t: (typeof STATS_TYPES)[number] }).t;
    if (STATS_TYPES.includes(type)) s.take(type, text);
  }
  return s.done();
}

describe('usage over time', () => {
  it("counts a conversation's turns and requests under the model asked, moving with /model", () => {
    const cells = summarize([
      { t: 'start', conv: 'c', ts: '2026-01-01T10:00:00Z', provider: 'openai', model: 'priced', workspace: '/w' },
      { t: 'user', conv: 'c', ts: '2026-01-01T10:00:01Z', segments: [] },
      { t: 'usage', conv: 'c', ts: '2026-01-01T10:00:02Z', input: 1000, output: 1000, cacheRead: 500 },
      { t: 'model', conv: 'c', ts: '2026-01-02T10:00:00Z', provider: 'openai', model: 'free' },
      { t: 'user', conv: 'c', ts: '2026-01-02T10:00:01Z', segments: [] },
      { t: 'usage', conv: 'c', ts: '2026-01-02T10:00:02Z', model: 'free', input: 10, output: -1 },
      { t: 'usage', conv: 'c', ts: '2026-01-02T10:00:03Z', model: 'free', input: 10, output: 5 },
      { t: 'usage', conv: 'nobody', ts: '2026-01-02T10:00:03Z', input: 1, output: 1 },
    ]);
    expect(cells).toEqual([
      expect.objectContaining({ day: '2026-01-01', model: 'openai priced', workspace: '/w', turns: 1, usd: 2 }),
      expect.objectContaining({ day: '2026-01-02', model: 'openai free', turns: 1, requests: 1, unpriced: 1 }),
      expect.objectContaining({ model: 'unknown unknown', workspace: '(unknown)', requests: 1 }),
    ]);
    const t = statsTable(cells, { from: '2026-01-02', to: null, label: 'since 2026-01-02' });
    expect(t.total).toMatchObject({ turns: 1, requests: 2, input: 11 });
    const lines = statsLines(t, '/home/me');
    expect(lines[0]).toBe('usage since 2026-01-02: 1 turn · 11 tokens in, 6 out');
  });

  it.each([
    ['today', { from: '2026-03-01', to: '2026-03-01' }],
    ['week', { from: '2026-02-23', to: '2026-03-01' }],
    [undefined, { from: '2026-01-31', to: '2026-03-01' }],
    ['2d', { from: '2026-02-28', to: '2026-03-01' }],
    ['all', { from: null, to: null }],
    ['2026-02-01', { from: '2026-02-01', to: '2026-03-01' }],
    ['2026-02-01..', { from: '2026-02-01', to: null }],
    ['2026-02-01..2026-02-10', { from: '2026-02-01', to: '2026-02-10' }],
  ])('reads the period %s', (word, want) => {
    expect(parsePeriod(word, '2026-03-01')).toMatchObject(want);
  });

  it.each(['fortnight', '0d', '2026-02-30', '2026-02-10..2026-02-01', '-1d'])('refuses the period %s', (word) => {
    expect(typeof parsePeriod(word, '2026-03-01')).toBe('string');
  });
});

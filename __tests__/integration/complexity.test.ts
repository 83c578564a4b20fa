// Work that grows with the data stays linear. Each case runs at a size where
// the linear code takes tens of milliseconds and a quadratic slip would take
// minutes, so the bounds are generous and cannot flake; the figures
// themselves are the bench's (npm run bench).
import { InputDecoder } from '../../src/tui/input';
import { fit } from '../../src/tui/views';
import { HistoryEntry, mergeEntries } from '../../src/history/rules';
import { parseHistory, serializeHistory, historyHeader } from '../../src/history/format';

function elapsed(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

describe('linear work on large inputs', () => {
  it('decodes a megabyte of typed text well within a second', () => {
    expect(elapsed(() => new InputDecoder().feed('x'.repeat(1_000_000)))).toBeLessThan(1000);
  });
  it('fits a megabyte line into the status bar well within a second', () => {
    expect(elapsed(() => fit('x'.repeat(1_000_000), 40))).toBeLessThan(1000);
  });
  it('merges 100,000 pending entries well within a second', () => {
    const entries: HistoryEntry[] = Array.from({ length: 100_000 }, (_, i) => ({ ts: 't', segments: [{ type: 'text', text: `e${i % 50_000}` }] }));
    let out: HistoryEntry[] = [];
    expect(elapsed(() => (out = mergeEntries(entries.slice(0, 1000), entries, 200_000)))).toBeLessThan(1000);
    expect(out).toHaveLength(101_000);
  });
  it('parses and serializes 100,000 history lines well within a few seconds', () => {
    const entries: HistoryEntry[] = Array.from({ length: 100_000 }, (_, i) => ({ ts: 't', segments: [{ type: 'text', text: `entry ${i}` }] }));
    const header = historyHeader('global', { sessionId: 's', workspace: null, displayName: 'g' });
    let text = '';
    expect(elapsed(() => (text = serializeHistory(header, entries)))).toBeLessThan(3000);
    expect(elapsed(() => parseHistory(Buffer.from(text)))).toBeLessThan(3000);
  });
});

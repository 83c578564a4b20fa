// Work that grows with the data stays linear. Each case runs at a size where
// the linear code takes tens of milliseconds and a quadratic slip would take
// minutes, so the bounds are generous and cannot flake; the figures
// themselves are the bench's (npm run bench).
import { InputDecoder } from '../../src/tui/input';
import { fit } from '../../src/tui/views';

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
});

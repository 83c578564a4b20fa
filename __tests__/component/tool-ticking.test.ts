// A running tool's block counts its seconds; once the call ends (done, a parallel call started after it, the turn
// ended or interrupted), its once-a-second timer is gone at once, not at its next tick: the soak (npm run bench)
// found a dozen left behind after every burst of quick calls.
import { sanitize as t } from '../../src/protocol/inert';
import { Bus } from '../../src/kernel/bus';
import { TranscriptModel } from '../../src/tui/transcript-model';
import { TranscriptFeed } from '../../src/tui/transcript-feed';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap';

function feed() {
  const bus = new Bus();
  const model = new TranscriptModel(60);
  new TranscriptFeed(bus, model, DEFAULT_KEYMAP);
  const texts = () =>
    model
      .visible(100)
      .filter((r) => r.kind !== 'gap')
      .map((r) => r.text.trim());
  const start = (detail: string) =>
    bus.emit('tool.started', { turnId: 1, summary: t(detail), detail: t(detail), declined: false, command: true });
  bus.emit('turn.started', { turnId: 1, input: 'q', display: t('q') });
  return { bus, texts, start };
}

describe("a tool block's second count", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('counts while the call runs and stops with it', () => {
    const f = feed();
    f.start('shell: sleep 5');
    jest.advanceTimersByTime(2000);
    expect(f.texts().join('\n')).toContain('running 2 s');
    f.bus.emit('tool.finished', { turnId: 1, ok: true });
    expect(jest.getTimerCount()).toBe(0);
    expect(f.texts().join('\n')).toMatch(/done · \d+\.\d s/);
  });

  it('stops counting a call when the next one starts, and when the turn ends', () => {
    const f = feed();
    f.start('read_file a');
    f.start('read_file b');
    expect(jest.getTimerCount()).toBe(1);
    f.bus.emit('turn.ended', { turnId: 1, status: 'interrupted' });
    expect(jest.getTimerCount()).toBe(0);
    expect(f.texts().join('\n')).toMatch(/interrupted · \d+\.\d s/);
  });

  it('leaves no timer after a hundred quick calls', () => {
    const f = feed();
    for (let i = 0; i < 100; i++) {
      f.start(`glob ${i}`);
      f.bus.emit('tool.finished', { turnId: 1, ok: true });
    }
    expect(jest.getTimerCount()).toBe(0);
  });
});

// One paint per frame; streamed text waits for a slower frame, a key does not.
import { RenderScheduler } from '../../src/tui/scheduler';

describe('render scheduler', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('paints the first request at once and coalesces the rest into one paint per frame', () => {
    const paint = jest.fn();
    const s = new RenderScheduler(paint, 16, 33);
    s.request();
    jest.advanceTimersByTime(0);
    expect(paint).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) s.request();
    jest.advanceTimersByTime(15);
    expect(paint).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    expect(paint).toHaveBeenCalledTimes(2);
  });
  it('never asks for a negative delay when the clock ticks between reading it twice (Node 24 warns on stderr)', () => {
    const s = new RenderScheduler(jest.fn(), 16, 33);
    const delays: number[] = [];
    const real = global.setTimeout;
    const spy = jest.spyOn(global, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return real(fn, ms);
    }) as typeof setTimeout);
    let t = 1_000_000;
    const now = jest.spyOn(Date, 'now').mockImplementation(() => (t += 3));
    try {
      s.request();
    } finally {
      now.mockRestore();
      spy.mockRestore();
    }
    expect(delays.length).toBe(1);
    expect(delays[0]).toBeGreaterThanOrEqual(0);
  });
  it('streamed text paints on the slower frame; a key in between brings the paint forward', () => {
    const paint = jest.fn();
    const s = new RenderScheduler(paint, 16, 33);
    s.request(true);
    jest.advanceTimersByTime(0);
    expect(paint).toHaveBeenCalledTimes(1);
    s.request(true);
    jest.advanceTimersByTime(20);
    expect(paint).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(13);
    expect(paint).toHaveBeenCalledTimes(2);
    s.request(true);
    jest.advanceTimersByTime(5);
    s.request();
    jest.advanceTimersByTime(11);
    expect(paint).toHaveBeenCalledTimes(3);
    // Nothing left over: the slow request was served by the key's paint.
    jest.advanceTimersByTime(100);
    expect(paint).toHaveBeenCalledTimes(3);
  });
});

import { HEAP_EXIT, HEAP_STOP_TURN, heapAction, installMemoryGuard, oldSpaceLimit } from '../../src/app/memory-guard';

const MiB = 1024 * 1024;
const at = (share: number) => ({ used: Math.round(share * 1000 * MiB), limit: 1000 * MiB });

describe('what the heap guard does at a reading', () => {
  it('nothing well below the limit; stops a turn once near it; leaves at the edge', () => {
    expect(heapAction(at(0.5), false)).toBe('none');
    expect(heapAction(at(HEAP_STOP_TURN), false)).toBe('stop-turn');
    expect(heapAction(at(HEAP_STOP_TURN + 0.01), true)).toBe('none');
    expect(heapAction(at(HEAP_EXIT), true)).toBe('exit');
    expect(heapAction(at(HEAP_EXIT), false)).toBe('exit');
  });
});

describe("the old generation's limit", () => {
  it('is --max-old-space-size when given (in execArgv or NODE_OPTIONS), else most of the heap limit', () => {
    expect(oldSpaceLimit(470 * MiB, '--max-old-space-size=256')).toBe(256 * MiB);
    expect(oldSpaceLimit(470 * MiB, '--enable-source-maps --max-old-space-size 512')).toBe(512 * MiB);
    expect(oldSpaceLimit(1000 * MiB, '')).toBe(850 * MiB);
  });
});

describe('the heap guard over time', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('stops one turn per rise, says how full, and leaves once with a message', () => {
    let share = 0.3;
    const stops: string[] = [];
    const exits: string[] = [];
    const stop = installMemoryGuard({
      stats: () => at(share),
      stopTurn: (m) => stops.push(m),
      exit: (m) => exits.push(m),
      everyMs: 100,
    });
    jest.advanceTimersByTime(500);
    expect(stops).toEqual([]);
    share = 0.85;
    jest.advanceTimersByTime(500);
    expect(stops).toEqual(['memory nearly full (850 MiB of 1000 MiB): the turn was stopped']);
    // Down again, then up: the next rise stops the next turn.
    share = 0.3;
    jest.advanceTimersByTime(100);
    share = 0.86;
    jest.advanceTimersByTime(100);
    expect(stops).toHaveLength(2);
    share = 0.95;
    jest.advanceTimersByTime(1000);
    expect(exits).toEqual(['milk: out of memory (950 MiB of 1000 MiB); history saved, terminal restored']);
    stop();
  });

  it('checks on the way in, after each megabyte streamed, however busy the loop is', () => {
    let listener: (chars: number) => void = () => undefined;
    const stops: string[] = [];
    installMemoryGuard({
      stats: () => at(0.85),
      stopTurn: (m) => stops.push(m),
      exit: () => undefined,
      everyMs: 1e9,
      onGrowth: (l) => (listener = l),
    })();
    listener(512 * 1024);
    expect(stops).toEqual([]);
    listener(512 * 1024);
    expect(stops).toHaveLength(1);
  });
});

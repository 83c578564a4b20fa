// What the first answer needs loads once typing starts, a step at a time, once.
import { warmWhenTyping } from '../../src/tui/warm-up';

describe('warming up while the person types', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('does nothing before the first key, then runs each step after its own pause, and only once', () => {
    const ran: string[] = [];
    const { typed } = warmWhenTyping([() => ran.push('markdown'), () => ran.push('http client')]);
    jest.advanceTimersByTime(1000);
    expect(ran).toEqual([]);
    typed();
    // The key's own frame comes first.
    expect(ran).toEqual([]);
    jest.advanceTimersByTime(40);
    expect(ran).toEqual(['markdown']);
    typed();
    jest.advanceTimersByTime(40);
    expect(ran).toEqual(['markdown', 'http client']);
    typed();
    jest.advanceTimersByTime(1000);
    expect(ran).toEqual(['markdown', 'http client']);
  });
  it('runs no step once stopped (milk exiting)', () => {
    const ran: string[] = [];
    const warm = warmWhenTyping([() => ran.push('a'), () => ran.push('b')]);
    warm.typed();
    jest.advanceTimersByTime(40);
    warm.stop();
    jest.advanceTimersByTime(1000);
    expect(ran).toEqual(['a']);
  });
});

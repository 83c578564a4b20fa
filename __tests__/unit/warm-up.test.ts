// What the first answer needs loads once typing starts, a step at a time, once.
import { Bus } from '../../src/bus';
import { warmWhenTyping } from '../../src/tui/warm-up';

describe('warming up while the person types', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('does nothing before the first key, then runs each step after its own pause, and only once', () => {
    const bus = new Bus();
    const ran: string[] = [];
    warmWhenTyping(bus, [() => ran.push('markdown'), () => ran.push('http client')]);
    jest.advanceTimersByTime(1000);
    expect(ran).toEqual([]);
    bus.emit('input.text', { text: 'h' });
    // The key's own frame comes first.
    expect(ran).toEqual([]);
    jest.advanceTimersByTime(40);
    expect(ran).toEqual(['markdown']);
    bus.emit('input.text', { text: 'i' });
    jest.advanceTimersByTime(40);
    expect(ran).toEqual(['markdown', 'http client']);
    bus.emit('input.text', { text: '!' });
    jest.advanceTimersByTime(1000);
    expect(ran).toEqual(['markdown', 'http client']);
  });
});

import { BURST_GAP_MS, InterruptBurst, interruptAction } from '../../src/agent/ladder';

describe('the Ctrl-C ladder', () => {
  it.each([
    [{ busy: true, composerEmpty: false, force: true, inCancelBurst: false }, 'cancel'],
    [{ busy: true, composerEmpty: true, force: false, inCancelBurst: true }, 'cancel'],
    [{ busy: false, composerEmpty: false, force: true, inCancelBurst: false }, 'clear'],
    [{ busy: false, composerEmpty: true, force: true, inCancelBurst: false }, 'forceOff'],
    [{ busy: false, composerEmpty: true, force: false, inCancelBurst: false }, 'quit'],
    [{ busy: false, composerEmpty: true, force: false, inCancelBurst: true }, 'ignore'],
    [{ busy: false, composerEmpty: false, force: false, inCancelBurst: true }, 'ignore'],
  ])('%j → %s', (ctx, action) => {
    expect(interruptAction(ctx)).toBe(action);
  });
});

describe('Ctrl-C bursts', () => {
  it('swallows the rest of a held key that cancelled a turn', () => {
    const b = new InterruptBurst();
    expect(b.press(1000)).toBe(false);
    b.markCancelled();
    for (let t = 1030; t < 3000; t += 30) expect(b.press(t)).toBe(true);
  });
  it('ends the burst after a pause', () => {
    const b = new InterruptBurst();
    b.press(0);
    b.markCancelled();
    expect(b.press(BURST_GAP_MS + 10)).toBe(false);
  });
  it('does not swallow quick presses that never cancelled anything', () => {
    const b = new InterruptBurst();
    expect(b.press(0)).toBe(false);
    expect(b.press(20)).toBe(false);
  });
});

import { interruptAction } from '../../src/composer/ladder';

describe('the Ctrl-C ladder', () => {
  it.each([
    [{ busy: true, composerEmpty: false, asking: false, inCancelBurst: false }, 'cancel'],
    [{ busy: true, composerEmpty: true, asking: true, inCancelBurst: true }, 'cancel'],
    [{ busy: false, composerEmpty: false, asking: false, inCancelBurst: false }, 'clear'],
    [{ busy: false, composerEmpty: true, asking: false, inCancelBurst: false }, 'modeAsk'],
    [{ busy: false, composerEmpty: true, asking: true, inCancelBurst: false }, 'quit'],
    [{ busy: false, composerEmpty: true, asking: true, inCancelBurst: true }, 'ignore'],
    [{ busy: false, composerEmpty: false, asking: true, inCancelBurst: true }, 'ignore'],
  ])('%j → %s', (ctx, action) => {
    expect(interruptAction(ctx)).toBe(action);
  });
});

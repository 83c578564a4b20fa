import { interruptAction } from '../../src/composer/ladder';

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

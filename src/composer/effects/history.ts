// The person's input history from the composer: an input recorded (on disk, or queued for it, before its turn
// starts), remembered in the workspace's list, and forgotten everywhere it is kept (the conversation logs too).

import { sanitize } from '../../protocol/inert';
import { forgotten } from '../said';
import type { EffectContext, Handlers } from './context';

export function historyEffects(c: EffectContext): Handlers<'record' | 'remember' | 'forget'> {
  return {
    record: (e) => c.history.record(e.segments),
    remember: (e) => c.history.remember(e.segments),
    forget: (e) => {
      const removed = c.history.forget(e.text);
      c.dispatch({ kind: 'historyChanged' });
      // The conversation logs too, after this key: the hint below says what history did meanwhile.
      c.options.sessions?.purgeInput(e.text);
      c.bus.emit('status.hint', { text: sanitize(forgotten(removed)) });
    },
  };
}

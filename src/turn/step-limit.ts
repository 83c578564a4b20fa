// A tool loop that never ends is cut off, a long task is not: every so many model requests in one turn the person is
// asked whether it goes on; `milk run`, with no one to ask, stops there.

import type { Bus } from '../kernel/bus';
import type { ActiveTurn } from './turn';

/** Model requests in one turn before the person is asked whether it goes on (config `maxSteps`). */
export const DEFAULT_MAX_STEPS = 100;

/** The turn made another maxSteps requests: whether it goes on (asked of the person; no one to ask: it does not). */
export function goOn(bus: Bus, turn: ActiveTurn, steps: number, unattended: boolean): Promise<boolean> {
  if (unattended) return Promise.resolve(false);
  return new Promise((resolve) => {
    const offAnswer = bus.on('turn.limitAnswered', ({ turnId, goOn: more }) => {
      if (turnId !== turn.id) return;
      done(more);
    });
    const onCancel = (): void => done(false);
    const done = (more: boolean): void => {
      offAnswer();
      turn.controller.signal.removeEventListener('abort', onCancel);
      resolve(more && !turn.cancelled);
    };
    turn.controller.signal.addEventListener('abort', onCancel, { once: true });
    bus.emit('turn.limit', { turnId: turn.id, steps });
  });
}

/** Why a turn stopped at its limit. */
export function stoppedAt(steps: number, maxSteps: number, unattended: boolean): string {
  return (
    `stopped after ${steps} model requests in one turn (maxSteps in config.json is ${maxSteps}` +
    `${unattended ? ')' : '; you chose to stop)'}`
  );
}

// What Ctrl-C does, as a table: busy → cancel the turn; idle with text →
// clear it; any approval mode but ask → back to ask; otherwise → quit. A burst of Ctrl-C
// (a held key) that began by cancelling a turn is swallowed, so holding it
// never quits the program; the composer reducer tracks the burst. Pure.

export type InterruptAction = 'cancel' | 'clear' | 'modeAsk' | 'quit' | 'ignore';

export interface InterruptContext {
  busy: boolean;
  composerEmpty: boolean;
  /** The approval mode is ask (the default): no step back to it. */
  asking: boolean;
  /** Inside a burst of presses whose first one cancelled a turn. */
  inCancelBurst: boolean;
}

export function interruptAction(c: InterruptContext): InterruptAction {
  if (c.busy) return 'cancel';
  if (c.inCancelBurst) return 'ignore';
  if (!c.composerEmpty) return 'clear';
  if (!c.asking) return 'modeAsk';
  return 'quit';
}

/** Presses closer together than this belong to one burst (key repeat is ~30 ms). */
export const BURST_GAP_MS = 500;

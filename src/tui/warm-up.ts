// Once the person starts typing, what the first answer needs (the Markdown
// parser, the provider's HTTP client and event-stream parser) is loaded in
// small steps between keys, so Enter does not wait for any of it and
// start-up never pays for it.

import type { Bus } from '../bus';

/** Between steps: past the frame that shows the key. */
const STEP_MS = 40;

export function warmWhenTyping(bus: Bus, steps: ReadonlyArray<() => void>): void {
  const stop = bus.on('input.text', () => {
    stop();
    const left = [...steps];
    const next = (): void => {
      left.shift()?.();
      if (left.length) setTimeout(next, STEP_MS).unref();
    };
    setTimeout(next, STEP_MS).unref();
  });
}

// Calls that run at once, each shown whole in turn: the blocks come out one after another, in the order the calls
// were made.

import type { Show } from './show';

/**
 * Shows for calls that run at once, each block shown whole in turn: a call's events wait until every call before it has
 * finished, then come out in the order they were made.
 */
export function inOrder(show: Show, n: number): Show[] {
  const waiting: Array<Array<() => void>> = Array.from({ length: n }, () => []);
  let head = 0;
  const flush = (): void => {
    while (head < n) {
      const queue = waiting[head];
      while (queue.length) (queue.shift() as () => void)();
      if (!done[head]) return;
      head++;
    }
  };
  const done: boolean[] = Array.from({ length: n }, () => false);
  return waiting.map((_, k): Show => (name, payload) => {
    waiting[k].push(() => show(name, payload));
    const declined = name === 'tool.started' && (payload as { declined: boolean }).declined;
    if (name === 'tool.finished' || declined) done[k] = true;
    flush();
  });
}

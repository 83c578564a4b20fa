// Inputs typed while a turn runs, shown where they will be sent: in the rows
// right above the composer, below the turn's output (the panel pushes the
// transcript up rather than covering it), one line each, until its turn
// starts; "N queued" in the status bar alone said nothing of what. Below the
// model's checklist when both are up. Pure: rows from the queue.

import type { ViewPaint } from '../composer/views/view';
import type { EmojiWidths } from '../editor/width';
import { type GridRow, fit } from '../kernel/rows';
import { own, sanitize } from '../protocol/inert';

/** The most rows the queue takes (the last says how many more when they do not fit). */
export const QUEUED_ROWS = 4;

/** The queue's rows, or null when nothing is queued. */
export function queuedPaint(queue: ReadonlyArray<{ readonly display: string }>): ViewPaint | null {
  if (queue.length === 0) return null;
  return {
    area: 'overlay',
    wanted: Math.min(QUEUED_ROWS, queue.length),
    pushes: true,
    rows: (at) => queuedRows(queue, at.width, Math.min(at.height, QUEUED_ROWS), at.emoji),
  };
}

/** A line per input (its first line; `…` where there is more), `height` rows at most. */
export function queuedRows(
  queue: ReadonlyArray<{ readonly display: string }>,
  width: number,
  height: number,
  emoji: EmojiWidths,
): GridRow[] {
  if (height <= 0) return [];
  const shown = queue.length > height ? height - 1 : queue.length;
  const rows: GridRow[] = queue.slice(0, shown).map((q) => {
    const [first, ...rest] = q.display.split('\n');
    const text = sanitize(`↳ queued: ${first}${rest.length ? ' …' : ''}`);
    return [{ text: fit(text, width, emoji), style: 'dim' }];
  });
  if (shown < queue.length)
    rows.push([{ text: fit(own`  … ${queue.length - shown} more queued`, width, emoji), style: 'dim' }]);
  return rows;
}

/** Two panels in the rows above the composer, `lower` nearest it: it keeps its rows, `upper` gets what is left. */
export function stacked(upper: ViewPaint | null, lower: ViewPaint | null): ViewPaint | null {
  if (!upper || !lower) return upper ?? lower;
  return {
    area: 'overlay',
    wanted: upper.wanted + lower.wanted,
    pushes: true,
    rows: (at) => {
      const low = Math.min(lower.wanted, at.height);
      const high = at.height - low;
      const top = high > 0 ? upper.rows({ ...at, height: high }).slice(-high) : [];
      return [...top, ...lower.rows({ ...at, height: low }).slice(0, low)];
    },
  };
}

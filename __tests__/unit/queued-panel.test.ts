// The queue's rows above the composer: a line per input where it will be sent, cut to the width, the count of those
// that do not fit; and under the model's checklist when both are up, the queue keeping its rows.
import { CLUSTERING } from '../../src/editor/width';
import { queuedPaint, queuedRows, stacked } from '../../src/tui/queued-panel';
import type { PaintContext, ViewPaint } from '../../src/composer/views/view';
import { sanitize } from '../../src/protocol/inert';

const text = (rows: ReturnType<typeof queuedRows>) => rows.map((r) => r.map((s) => s.text).join(''));
const at = (height: number, width = 40) => ({ width, height, emoji: CLUSTERING }) as PaintContext;

describe('the queued panel', () => {
  it('shows nothing when nothing is queued, else a line per input, its first line only', () => {
    expect(queuedPaint([])).toBeNull();
    const paint = queuedPaint([{ display: 'two' }, { display: 'three\nand more' }])!;
    expect(paint.wanted).toBe(2);
    expect(paint.pushes).toBe(true);
    expect(text(paint.rows(at(10)))).toEqual(['↳ queued: two', '↳ queued: three …']);
  });

  it('cuts a long input to the width and counts those past its rows; control characters inert', () => {
    const queue = ['a', 'b', 'c', 'd', 'e', 'f'].map((d) => ({ display: d }));
    expect(text(queuedRows(queue, 40, 4, CLUSTERING))).toEqual([
      '↳ queued: a',
      '↳ queued: b',
      '↳ queued: c',
      '  … 3 more queued',
    ]);
    const long = text(queuedRows([{ display: 'x'.repeat(100) + '\x1b[2J' }], 20, 4, CLUSTERING));
    expect(long[0]).toHaveLength(20);
    expect(long[0].endsWith('…')).toBe(true);
    expect(text(queuedRows([{ display: 'rm \x1b[31mred' }], 40, 4, CLUSTERING))[0]).not.toContain('\x1b');
  });

  it('sits under the checklist, keeping its rows; the checklist gets what is left', () => {
    const checklist: ViewPaint = {
      area: 'overlay',
      wanted: 5,
      rows: (a) =>
        Array.from({ length: Math.min(5, a.height) }, (_, i) => [
          { text: sanitize(`item ${i}`), style: 'normal' as const },
        ]),
    };
    const both = stacked(checklist, queuedPaint([{ display: 'next' }]))!;
    expect(both.wanted).toBe(6);
    expect(text(both.rows(at(6)))).toEqual(['item 0', 'item 1', 'item 2', 'item 3', 'item 4', '↳ queued: next']);
    expect(text(both.rows(at(3)))).toEqual(['item 0', 'item 1', '↳ queued: next']);
    expect(stacked(checklist, null)).toBe(checklist);
    expect(stacked(null, null)).toBeNull();
  });
});

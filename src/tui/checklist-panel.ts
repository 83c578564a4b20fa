// The model's checklist (the todo tool) as a panel above the composer: shown
// while a turn runs, and after it while items are left to do; /todo folds it
// to its count and back. It holds the list the bus last announced and the
// fold; todo.ts makes the rows.

import type { Bus } from '../kernel/bus';
import type { ViewPaint } from '../composer/views/view';
import { PANEL_ROWS, checklistRows, todoCount, unfinished } from '../kernel/checklist';
import { type TodoItem } from '../protocol/checklist';

export class ChecklistPanel {
  private items: readonly TodoItem[] = [];
  private folded = false;

  constructor(
    private readonly bus: Bus,
    private readonly busy: () => boolean,
  ) {
    bus.on('checklist.changed', ({ items }) => {
      this.items = items;
      bus.requestRender();
    });
  }

  /** /todo: folds or unfolds; what to tell the person. */
  toggle(): string {
    if (this.items.length === 0) return 'no checklist in this conversation: the model keeps one for longer tasks';
    this.folded = !this.folded;
    this.bus.requestRender();
    return this.folded
      ? `checklist folded to its count (${todoCount(this.items)}); /todo shows it again`
      : 'checklist shown whole above the input';
  }

  paint(): ViewPaint | null {
    const items = this.items;
    if (items.length === 0 || !(this.busy() || unfinished(items))) return null;
    const folded = this.folded;
    return {
      area: 'overlay',
      wanted: folded ? 1 : Math.min(PANEL_ROWS, items.length + 1),
      rows: (at) =>
        checklistRows(items, { folded, height: at.height, width: at.width, emoji: at.emoji, toggle: '/todo' }),
    };
  }
}

// The checklist the model keeps while it works (the `todo` tool sends the
// whole list each time): its items, what the tool answers, and the panel above
// the composer (whole, or folded to a count). Pure. The list a conversation
// holds, which a resume and a rewind take back, is the tool's to find
// (tools/builtin/todo.ts): it knows its calls.

import { type GridRow, fit } from './rows';
import type { EmojiWidths } from '../editor/width';
import type { TodoItem, TodoStatus } from '../protocol/checklist';
import { type Inert, own, sanitize } from '../protocol/inert';

export const TODO_STATUSES = ['pending', 'in_progress', 'done'] as const satisfies readonly TodoStatus[];

/** Items one list may hold: a checklist, not a backlog. */
export const MAX_TODO_ITEMS = 50;
/** Characters of one item's text. */
export const MAX_TODO_TEXT = 300;

const MARK: Record<TodoStatus, Inert> = { done: own`[x]`, in_progress: own`[>]`, pending: own`[ ]` };

/** Why a list cannot be taken as sent, or null. */
export function todoProblem(items: readonly TodoItem[]): string | null {
  if (items.length > MAX_TODO_ITEMS) return `${items.length} items: a checklist holds at most ${MAX_TODO_ITEMS}`;
  const blank = items.findIndex((i) => i.text.trim() === '');
  if (blank >= 0) return `item ${blank + 1} has no text`;
  const long = items.findIndex((i) => i.text.length > MAX_TODO_TEXT);
  if (long >= 0) return `item ${long + 1} is ${items[long].text.length} characters: at most ${MAX_TODO_TEXT}`;
  const working = items.filter((i) => i.status === 'in_progress').length;
  if (working > 1) return `${working} items are in_progress: one at a time`;
  return null;
}

export function doneCount(items: readonly TodoItem[]): number {
  return items.filter((i) => i.status === 'done').length;
}

/** "2/5 done", for the call's line and the folded panel. */
export function todoCount(items: readonly TodoItem[]): string {
  return `${doneCount(items)}/${items.length} done`;
}

/** Whether anything is left to do. */
export function unfinished(items: readonly TodoItem[]): boolean {
  return items.some((i) => i.status !== 'done');
}

/** The list as text, one item a line with its mark: what the model is told back and the transcript shows. */
export function todoText(items: readonly TodoItem[]): string {
  if (items.length === 0) return 'The checklist is empty.';
  return items.map((i) => `${MARK[i.status]} ${oneLine(i.text)}`).join('\n');
}

/** The call's line in the transcript: the count, and the item being worked on. */
export function todoSubject(items: readonly TodoItem[]): string {
  const now = items.find((i) => i.status === 'in_progress');
  return items.length === 0 ? 'cleared' : `${todoCount(items)}${now ? ` · now: ${oneLine(now.text)}` : ''}`;
}

/** A todo call's items, when they are well-formed (a logged call may be anything). */
export function itemsOf(args: unknown): TodoItem[] | null {
  const items = (args as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return null;
  const out: TodoItem[] = [];
  for (const item of items) {
    const { text, status } = (item ?? {}) as { text?: unknown; status?: unknown };
    if (typeof text !== 'string' || !(TODO_STATUSES as readonly unknown[]).includes(status)) return null;
    out.push({ text, status: status as TodoStatus });
  }
  return todoProblem(out) === null ? out : null;
}

/** Rows the panel takes at most, its title included. */
export const PANEL_ROWS = 7;

/**
 * The panel above the composer: a title with the count, then the items around the one in progress (a window of
 * `height - 1` rows, what is left out counted); folded, the title alone.
 */
export function checklistRows(
  items: readonly TodoItem[],
  how: { folded: boolean; height: number; width: number; emoji: EmojiWidths; toggle: string },
): GridRow[] {
  const cut = (text: Inert): Inert => fit(text, how.width, how.emoji);
  const count = sanitize(todoCount(items));
  const title: GridRow = [
    {
      text: cut(own` checklist ${count} · ${sanitize(how.toggle)} ${how.folded ? own`shows` : own`folds`} it`),
      style: 'dim',
    },
  ];
  if (how.folded || how.height < 3) return [title];
  const room = how.height - 1;
  const focus = items.findIndex((i) => i.status !== 'done');
  let start = Math.max(0, Math.min((focus < 0 ? items.length : focus) - 1, items.length - room));
  let end = Math.min(items.length, start + room);
  const above = start > 0;
  const below = end < items.length;
  // A row says what is left out, above or below, when the list does not fit.
  if (above) start++;
  if (below) end--;
  const rows: GridRow[] = [title];
  if (above) rows.push([{ text: cut(own`   … ${start} above`), style: 'dim' }]);
  for (const item of items.slice(start, end)) rows.push(itemRow(item, cut));
  if (below) rows.push([{ text: cut(own`   … ${items.length - end} more`), style: 'dim' }]);
  return rows;
}

function itemRow(item: TodoItem, cut: (text: Inert) => Inert): GridRow {
  const style = item.status === 'done' ? 'dim' : item.status === 'in_progress' ? 'bold' : 'normal';
  // The model's words.
  return [{ text: cut(own` ${MARK[item.status]} ${sanitize(oneLine(item.text))}`), style }];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

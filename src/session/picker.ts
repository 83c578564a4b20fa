// The resume picker as state: the conversations on offer (newest first) and
// which one is selected. Moving clamps at the ends. Pure.

import type { ConversationSummary } from './replay';

export interface PickerState {
  readonly items: readonly ConversationSummary[];
  readonly index: number;
}

/** A picker over the log's conversations, newest first; null when there are none. */
export function openPicker(oldestFirst: readonly ConversationSummary[]): PickerState | null {
  if (oldestFirst.length === 0) return null;
  return { items: [...oldestFirst].reverse(), index: 0 };
}

export function movePicker(p: PickerState, delta: number): PickerState {
  const index = Math.max(0, Math.min(p.items.length - 1, p.index + delta));
  return index === p.index ? p : { ...p, index };
}

export function selected(p: PickerState): ConversationSummary {
  return p.items[p.index];
}

/** One line per conversation: when, how many turns, the first input's first line. */
export function pickerLine(c: ConversationSummary): string {
  const when = c.lastTs ? c.lastTs.slice(0, 16).replace('T', ' ') : '?';
  return `${when}  ${String(c.turns).padStart(3)} turn${c.turns === 1 ? ' ' : 's'}  ${c.first}`;
}

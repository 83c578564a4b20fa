// The resume picker as state: the conversations on offer (newest first) and
// which one is selected. Moving clamps at the ends. Pure.

import type { ConversationSummary } from './replay';

export interface PickerState {
  /**
   * resume: conversations; rewind: this conversation's inputs (`turns` their number, `first` their first line);
   * search: the matches of a search of every conversation (`first` the match's line, `found` where each is).
   */
  readonly kind?: 'resume' | 'rewind' | 'search';
  readonly items: readonly ConversationSummary[];
  readonly index: number;
  readonly found?: readonly { readonly session: string; readonly here: boolean }[];
  readonly query?: string;
}

/** A picker over a search's matches (newest first, each a line), or null when there are none. */
export function openFound(
  query: string,
  hits: readonly { conv: string; session: string; here: boolean; line: string }[],
): PickerState | null {
  if (hits.length === 0) return null;
  const items = hits.map((h) => ({ id: h.conv, started: '', lastTs: '', turns: 0, first: h.line }));
  return { kind: 'search', items, index: 0, query, found: hits.map((h) => ({ session: h.session, here: h.here })) };
}

/** A picker over the log's conversations, newest first; null when there are none. */
export function openPicker(oldestFirst: readonly ConversationSummary[]): PickerState | null {
  if (oldestFirst.length === 0) return null;
  return { items: [...oldestFirst].reverse(), index: 0 };
}

/** A picker over this conversation's inputs (their texts, oldest first), newest first; null when there are none. */
export function openRewind(inputs: readonly string[]): PickerState | null {
  if (inputs.length === 0) return null;
  const items = inputs.map((text, i) => ({
    id: String(i),
    started: '',
    lastTs: '',
    turns: i + 1,
    first: text.split('\n')[0],
  }));
  return { kind: 'rewind', items: items.reverse(), index: 0 };
}

export function movePicker(p: PickerState, delta: number): PickerState {
  const index = Math.max(0, Math.min(p.items.length - 1, p.index + delta));
  return index === p.index ? p : { ...p, index };
}

export function selected(p: PickerState): ConversationSummary {
  return p.items[p.index];
}

/**
 * One line per conversation (when, its id for --resume, how many turns, its name, the first input's first line), or
 * per input
 * (its number, its first line).
 */
export function pickerLine(c: ConversationSummary, kind: PickerState['kind'] = 'resume'): string {
  if (kind === 'rewind') return `#${String(c.turns).padEnd(3)} ${c.first}`;
  if (kind === 'search') return c.first;
  const when = c.lastTs ? c.lastTs.slice(0, 16).replace('T', ' ') : '?';
  // A named conversation shows its name first, then how it began.
  const what = c.name ? `${c.name} · ${c.first}` : c.first;
  return `${when}  ${c.id}  ${String(c.turns).padStart(3)} turn${c.turns === 1 ? ' ' : 's'}  ${what}`;
}

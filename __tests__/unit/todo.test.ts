import { CLUSTERING } from '../../src/editor/width';
import type { ChatMessage } from '../../src/protocol/messages';
import { replay } from '../../src/session/replay';
import { checklistRows, itemsOf, todoProblem, todoSubject, todoText } from '../../src/kernel/checklist';
import { type TodoItem } from '../../src/protocol/checklist';
import { checklistOf, todo } from '../../src/tools/builtin/todo';

const item = (text: string, status: TodoItem['status'] = 'pending'): TodoItem => ({ text, status });
const rows = (items: TodoItem[], height: number, folded = false, width = 40) =>
  checklistRows(items, { folded, height, width, emoji: CLUSTERING, toggle: '/todo' }).map((r) =>
    r.map((s) => s.text).join(''),
  );
const call = (items: unknown): ChatMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id: `c${Math.random()}`, name: 'todo', args: { items } }],
});

describe('the checklist', () => {
  it('is shown through the checklist the tool was made with (its capability), not through the call', async () => {
    const shown: TodoItem[][] = [];
    const tool = todo({ show: (items) => void shown.push([...items]) });
    const ctx = { workspace: '/w', sandbox: null, onOutput: () => undefined };
    const list = [item('Read it', 'done'), item('Change it', 'in_progress')];
    const result = await tool.run({ items: list }, ctx, new AbortController().signal);
    expect(shown).toEqual([list]);
    expect(result).toEqual({ ok: true, content: 'The checklist is saved (1/2 done):\n[x] Read it\n[>] Change it' });
    await tool.run({ items: [] }, ctx, new AbortController().signal);
    expect(shown.at(-1)).toEqual([]);
  });

  it('takes a list with at most one item in progress, each with text, within the bounds', () => {
    expect(todoProblem([item('a', 'done'), item('b', 'in_progress'), item('c')])).toBeNull();
    expect(todoProblem([])).toBeNull();
    expect(todoProblem([item('a', 'in_progress'), item('b', 'in_progress')])).toBe(
      '2 items are in_progress: one at a time',
    );
    expect(todoProblem([item('a'), item('  ')])).toBe('item 2 has no text');
    expect(todoProblem([item('x'.repeat(301))])).toMatch(/item 1 is 301 characters/);
    expect(todoProblem(Array.from({ length: 51 }, (_, i) => item(`s${i}`)))).toMatch(/at most 50/);
  });

  it('reads as marked lines, and its call as the count and the item being worked on', () => {
    const list = [item('Read it', 'done'), item('Change\nit', 'in_progress'), item('Test it')];
    expect(todoText(list)).toBe('[x] Read it\n[>] Change it\n[ ] Test it');
    expect(todoSubject(list)).toBe('1/3 done · now: Change it');
    expect(todoSubject([item('a', 'done')])).toBe('1/1 done');
    expect(todoSubject([])).toBe('cleared');
  });

  it('is the newest well-formed todo call of the conversation; a malformed one is passed over', () => {
    const first = [item('one', 'in_progress')];
    const second = [item('one', 'done'), item('two', 'in_progress')];
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      call(first),
      { role: 'tool', toolCallId: 'x', name: 'todo', content: 'saved' },
      call(second),
      call([{ text: 'bad', status: 'maybe' }]),
      { role: 'assistant', content: 'done' },
    ];
    expect(checklistOf(messages)).toEqual(second);
    expect(checklistOf(messages.slice(0, 2))).toEqual(first);
    expect(checklistOf([{ role: 'user', content: 'hi' }])).toBeNull();
    expect(itemsOf({ items: 'no' })).toBeNull();
    expect(itemsOf(null)).toBeNull();
  });

  it('a replayed log keeps the checklist through a compaction and takes it back with a rewind', () => {
    const ts = '2026-12-03T00:00:00.000Z';
    const conv = 'c1';
    const toolCall = (id: string, items: TodoItem[]) => ({ id, name: 'todo', args: { items } });
    const events = [
      { t: 'user', conv, ts, text: 'go', segments: [{ type: 'text', text: 'go' }] },
      { t: 'assistant', conv, ts, msg: 0, toolCalls: [toolCall('a', [item('one', 'in_progress')])] },
      { t: 'tool', conv, ts, id: 'a', name: 'todo', content: 'saved' },
      { t: 'end', conv, ts, status: 'done' },
      { t: 'user', conv, ts, text: 'more', segments: [{ type: 'text', text: 'more' }] },
      { t: 'assistant', conv, ts, msg: 1, toolCalls: [toolCall('b', [item('one', 'done')])] },
      { t: 'tool', conv, ts, id: 'b', name: 'todo', content: 'saved' },
      { t: 'end', conv, ts, status: 'done' },
    ];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const r = (more: unknown[] = []) => replay([...events, ...more] as any, conv).checklist;
    expect(r()).toEqual([item('one', 'done')]);
    expect(r([{ t: 'compact', conv, ts, summary: 'all of it', kept: 0 }])).toEqual([item('one', 'done')]);
    expect(r([{ t: 'rewind', conv, ts, kept: 3 }])).toEqual([item('one', 'in_progress')]);
    expect(r([{ t: 'rewind', conv, ts, kept: 0 }])).toBeNull();
  });
});

describe('the checklist panel', () => {
  const seven = [
    item('one', 'done'),
    item('two', 'done'),
    item('three', 'done'),
    item('four', 'in_progress'),
    item('five'),
    item('six'),
    item('seven'),
  ];
  it('shows the whole list under its count when it fits, folded only the count', () => {
    const list = [item('one', 'done'), item('two', 'in_progress'), item('three')];
    expect(rows(list, 7)).toEqual([' checklist 1/3 done · /todo folds it', ' [x] one', ' [>] two', ' [ ] three']);
    expect(rows(list, 7, true)).toEqual([' checklist 1/3 done · /todo shows it']);
  });
  it('past its rows, a window from the item before the one in progress, what is left out counted', () => {
    expect(rows(seven, 5)).toEqual([
      ' checklist 3/7 done · /todo folds it',
      '   … 3 above',
      ' [>] four',
      ' [ ] five',
      '   … 2 more',
    ]);
    expect(rows(seven, 7)).toEqual([
      ' checklist 3/7 done · /todo folds it',
      '   … 2 above',
      ' [x] three',
      ' [>] four',
      ' [ ] five',
      ' [ ] six',
      ' [ ] seven',
    ]);
  });
  it('fits each row to the width, and folds when there is no room for an item', () => {
    expect(rows([item('a long item that goes on', 'in_progress')], 3, false, 12)).toEqual([
      ' checklist …',
      ' [>] a long…',
    ]);
    expect(rows(seven, 2)).toEqual([' checklist 3/7 done · /todo folds it']);
  });
});

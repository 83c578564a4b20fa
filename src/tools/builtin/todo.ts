// `todo`: the checklist the model keeps while it works, sent whole each time
// (kernel/checklist.ts holds what a list may be and how it reads); milk shows
// it above the composer and in the transcript where it changes, and the log
// keeps the call, from which a resume and a rewind take the list back
// (checklistOf). Its one capability, where a list goes, is given when the
// tool is made (app/agent.ts), not handed to every call.

import { type Tool, defineTool } from '../tool';
import * as s from '../schema';
import { TODO_STATUSES, itemsOf, todoCount, todoProblem, todoSubject, todoText } from '../../kernel/checklist';
import type { ChatMessage } from '../../protocol/messages';
import type { TodoItem } from '../../protocol/checklist';

/** Where the list the model sends goes: shown above the composer. */
export interface Checklist {
  show(items: readonly TodoItem[]): void;
}

const parameters = s.object(
  {
    items: s.array(
      s.object(
        {
          text: s.string('One step, in a few words: "Move the parser to src/parse.ts".'),
          status: s.oneOf(TODO_STATUSES, 'pending, in_progress (one at a time) or done.'),
        },
        ['text', 'status'],
      ),
      'The whole checklist, in order: every item each time, not only the changed ones. An empty list clears it.',
    ),
  },
  ['items'],
);

type Args = s.Infer<typeof parameters>;

const NAME = 'todo';

/** The checklist tool, its lists shown through `checklist`. */
export function todo(checklist: Checklist): Tool<Args> {
  return defineTool<Args>({
    name: NAME,
    description:
      'Keep a checklist of the steps of a task with several parts, which the person sees above their input while you ' +
      'work. Send the whole list each time. Make it when a task has three or more steps or the person gives you a ' +
      'list; mark an item in_progress before starting it (one at a time) and done as soon as it is finished, not in ' +
      'a batch at the end. Skip it for a single quick step or a question.',
    parameters,
    kind: 'state',
    verbs: ['Checklist:', 'Checklist:'],
    mainOnly: true,
    guidance:
      'For a task of three or more steps, write the steps with todo before you start and keep it true as you go (one ' +
      'item in_progress, each marked done when it is): the person follows your work by it.',
    examples: [
      {
        items: [
          { text: 'Find the call sites of parseArgs', status: 'done' },
          { text: 'Move them to the new signature', status: 'in_progress' },
          { text: 'Run the tests', status: 'pending' },
        ],
      },
      { items: [] },
    ],
    check: (args) => todoProblem(args.items),
    subject: (args) => todoSubject(args.items),
    run: async (args) => {
      checklist.show(args.items);
      const content =
        args.items.length === 0
          ? 'The checklist is cleared.'
          : `The checklist is saved (${todoCount(args.items)}):\n${todoText(args.items)}`;
      // No status: the call's line says the count already.
      return { ok: true, content };
    },
  });
}

/** The list the conversation holds: the newest todo call's, as the model sent it; null when it never kept one. */
export function checklistOf(messages: readonly ChatMessage[]): TodoItem[] | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant' || !m.toolCalls) continue;
    for (let j = m.toolCalls.length - 1; j >= 0; j--) {
      const call = m.toolCalls[j];
      if (call.name !== NAME) continue;
      const items = itemsOf(call.args);
      if (items) return items;
    }
  }
  return null;
}

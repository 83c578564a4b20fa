// `task`: a piece of work handed to a subagent with a fresh context (milk's
// `explore`, or one from the agents folders): it works with its own tools and
// its final answer is the call's result (turn/subagent.ts runs it). Several
// read-only tasks in one answer run at once. Its capability, the subagents, is
// given when the tool is made (turn/runner.ts), not handed to every call.

import { type CallTurn, type Tool, type ToolResult, defineTool } from '../tool';
import * as s from '../schema';

const parameters = s.object(
  {
    description: s.string('What the task is, in three to six words, shown to the person: "Find the config loader".'),
    prompt: s.string(
      'The task in full, for an agent that knows nothing of this conversation: what to find or do, what is known ' +
        'already, and what to answer with.',
    ),
    agent: s.string('Which subagent does it (default explore: reads and searches only).'),
  },
  ['description', 'prompt'],
);

type Args = s.Infer<typeof parameters>;

/** What a task call asks. */
export interface TaskRequest {
  readonly description: string;
  readonly prompt: string;
  readonly agent?: string;
}

/** Where tasks go: the subagents there are. */
export interface TaskRunner {
  /** Whether the subagent a call names (explore when none) only reads: such tasks in one answer run at once. */
  readsOnly(agent: string | undefined): boolean;
  /** Runs the task to its answer within `turn`; `line` gets a line for each of its tool calls as it ends. */
  run(turn: CallTurn, req: TaskRequest, line: (text: string) => void): Promise<ToolResult>;
}

/** The task tool, its tasks run by `subagents` (null: none here). */
export function task(subagents: TaskRunner | null): Tool<Args> {
  return defineTool<Args>({
    name: 'task',
    description:
      'Hand a self-contained piece of work to a subagent, which starts with a fresh context and answers once: ' +
      'searches across many files, questions about how a part of the code works, the facts a plan needs. It keeps ' +
      "that reading out of this conversation's context. Tasks in the same answer run at the same time when their " +
      'subagents only read; give each everything it needs to know.',
    parameters,
    kind: 'state',
    verbs: ['Task:', 'Task:'],
    mainOnly: true,
    examples: [
      {
        description: 'Find the config loader',
        prompt: 'Find where config.json is read and validated, and list the keys it accepts with file:line.',
      },
      { description: 'Review the parser', prompt: 'Review src/parse.ts for bugs.', agent: 'reviewer' },
    ],
    check: (args) =>
      !args.prompt.trim() ? '`prompt` is empty' : !args.description.trim() ? '`description` is empty' : null,
    subject: (args) => `${args.description}${args.agent ? ` (${args.agent})` : ''}`,
    alongside: (args) => subagents?.readsOnly(args.agent) ?? false,
    run: async (args, ctx) => {
      if (!subagents || !ctx.turn) return { ok: false, content: 'error: no subagents here' };
      const req = { description: args.description, prompt: args.prompt, agent: args.agent };
      return subagents.run(ctx.turn, req, ctx.onOutput);
    },
  });
}

// `propose_plan`: the model's plan put to the person (plan mode ends with it):
// a view shows the plan, where they accept it, choosing the approval mode to
// carry on in, or send it back with a note. Accepting goes on in the same turn
// and conversation.

import { type Tool, defineTool } from '../tool';
import type { Person } from './ask-user';
import * as s from '../schema';
import { PLAN_OPTIONS, planAnswer } from '../../kernel/questions';

/** A plan longer than this is not a plan to read before work starts. */
const MAX_PLAN = 20_000;

const parameters = s.object(
  {
    plan: s.string(
      'The plan in Markdown: what will change, file by file, in the order of the work, and how it will be checked.',
    ),
  },
  ['plan'],
);

type Args = s.Infer<typeof parameters>;

/** The plan tool, its plans put to `person` (null: no one is there to accept one, as in milk run). */
export function proposePlan(person: Person | null): Tool<Args> {
  return defineTool<Args>({
    name: 'propose_plan',
    description:
      'Put your plan to the person before changing anything, and wait: they accept it (and the edits and commands ' +
      'it needs may then run) or send it back with a note. In plan mode, explore with reads and searches first, then ' +
      'call this once the plan is concrete; after it is accepted, carry it out in the same turn.',
    parameters,
    kind: 'state',
    verbs: ['Plan:', 'Plan:'],
    mainOnly: true,
    examples: [{ plan: '1. Rename `parseArgs` to `parseFlags` in src/cli.ts and its 3 callers.\n2. Run `npm test`.' }],
    check: (args) =>
      !args.plan.trim()
        ? '`plan` is empty'
        : args.plan.length > MAX_PLAN
          ? `the plan is longer than ${MAX_PLAN} characters`
          : null,
    subject: (args) => args.plan.split('\n').find((l) => l.trim()) ?? '',
    run: async (args, ctx) => {
      if (!person || !ctx.turn)
        return {
          ok: true,
          content:
            'No one is there to accept the plan (milk run runs unattended): end the turn with the plan as your answer.',
        };
      // In the transcript too, under the call's line, for after the view has closed.
      ctx.onOutput(args.plan.endsWith('\n') ? args.plan : `${args.plan}\n`);
      const answer = await person.ask(ctx.turn, {
        question: 'Carry out this plan?',
        options: PLAN_OPTIONS,
        plan: args.plan,
      });
      if (answer === null) return { ok: false, content: 'not answered: the turn was stopped' };
      const { content, mode } = planAnswer(answer);
      return { ok: true, content, status: mode ? `accepted: ${mode}` : 'keep planning' };
    },
  });
}

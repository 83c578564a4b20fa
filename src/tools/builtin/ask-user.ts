// `ask_user`: a question to the person, with options to pick from and room for
// their own answer (composer/views/question.ts shows it); the answer is the
// call's result and never enters their input history. With no one there (milk
// run) the model is told so. Its capability, the person, is given when the
// tool is made (turn/runner.ts), as is propose_plan's.

import { type CallTurn, type Tool, defineTool } from '../tool';
import type { PersonAnswer } from '../../protocol/questions';
import * as s from '../schema';
import { MAX_OPTION, MAX_OPTIONS, MAX_QUESTION, askAnswer } from '../../kernel/questions';

const parameters = s.object(
  {
    question: s.string('The question, in a sentence or two: what you need to know and why.'),
    options: s.array(
      s.string(),
      `Likely answers to pick from (at most ${MAX_OPTIONS}, each short), the one you would choose first; the person ` +
        'may also answer in their own words.',
    ),
  },
  ['question'],
);

type Args = s.Infer<typeof parameters>;

/** Whom the model's questions and plans are put to. */
export interface Person {
  /** Their answer, or null when the turn was stopped meanwhile. */
  ask(turn: CallTurn, q: { question: string; options: readonly string[]; plan?: string }): Promise<PersonAnswer | null>;
}

/** The question tool, its questions put to `person` (null: no one is there to answer, as in milk run). */
export function askUser(person: Person | null): Tool<Args> {
  return defineTool<Args>({
    name: 'ask_user',
    description:
      'Ask the person a question and wait for the answer, when you cannot go on well without it: a choice between ' +
      'approaches that changes the work, a name or value only they know, a requirement that is unclear. Do not ask ' +
      'what you can find out with the tools, or to confirm what you were told to do.',
    parameters,
    kind: 'state',
    verbs: ['Ask', 'Asked'],
    mainOnly: true,
    examples: [
      { question: 'Which package manager does this project use?', options: ['npm', 'pnpm', 'yarn'] },
      { question: 'What should the new command be called?' },
    ],
    check: (args) => {
      if (!args.question.trim()) return '`question` is empty';
      if (args.question.length > MAX_QUESTION) return `the question is longer than ${MAX_QUESTION} characters`;
      const options = args.options ?? [];
      if (options.length > MAX_OPTIONS) return `${options.length} options: at most ${MAX_OPTIONS}`;
      const bad = options.findIndex((o) => !o.trim() || o.length > MAX_OPTION);
      return bad < 0 ? null : `option ${bad + 1} is empty or longer than ${MAX_OPTION} characters`;
    },
    subject: (args) => args.question,
    run: async (args, ctx) => {
      if (!person || !ctx.turn)
        return {
          ok: false,
          content:
            'error: no one is there to answer (milk run runs unattended): go on without the answer, or stop ' +
            'and say what you need to know',
        };
      const options = args.options ?? [];
      const answer = await person.ask(ctx.turn, { question: args.question, options });
      if (answer === null) return { ok: false, content: 'not answered: the turn was stopped' };
      const content = askAnswer(answer, options);
      return answer.kind === 'dismissed' ? { ok: false, content, status: 'no answer' } : { ok: true, content };
    },
  });
}

// What the model asks the person and what comes back: a question with options
// and a free answer (the ask_user tool), or a plan to accept — choosing the
// approval mode to carry on in — or to send back with a note (propose_plan).
// The tools put them, the views answer them (composer/views/question.ts), the
// bus carries both (turn/approvals.ts' channel). Pure.

import type { ApprovalMode } from '../protocol/approvals';
import type { PersonAnswer } from '../protocol/questions';

/** Options an ask_user question may offer (more would not fit the view): the first are shown. */
export const MAX_OPTIONS = 9;
export const MAX_QUESTION = 2_000;
export const MAX_OPTION = 200;

/** A plan's choices, in the order shown: accept it and carry on in this mode. */
export const PLAN_MODES: readonly ApprovalMode[] = ['auto-edit', 'ask', 'full-auto'];

/** The plan view's options: each an accept in a mode; the free answer sends it back with a note. */
export const PLAN_OPTIONS: readonly string[] = [
  'Accept, and carry on in auto-edit (edits run, commands ask)',
  'Accept, and carry on in ask (edits and commands ask)',
  'Accept, and carry on in full-auto (nothing asks)',
];

/** What ask_user's call answers the model. */
export function askAnswer(answer: PersonAnswer, options: readonly string[]): string {
  switch (answer.kind) {
    case 'option':
      return `The person chose: ${options[answer.index] ?? `option ${answer.index + 1}`}`;
    case 'text':
      return `The person answered: ${answer.text}`;
    case 'dismissed':
      return 'The person closed the question without answering. Go on without it, or ask differently.';
  }
}

/** What propose_plan's call answers the model, and the mode it was accepted in (null: it was not). */
export function planAnswer(answer: PersonAnswer): { content: string; mode: ApprovalMode | null } {
  if (answer.kind === 'option') {
    const mode = PLAN_MODES[answer.index] ?? 'ask';
    return {
      content:
        `The person accepted the plan. The approval mode is now ${mode}: carry the plan out, step by step, ` +
        'keeping the checklist (todo) as you go.',
      mode,
    };
  }
  const note = answer.kind === 'text' && answer.text.trim() ? ` Their note: ${answer.text.trim()}` : '';
  return {
    content:
      'The person did not accept the plan yet and wants to keep planning: stay in plan mode (reads and searches ' +
      `only), change the plan, and propose it again.${note}`,
    mode: null,
  };
}

// The answers to the questions put to the person, back on the bus: a tool call's approval, the model's questions and
// the step limit's "go on?" (their views open on the bus's events: composer/views/registry.ts's openers); and milk's
// own questions (which file keeps a `# ` memory, whether to trust a workspace), each with an id of its own, never the
// model's, one at a time.

import { sanitize } from '../../protocol/inert';
import type { PersonAnswer } from '../../protocol/questions';
import { QuestionView } from '../views/question';
import type { EffectContext, Handlers } from './context';

export function questionEffects(
  c: EffectContext,
): Handlers<'answer' | 'explainApproval' | 'answerQuestion' | 'memory'> {
  return {
    answer: (e) =>
      c.bus.emit('approval.answered', {
        requestId: e.requestId,
        approval: e.approval,
        ...(e.hunks ? { hunks: e.hunks } : {}),
      }),
    explainApproval: (e) => c.bus.emit('approval.explain', { requestId: e.requestId }),
    answerQuestion: (e) => {
      const own = c.state.own;
      if (own && e.requestId === own.id) {
        c.state.own = null;
        own.then(e.answer);
        const next = c.state.ownLater.shift();
        if (next) askOwn(c, next.question, next.options, next.then);
        return;
      }
      c.bus.emit('question.answered', { requestId: e.requestId, answer: e.answer });
    },
    memory: (e) => askWhereToRemember(c, e.text),
  };
}

/**
 * Puts milk's own question to the person in the question view (options only, its own id, never the model's);
 * `then` takes the answer (Esc: dismissed). One asked while another is open waits for it.
 */
export function askOwn(
  c: EffectContext,
  question: string,
  options: readonly string[],
  then: (answer: PersonAnswer) => void,
): void {
  if (c.state.own) return void c.state.ownLater.push({ question, options, then });
  const own = (c.state.own = { id: -1 - c.now(), then });
  const asked = {
    requestId: own.id,
    turnId: -1,
    question: sanitize(question),
    options: options.map((o) => sanitize(o)),
    free: false,
  };
  c.apply([{ type: 'openView', view: new QuestionView(asked, c.now()) }]);
}

/** A `# ` input: which file keeps it, asked in the question view (its own id, never the model's). */
function askWhereToRemember(c: EffectContext, text: string): void {
  const memory = c.options.memory;
  const files = memory?.files() ?? [];
  if (files.length === 0) return c.note('no instructions file to remember in here');
  askOwn(c, `Remember in which instructions file? "${text}"`, files, (answer) => {
    if (answer.kind !== 'option') return c.note('nothing remembered');
    memory?.add(answer.index, text).then(
      (said) => c.note(said),
      (err: Error) => c.note(`not remembered: ${err.message}`),
    );
  });
}

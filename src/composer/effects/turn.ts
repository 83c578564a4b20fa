// Turns from the composer: an input sent (or the person's own `!` command run), queued while a turn runs, sent into
// the running turn, a prompt command expanded, the turn stopped; and what a turn's end does to the queue.

import type { TurnEnd } from '../../kernel/bus';
import { sanitize } from '../../protocol/inert';
import { turnRunning } from '../slash-commands';
import { ownCommand } from '../said';
import type { Input } from '../state';
import type { EffectContext, Handlers } from './context';

export function turnEffects(
  c: EffectContext,
): Handlers<'submit' | 'queue' | 'steer' | 'cancelTurn' | 'prompt' | 'goOn' | 'slash'> {
  return {
    submit: (e) => send(c, e.input),
    queue: (e) => void c.state.queue.push(e.input),
    steer: (e) => steer(c, e.input),
    cancelTurn: () => void c.runner.cancel(),
    prompt: (e) => prompt(c, e.name, e.args, e.input),
    goOn: (e) => c.bus.emit('turn.limitAnswered', { turnId: e.turnId, goOn: e.goOn }),
    slash: (e) => c.slash(e.name, e.args),
  };
}

/** An input to the model, or a line starting with `!`: the person's own command, run in the workspace. */
export function send(c: EffectContext, input: Input): void {
  const own = ownCommand(input.text);
  if (own === '')
    return c.note(
      "!COMMAND runs COMMAND in the workspace's shell, as your own (no approval, no sandbox); its output goes to " +
        'the model with your next input',
    );
  if (own !== null) return void c.runner.runOwn(own, { display: input.display, segments: input.segments });
  // @-mentions attach their files' content, read now; each says what it attached or why not.
  const files = c.options.files;
  const attached =
    input.segments.some((s) => s.type === 'file' || s.type === 'image') && files ? files.attach(input.segments) : null;
  c.runner.start(attached?.text ?? input.text, {
    display: input.display,
    segments: input.segments,
    images: attached?.images,
  });
  for (const note of attached?.notes ?? []) c.note(note);
}

/**
 * Sends an input into the running turn (/steer, Ctrl+Enter); with none running it is sent as any input is, and a
 * turn that takes none (a `!` command, /compact) gets it queued.
 */
export function steer(c: EffectContext, input: Input): void {
  if (!c.runner.busy) return send(c, input);
  const id = c.runner.steer(input.text, sanitize(input.display), input.segments);
  if (id === null) {
    c.state.queue.push(input);
    return c.note('this turn takes no message while it runs: it is queued for after it');
  }
  c.state.steering.push({ id, input });
}

/**
 * A prompt command: its prompt, arguments filled in, goes to the model as the person's input; the transcript shows
 * what was typed.
 */
function prompt(c: EffectContext, name: string, args: string, input: Input): void {
  const text = c.options.prompts?.expand(name, args) ?? null;
  if (!(text instanceof Promise)) return startPrompt(c, name, text, input);
  text.then(
    (t) => startPrompt(c, name, t, input),
    (err: Error) => c.note(`/${name}: ${err.message}`),
  );
}

function startPrompt(c: EffectContext, name: string, text: string | null, input: Input): void {
  if (text === null) return c.note(`unknown command /${name} (/help lists them)`);
  if (c.runner.busy) return c.note(turnRunning(c.options.keys));
  c.runner.start(text, { display: input.display, segments: input.segments });
}

/** A message sent into the turn was delivered: it is no longer waiting. */
export function steered(c: EffectContext, steerId: number): void {
  const at = c.state.steering.findIndex((s) => s.id === steerId);
  if (at >= 0) c.state.steering.splice(at, 1);
}

/** A turn ended: the queue goes on (done), or comes back into the composer (cancelled or failed). */
export function turnEnded(c: EffectContext, turnId: number, status: TurnEnd): void {
  const { queue } = c.state;
  c.dispatch({ kind: 'turnEnded', turnId });
  // Sent into the turn and never delivered (it was stopped first): back in front of the queue.
  for (const s of c.state.steering.splice(0).reverse()) queue.unshift(s.input);
  if (status !== 'done') {
    // Cancelled or failed: queued inputs come back into the composer (beneath any view), none is sent unasked.
    const inputs = queue.splice(0).map((q) => q.segments);
    if (inputs.length > 0) c.dispatch({ kind: 'restore', inputs });
  } else if (queue.length > 0) {
    // Start the next queued input once this turn's end has been delivered.
    const next = queue.shift() as Input;
    setImmediate(() => {
      if (!c.runner.busy) send(c, next);
      else queue.unshift(next);
    });
  }
  c.bus.requestRender();
}

// What happens to an input before the model gets it: the user_prompt hooks (which may stop it), then the MCP
// resources its `@server:resource` mentions name, read and put after it. An input that needs neither goes out at once.

import type { Bus } from '../kernel/bus';
import { sanitize } from '../protocol/inert';
import type { RunnerOptions } from './runner-options';
import type { ActiveTurn } from './turn';

/** An input that names an MCP resource (`@server:name`). */
const MENTION = /(^|\s)@[A-Za-z0-9_-]+:\S/;

type Options = Pick<RunnerOptions, 'hooks' | 'expandInput'>;

/** Whether `input` has to wait for a hook or a resource before it is sent. */
export function waitsBeforeSending(o: Options, input: string): boolean {
  return o.hooks?.has('user_prompt') === true || (!!o.expandInput && MENTION.test(input));
}

/** The user_prompt hooks (which may stop the input), then its MCP resources read: what the model gets, or null. */
export async function beforeSending(bus: Bus, o: Options, turn: ActiveTurn, input: string): Promise<string | null> {
  const hooks = o.hooks;
  if (hooks?.has('user_prompt')) {
    const stopped = await hooks.userPrompt(input, turn.controller.signal);
    if (turn.cancelled) return null;
    if (stopped !== null) throw new Error(`a user_prompt hook stopped this input: ${stopped}`);
  }
  const content = await expanded(bus, o, turn, input);
  return turn.cancelled ? null : content;
}

/** The input as the model gets it: with what its MCP resource mentions name (a note for each). */
async function expanded(bus: Bus, o: Options, turn: ActiveTurn, input: string): Promise<string> {
  const expand = o.expandInput;
  if (!expand || !MENTION.test(input)) return input;
  const { text, notes } = await expand(input, turn.controller.signal);
  for (const note of notes) bus.emit('transcript.note', { text: sanitize(note) });
  if (text !== input && !turn.cancelled) bus.emit('turn.sent', { turnId: turn.id, text });
  return text;
}

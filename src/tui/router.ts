// Turns decoded input into commands and input events: a key runs the command
// the first of the active modes binds; text, pastes and the wheel become input
// events; a question or a list takes a lone letter as a key. What each does is
// up to the view stack (composer/stack.ts). Pure.

import type { Events } from '../bus';
import type { InputAction } from './input';
import type { Mode } from '../commands';
import { commandFor } from './keymap';

export type Routed =
  | { event: 'command'; payload: Events['command'] }
  | { event: 'input.text'; payload: Events['input.text'] }
  | { event: 'input.paste'; payload: Events['input.paste'] }
  | { event: 'input.wheel'; payload: Events['input.wheel'] };

/** Modes that take a lone letter as a key (y, n, a, j, k), never as text. */
const LETTER_KEYS: ReadonlySet<Mode> = new Set<Mode>(['approval', 'confirm', 'picker']);

/**
 * `modes` is where a key is looked up, the top view's first and the
 * composer's last: the first that binds it names the command, which then
 * travels the view stack from the top (a search takes any composer key as
 * "accept, then do this").
 */
export function route(action: InputAction, modes: readonly Mode[]): Routed[] {
  switch (action.kind) {
    case 'key': {
      for (const mode of modes) {
        const name = commandFor(mode, action.key);
        if (name) return [{ event: 'command', payload: { name } }];
      }
      return [];
    }
    case 'text': {
      // Only a lone keypress answers: text that came as one chunk (an IME, a text expander) is typing.
      const chars = [...action.text];
      if (chars.length === 1 && LETTER_KEYS.has(modes[0])) {
        const name = commandFor(modes[0], chars[0].toLowerCase());
        return name ? [{ event: 'command', payload: { name } }] : [{ event: 'input.text', payload: { text: action.text } }];
      }
      return [{ event: 'input.text', payload: { text: action.text } }];
    }
    case 'paste':
      return [{ event: 'input.paste', payload: { text: action.text } }];
    case 'wheel':
      return [{ event: 'input.wheel', payload: { dir: action.dir } }];
    case 'cpr':
      // Answers to milk's own questions, handled before routing.
      return [];
  }
}

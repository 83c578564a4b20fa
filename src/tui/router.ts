// Turns decoded input into what goes on the bus, by mode: a key runs the
// command its mode binds; in a search, any other composer key accepts the
// match and then does its own job (as in readline); text, pastes and the wheel
// become input events; an approval question takes single letters as keys. Pure.

import type { Events } from '../bus';
import type { InputAction } from './input';
import type { Mode } from '../commands';
import { commandFor } from './keymap';

export type Routed =
  | { event: 'command'; payload: Events['command'] }
  | { event: 'input.text'; payload: Events['input.text'] }
  | { event: 'input.paste'; payload: Events['input.paste'] }
  | { event: 'input.wheel'; payload: Events['input.wheel'] };

export function route(action: InputAction, mode: Mode, composerMode: Mode): Routed[] {
  switch (action.kind) {
    case 'key': {
      const name = commandFor(mode, action.key);
      if (name) return [{ event: 'command', payload: { name } }];
      const composerName = mode === 'search' ? commandFor(composerMode, action.key) : undefined;
      if (!composerName) return [];
      return [{ event: 'command', payload: { name: 'search.accept' } }, { event: 'command', payload: { name: composerName } }];
    }
    case 'text':
      // A question or a list takes single letters as keys, never as text.
      if (mode === 'approval' || mode === 'picker' || mode === 'confirm') {
        return [...action.text].flatMap((ch): Routed[] => {
          const name = commandFor(mode, ch.toLowerCase());
          return name ? [{ event: 'command', payload: { name } }] : [];
        });
      }
      return [{ event: 'input.text', payload: { text: action.text } }];
    case 'paste':
      return mode === 'picker' || mode === 'confirm' ? [] : [{ event: 'input.paste', payload: { text: action.text } }];
    case 'wheel':
      return [{ event: 'input.wheel', payload: { dir: action.dir } }];
    case 'cpr':
      // Answers to milk's own questions, handled before routing.
      return [];
  }
}

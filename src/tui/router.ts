// Turns decoded input into what the view stack takes: a key runs the command
// the first of the active modes binds (in the keymap in force); text and
// pastes go as they are; a view that says it takes lone letters (a question,
// a list: composer/views/registry.ts) gets one as a key; the wheel scrolls.
// What each does is up to the view stack (composer/stack.ts). Pure.

import type { InputAction } from './input';
import type { Mode } from '../composer/views/registry';
import type { ComposerInput } from '../composer/state';
import type { Keymap } from './keymap';
import { takesLetters } from '../composer/views/registry';

/** What goes to the view stack, or a wheel notch or the mouse's left button for the transcript. */
export type Routed =
  | Extract<ComposerInput, { kind: 'command' | 'text' | 'paste' }>
  | { kind: 'wheel'; dir: 'up' | 'down' }
  | Extract<InputAction, { kind: 'mouse' }>;

/**
 * `modes` is where a key is looked up, the top view's first and the
 * composer's last: the first that binds it names the command, which then
 * travels the view stack from the top (a search takes any composer key as
 * "accept, then do this").
 */
export function route(action: InputAction, modes: readonly Mode[], keymap: Keymap): Routed[] {
  switch (action.kind) {
    case 'key': {
      for (const mode of modes) {
        const name = keymap.commandFor(mode, action.key);
        if (name) return [{ kind: 'command', name }];
      }
      return [];
    }
    case 'text': {
      // Only a lone keypress answers: text that came as one chunk (an IME, a text expander) is typing.
      const chars = [...action.text];
      if (chars.length === 1 && takesLetters(modes[0])) {
        // The space bar comes as a space; a table names it `space` (the pager's page down).
        const key = chars[0] === ' ' ? 'space' : chars[0];
        const name = keymap.commandFor(modes[0], key) ?? keymap.commandFor(modes[0], key.toLowerCase());
        return name ? [{ kind: 'command', name }] : [{ kind: 'text', text: action.text }];
      }
      return [{ kind: 'text', text: action.text }];
    }
    case 'paste':
      return [{ kind: 'paste', text: action.text }];
    case 'wheel':
      return [{ kind: 'wheel', dir: action.dir }];
    case 'mouse':
      return [action];
    case 'cpr':
    case 'report':
    case 'focus':
    case 'syncReport':
    case 'background':
    case 'theme':
      // Answers to milk's own questions (and reports it asked for), handled before routing.
      return [];
  }
}

/**
 * Routing with chords: a key that begins one (Ctrl+X) is held as `prefix`
 * and the next key completes it. As in readline, a chord nothing binds does
 * nothing, and a character typed after the prefix is taken by it (or
 * completes it: Ctrl+X [).
 */
export function routeChord(
  action: InputAction,
  modes: readonly Mode[],
  prefix: string | null,
  keymap: Keymap,
): { routed: Routed[]; prefix: string | null } {
  if (prefix !== null && action.kind === 'key') {
    const chord = `${prefix} ${action.key}`;
    for (const mode of modes) {
      const name = keymap.commandFor(mode, chord);
      if (name) return { routed: [{ kind: 'command', name }], prefix: null };
    }
    return { routed: [], prefix: null };
  }
  if (prefix !== null && action.kind === 'text') {
    const [first, ...others] = [...action.text];
    const rest = others.join('');
    for (const mode of modes) {
      const name = keymap.commandFor(mode, `${prefix} ${first}`);
      if (name) return { routed: [{ kind: 'command', name }], prefix: null };
    }
    return { routed: rest ? route({ kind: 'text', text: rest }, modes, keymap) : [], prefix: null };
  }
  if (action.kind === 'key' && modes.some((m) => keymap.startsChord(m, action.key)))
    return { routed: [], prefix: action.key };
  return { routed: route(action, modes, keymap), prefix: prefix !== null && action.kind !== 'paste' ? prefix : null };
}

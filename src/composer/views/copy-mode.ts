// Copy mode (Ctrl+X [, tmux's key): the transcript from the keyboard. A cursor
// over the transcript's rows moves by character, word, row and page; v starts
// a selection at it, y copies the selection (or the row's whole line) and
// leaves; / searches the transcript, the cursor going to the match; Esc
// leaves. The cursor and the selection are the screen's (tui/transcript-
// select.ts): this view is the key table and the legend, each key an effect.

import type { CommandName, KeyNames } from './registry';
import type { ComposerInput } from '../state';
import { Handled, View, viewSpec, consume, pass } from './view';
import { type Inert, sanitize } from '../../protocol/inert';

export const COPY_SPEC = viewSpec({
  mode: 'copy',
  letters: true,
  commands: {
    'copy.left': { description: 'One character left' },
    'copy.right': { description: 'One character right' },
    'copy.up': { description: 'One row up' },
    'copy.down': { description: 'One row down' },
    'copy.wordNext': { description: 'To the next word' },
    'copy.wordPrev': { description: 'To the previous word' },
    'copy.lineStart': { description: 'To the start of the row' },
    'copy.lineEnd': { description: 'To the end of the row' },
    'copy.pageUp': { description: 'A page up' },
    'copy.pageDown': { description: 'A page down' },
    'copy.top': { description: "To the transcript's first row" },
    'copy.bottom': { description: "To the transcript's last row" },
    'copy.mark': { description: 'Start a selection at the cursor (again: drop it)' },
    'copy.yank': {
      description: 'Copy the selection (none: the line under the cursor) to the clipboard, and leave copy mode',
    },
    'copy.search': { description: 'Search the transcript; the cursor goes to the match' },
    'copy.exit': { description: 'Leave copy mode without copying' },
  },
  keys: [
    { keys: ['h', 'left'], command: 'copy.left' },
    { keys: ['l', 'right'], command: 'copy.right' },
    { keys: ['k', 'up'], command: 'copy.up' },
    { keys: ['j', 'down'], command: 'copy.down' },
    { keys: ['w', 'M-f'], command: 'copy.wordNext' },
    { keys: ['b', 'M-b'], command: 'copy.wordPrev' },
    { keys: ['0', 'home', 'C-a'], command: 'copy.lineStart' },
    { keys: ['$', 'end', 'C-e'], command: 'copy.lineEnd' },
    { keys: ['pageup', 'C-b'], command: 'copy.pageUp' },
    { keys: ['pagedown', 'C-f'], command: 'copy.pageDown' },
    { keys: ['g', 'M-<'], command: 'copy.top' },
    { keys: ['G', 'M->'], command: 'copy.bottom' },
    { keys: ['v', 'space', 'C-space'], command: 'copy.mark' },
    { keys: ['y', 'enter', 'M-w'], command: 'copy.yank' },
    { keys: ['/', '?', 'C-s', 'C-r'], command: 'copy.search' },
    { keys: ['escape', 'q', 'C-c', 'C-g'], command: 'copy.exit' },
  ],
});

export class CopyModeView implements View {
  readonly mode = 'copy' as const;

  /** `selecting`: a selection runs from where v was pressed (the prompt says so). */
  constructor(readonly selecting = false) {}

  keyMode(): 'copy' {
    return 'copy';
  }

  handle(input: ComposerInput): Handled {
    if (input.kind === 'command' && input.name.startsWith('copy.')) {
      const name = input.name;
      if (name === 'copy.search') return consume(this, { effects: [{ type: 'findTranscript' }] });
      const ends = name === 'copy.yank' || name === 'copy.exit';
      const next = ends ? null : name === 'copy.mark' ? new CopyModeView(!this.selecting) : this;
      return consume(next, { effects: [{ type: 'copyKey', name }] });
    }
    // Typing and other keys do nothing here: copy mode is left only by its own keys.
    if (input.kind === 'command' || input.kind === 'text' || input.kind === 'paste') return consume(this);
    return pass(this);
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const k = (command: CommandName): string => keys.key('copy', command);
    const moves = [k('copy.left'), k('copy.down'), k('copy.up'), k('copy.right')].join('');
    const legend =
      `${moves} ${k('copy.wordNext')} ${k('copy.wordPrev')}: move · ${k('copy.mark')}: select · ` +
      `${k('copy.yank')}: copy · ${k('copy.search')}: search · ${k('copy.exit')}: leave`;
    return { prompt: sanitize(this.selecting ? 'copy mode: selecting' : 'copy mode'), legend: sanitize(legend) };
  }
}

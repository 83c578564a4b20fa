// The resume picker: this session's conversations, newest first, drawn in
// the transcript's place. Enter resumes the selected one, Esc or Ctrl-C
// starts a new conversation instead; nothing else (typing, pastes, other
// keys) does anything while it is open. The rewind picker is the same list
// over this conversation's inputs: Enter goes back to before the one
// selected, Esc leaves everything as it was.

import type { CommandName, KeyNames } from './registry';
import { PickerState, movePicker, pickerLine, selected } from '../../session/picker';
import { GridRow, fit } from '../../kernel/rows';
import type { ComposerInput } from '../state';
import { Handled, PaintContext, View, ViewPaint, viewSpec, consume, pass } from './view';
import { type Inert, sanitize } from '../../protocol/inert';

export const PICKER_SPEC = viewSpec({
  mode: 'picker',
  letters: true,
  commands: {
    'picker.up': { description: 'The newer conversation' },
    'picker.down': { description: 'The older conversation' },
    'picker.choose': { description: 'Resume the selected conversation' },
    'picker.cancel': { description: 'Start a new conversation instead' },
  },
  keys: [
    { keys: ['up', 'C-p', 'k'], command: 'picker.up' },
    { keys: ['down', 'C-n', 'j'], command: 'picker.down' },
    { keys: ['enter'], command: 'picker.choose' },
    { keys: ['escape', 'C-c'], command: 'picker.cancel' },
  ],
});

export class PickerView implements View {
  readonly mode = 'picker' as const;

  constructor(readonly picker: PickerState) {}

  keyMode(): 'picker' {
    return 'picker';
  }

  handle(input: ComposerInput): Handled {
    if (input.kind !== 'command') return input.kind === 'text' || input.kind === 'paste' ? consume(this) : pass(this);
    switch (input.name) {
      case 'picker.up':
        return consume(new PickerView(movePicker(this.picker, -1)));
      case 'picker.down':
        return consume(new PickerView(movePicker(this.picker, 1)));
      case 'picker.choose':
        if (this.picker.kind === 'search') {
          const at = this.picker.found?.[this.picker.index];
          const found = { id: selected(this.picker).id, query: this.picker.query ?? '' };
          return consume(null, {
            effects: [{ type: 'openFound', ...found, session: at?.session ?? '', here: !!at?.here }],
          });
        }
        if (this.picker.kind === 'rewind')
          return consume(null, { effects: [{ type: 'rewind', index: Number(selected(this.picker).id) }] });
        return consume(null, { effects: [{ type: 'resume', id: selected(this.picker).id }] });
      case 'picker.cancel':
        // A rewind left is no rewind; a resume left is a new conversation.
        return consume(null, {
          effects: this.picker.kind === 'resume' || !this.picker.kind ? [{ type: 'newConversation' }] : [],
        });
      default:
        return consume(this);
    }
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const choose = keys.key('picker', 'picker.choose');
    const cancel = keys.key('picker', 'picker.cancel');
    if (this.picker.kind === 'rewind')
      return { prompt: sanitize('rewind to before an input'), legend: sanitize(`${choose} go back · ${cancel} stay`) };
    if (this.picker.kind === 'search')
      return {
        prompt: sanitize(`found: ${this.picker.query ?? ''}`),
        legend: sanitize(`${choose} open · ${cancel} stay`),
      };
    return { prompt: sanitize('resume a conversation'), legend: sanitize(`${choose} resume · ${cancel} new`) };
  }

  paint(): ViewPaint {
    return { area: 'transcript', wanted: Infinity, rows: (at) => pickerRows(this.picker, at) };
  }
}

/**
 * The resume or rewind picker, in the transcript's place: a title, then conversations (or inputs) around the selected
 * one.
 */
export function pickerRows(p: PickerState, { width, height, emoji, keys }: PaintContext): GridRow[] {
  const k = (command: CommandName): string => keys.key('picker', command);
  const move = `${k('picker.up')}/${k('picker.down')}`;
  const title =
    p.kind === 'search'
      ? `"${p.query ?? ''}" in every conversation, newest first: ${move} to choose, ${k('picker.choose')} to open it ` +
        `at the match, ${k('picker.cancel')} to stay`
      : p.kind === 'rewind'
        ? `Rewind to before an input: ${move} to choose, ${k('picker.choose')} to go back (it returns to the input ` +
          `box), ${k('picker.cancel')} to stay`
        : `Resume a conversation: ${move} to choose, ${k('picker.choose')} to resume, ${k('picker.cancel')} for ` +
          `a new one`;
  const rows: GridRow[] = [[{ text: fit(sanitize(title), width, emoji), style: 'bold' }], []];
  const room = Math.max(1, height - rows.length);
  const top = Math.max(0, Math.min(p.index - Math.floor(room / 2), p.items.length - room));
  p.items.slice(top, top + room).forEach((item, k) => {
    const on = top + k === p.index;
    rows.push([
      {
        text: fit(sanitize(`${on ? '› ' : '  '}${pickerLine(item, p.kind)}`), width, emoji),
        style: on ? 'highlight' : 'normal',
      },
    ]);
  });
  return rows;
}

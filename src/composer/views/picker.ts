// The resume picker: this session's conversations, newest first, drawn in
// the transcript's place. Enter resumes the selected one, Esc or Ctrl-C
// starts a new conversation instead; nothing else (typing, pastes, other
// keys) does anything while it is open.

import type { Binding } from '../../commands';
import { PickerState, movePicker, selected } from '../../session/picker';
import type { ComposerInput } from '../state';
import { Handled, View, ViewPaint, consume, pass } from './view';

export const PICKER_KEYS: readonly Binding[] = [
  { keys: ['up', 'C-p', 'k'], command: 'picker.up' },
  { keys: ['down', 'C-n', 'j'], command: 'picker.down' },
  { keys: ['enter'], command: 'picker.choose' },
  { keys: ['escape', 'C-c'], command: 'picker.cancel' },
];

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
        return consume(null, { effects: [{ type: 'resume', id: selected(this.picker).id }] });
      case 'picker.cancel':
        return consume(null, { effects: [{ type: 'newConversation' }] });
      default:
        return consume(this);
    }
  }

  status(): { prompt: string; legend: string } {
    return { prompt: 'resume a conversation', legend: 'Enter resume · Esc new' };
  }

  paint(): ViewPaint {
    return { kind: 'picker', picker: this.picker };
  }
}

// Every modal's key table, by mode: the key tables (tui/keymap.ts), /help and
// the README's key table read them from here. A new modal is its own file
// plus one line here (and its mode's name in commands.ts).

import type { Binding, Mode } from '../../commands';
import { APPROVAL_KEYS } from './approval';
import { CONFIRM_KEYS } from './confirm';
import { MENTION_KEYS } from './mention';
import { PICKER_KEYS } from './picker';
import { SEARCH_KEYS } from './search';

export const MODAL_KEYS: Readonly<Record<Exclude<Mode, 'idle' | 'busy'>, readonly Binding[]>> = {
  search: SEARCH_KEYS,
  confirm: CONFIRM_KEYS,
  approval: APPROVAL_KEYS,
  picker: PICKER_KEYS,
  mention: MENTION_KEYS,
};

// Every modal view's keys, by mode: its key table (tui/keymap.ts builds the
// tables in force from these and the person's own; /help and the README's key
// table read them), and whether it takes a lone letter as a key (y, n, j, k)
// rather than as typing. A new modal is its own file plus one line here (and
// its mode's name and commands in kernel/commands.ts).

import type { Mode } from '../../kernel/commands';
import { APPROVAL_SPEC, HUNKS_SPEC } from './approval';
import { CONFIRM_SPEC } from './confirm';
import { MENTION_SPEC } from './mention';
import { PICKER_SPEC } from './picker';
import { SEARCH_SPEC } from './search';
import { SLASH_SPEC } from './slash-menu';
import { PROVIDER_SPEC } from './provider-setup';
import { MODELS_SPEC } from './model-picker';
import { QUESTION_SPEC } from './question';
import { COPY_SPEC } from './copy-mode';
import { DIFF_SPEC } from './diff';
import { FIND_SPEC, FOUND_SPEC } from './transcript-find';
import type { ViewSpec } from './view';

export type ModalMode = Exclude<Mode, 'idle' | 'busy'>;

export const VIEW_SPECS: Readonly<Record<ModalMode, ViewSpec>> = {
  search: SEARCH_SPEC,
  confirm: CONFIRM_SPEC,
  approval: APPROVAL_SPEC,
  question: QUESTION_SPEC,
  picker: PICKER_SPEC,
  mention: MENTION_SPEC,
  slash: SLASH_SPEC,
  setup: PROVIDER_SPEC,
  models: MODELS_SPEC,
  copy: COPY_SPEC,
  find: FIND_SPEC,
  found: FOUND_SPEC,
  diff: DIFF_SPEC,
  hunks: HUNKS_SPEC,
};

export const MODAL_KEYS = Object.fromEntries(
  Object.entries(VIEW_SPECS).map(([mode, spec]) => [mode, spec.keys]),
) as Readonly<Record<ModalMode, ViewSpec['keys']>>;

/** Whether a lone letter typed in this mode is a key (an answer, a move), not typing. */
export function takesLetters(mode: Mode): boolean {
  return mode !== 'idle' && mode !== 'busy' && VIEW_SPECS[mode].letters;
}

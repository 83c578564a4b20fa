// The one registry of modes and key commands: the composer's own (kernel/commands.ts) and every modal view's, each
// declared in its view's file (its mode, its commands with what they do, its key table, whether it takes a lone
// letter as a key). The mode names, the command names and the whole command table are derived from the list below:
// tui/keymap.ts builds the tables in force from it and the person's own, /help and docs/keys.md's table read it. A
// new modal is its own file plus one line in SPECS.

import {
  type Binding as AnyBinding,
  COMPOSER_COMMANDS,
  COMPOSER_MODES,
  type CommandSpec,
  type ComposerCommand,
  type ComposerMode,
  type KeyNames as AnyKeyNames,
  withKeys,
} from '../../kernel/commands';
import { APPROVAL_SPEC, HUNKS_SPEC } from './approval';
import { CONFIRM_SPEC } from './confirm';
import { MENTION_SPEC } from './mention';
import { PICKER_SPEC } from './picker';
import { SEARCH_SPEC } from './search';
import { SLASH_SPEC } from './slash-menu';
import { PROVIDER_SPEC } from './provider-setup';
import { MODELS_SPEC } from './model-picker';
import { THEMES_SPEC } from './theme-picker';
import { QUESTION_SPEC } from './question';
import { COPY_SPEC } from './copy-mode';
import { DIFF_SPEC } from './diff';
import { FIND_SPEC, FOUND_SPEC } from './transcript-find';
import { HELP_QUERY_SPEC, HELP_SPEC } from './help';
import type { Opener, ViewSpec } from './view';

const SPECS = [
  SEARCH_SPEC,
  CONFIRM_SPEC,
  APPROVAL_SPEC,
  QUESTION_SPEC,
  PICKER_SPEC,
  MENTION_SPEC,
  SLASH_SPEC,
  PROVIDER_SPEC,
  MODELS_SPEC,
  THEMES_SPEC,
  COPY_SPEC,
  FIND_SPEC,
  FOUND_SPEC,
  DIFF_SPEC,
  HUNKS_SPEC,
  HELP_SPEC,
  HELP_QUERY_SPEC,
] as const;

type Specs = typeof SPECS;

/** A modal view's mode, as its spec names it. */
export type ModalMode = Specs[number]['mode'];

/** The modes keys are looked up in: the composer's two, then one per modal view. */
export type Mode = ComposerMode | ModalMode;

/** A command a modal view adds. */
type ViewCommand = Specs[number] extends infer S ? (S extends ViewSpec<string, infer C> ? C : never) : never;

export type CommandName = ComposerCommand | ViewCommand;

export type Binding = AnyBinding<CommandName>;

export type KeyNames = AnyKeyNames<Mode, CommandName>;

export const VIEW_SPECS = Object.fromEntries(SPECS.map((spec) => [spec.mode, spec])) as unknown as Readonly<
  Record<ModalMode, ViewSpec<ModalMode, CommandName>>
>;

export const MODES: readonly Mode[] = [...COMPOSER_MODES, ...SPECS.map((spec) => spec.mode)];

/** Every command: the composer's, then each view's (a command two views bind, as find's Esc, is one entry). */
export const COMMANDS: Readonly<Record<CommandName, CommandSpec>> = SPECS.reduce<Record<string, CommandSpec>>(
  (all, spec) => ({ ...all, ...spec.commands }),
  { ...COMPOSER_COMMANDS },
) as Record<CommandName, CommandSpec>;

/** The views bus events open (a tool's approval, the model's question, the step limit's): the coordinator listens. */
export const OPENERS: readonly Opener[] = SPECS.flatMap((spec: ViewSpec) => (spec.opens ? [spec.opens] : []));

export const MODAL_KEYS = Object.fromEntries(SPECS.map((spec) => [spec.mode, spec.keys])) as unknown as Readonly<
  Record<ModalMode, readonly Binding[]>
>;

/** Whether a lone letter typed in this mode is a key (an answer, a move), not typing. */
export function takesLetters(mode: Mode): boolean {
  return mode !== 'idle' && mode !== 'busy' && VIEW_SPECS[mode].letters;
}

/**
 * A command's description with the keys it names as they are bound: a description names another
 * command's key as `{command.name}` (never a key typed out), filled in from `keys` in `mode`.
 */
export function describeCommand(name: CommandName, keys: KeyNames, mode: Mode): string {
  return withKeys(COMMANDS[name].description, keys, mode);
}

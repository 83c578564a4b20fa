// What a modal is: a view on the stack over the composer (search, a yes/no
// question, a tool's approval, a picker). Each view owns its key table, its
// status-bar prompt and legend, what it paints, and what every input does
// while it is on top — including Ctrl-C, Esc and a paste — and says when it is
// done. The composer underneath is never replaced: a view may hand it a new
// state (a search accepted), nothing else. Pure: views are values.

import type { Binding, CommandSpec, ComposerCommand } from '../../kernel/commands';
import type { KeyNames, Mode } from './registry';
import type { EditorState } from '../../editor/model';
import type { EmojiWidths } from '../../editor/width';
import type { GridRow } from '../../kernel/rows';
import type { HistoryMode } from '../../settings/store';
import type { ComposerContext, ComposerInput, ComposerState, Effect } from '../state';
import type { Inert } from '../../protocol/inert';
import type { Events } from '../../kernel/bus';

/**
 * What a view declares of its keys (composer/views/registry.ts lists them): its mode, the commands it adds, each
 * described once, and its key table. The registry derives the modes, the command names and the whole table from these.
 */
export interface ViewSpec<M extends string = string, C extends string = string> {
  /** The mode its keys are looked up in while it is on top. */
  readonly mode: M;
  /** A lone letter typed while it is on top is a key (y, n, j), never typing. */
  readonly letters: boolean;
  /** The commands it adds: their names, and what each does (docs/keys.md's table and /help read them). */
  readonly commands: Readonly<Record<C, CommandSpec>>;
  /** Its key table, the defaults: the person may bind others (tui/keymap.ts). Its own commands, or the composer's. */
  readonly keys: readonly Binding<C | ComposerCommand>[];
  /** The bus event that opens it, if one does (a tool's approval, the model's question): the coordinator listens. */
  readonly opens?: Opener;
}

/** A view a bus event opens, made from the event as it comes and the time it is shown. */
export interface Opener {
  readonly event: keyof Events;
  open(payload: unknown, now: number): View;
}

/** The opener of a view on `event`, its payload typed as the bus types it. */
export function opensOn<E extends keyof Events>(event: E, open: (payload: Events[E], now: number) => View): Opener {
  return { event, open: open as (payload: unknown, now: number) => View };
}

/** A view's spec, its names kept as literals (so the registry can count them); a key run by no command fails here. */
export function viewSpec<const M extends string, const C extends string>(spec: {
  readonly mode: M;
  readonly letters: boolean;
  readonly commands: Readonly<Record<C, CommandSpec>>;
  readonly keys: readonly Binding<NoInfer<C> | ComposerCommand>[];
  readonly opens?: Opener;
}): ViewSpec<M, C> {
  return spec;
}

/** What a view knows of the world when an input reaches it. */
export interface ViewContext extends ComposerContext {
  /** When the key before this one came (an approval answers only after a pause). */
  readonly lastKeyAt: number;
}

export interface Handled {
  /** The view after the input; null when it is done and leaves the stack. */
  readonly view: View | null;
  /** The composer beneath, when the view changed it (a search accepted). */
  readonly composer?: ComposerState;
  readonly effects?: readonly Effect[];
  /** A view to open on top of this one (a search asks before deleting). */
  readonly push?: View;
  /** True: the input stops here. False: it goes on down the stack, and to the composer last. */
  readonly consumed: boolean;
}

/** What a view's rows are made for: the area's size, and what they name or measure. */
export interface PaintContext {
  readonly width: number;
  readonly height: number;
  readonly emoji: EmojiWidths;
  /** The keys as bound, for a title that says which to press. */
  readonly keys: KeyNames;
  readonly now: number;
  /** The history Up/Down walk (the search's overlay names the one it runs over). */
  readonly historyMode: HistoryMode;
  /** Markdown (a model's words) as rows `width` wide, styled as the transcript styles an answer. */
  markdown(src: string, width: number): GridRow[];
}

/**
 * What a view paints beside the composer and the status bar, through its own rows: in the transcript's
 * place (a picker) or in the rows just above the composer (a search's matches, the @ list), which the
 * painter sizes to `wanted` (at most a few rows) and hands to `rows`.
 */
export interface ViewPaint {
  readonly area: keyof ViewPaints;
  /** The rows it has to show (the overlay's height follows it; the transcript's place is the view's whole). */
  readonly wanted: number;
  /**
   * In the overlay: its rows are taken from the transcript's rather than drawn over its bottom rows (a question: what
   * was just said above it, a trust question's list or a diff, stays in view).
   */
  readonly pushes?: boolean;
  rows(at: PaintContext): GridRow[];
}

/** What the views paint in one frame: the topmost view's paint in each area, if any. */
export interface ViewPaints {
  /** In the transcript's place (a picker). */
  readonly transcript: ViewPaint | null;
  /** In the rows above the composer (a search's matches, the @ list). */
  readonly overlay: ViewPaint | null;
}

export interface View {
  /** Its key table's mode (the keymap's tables, composer/views/registry.ts) and its name in help. */
  readonly mode: Mode;
  /**
   * It takes keys only after this long without one (a question appearing as someone types): the screen is painted
   * again when it arms.
   */
  readonly pauseMs?: number;
  /** The mode a key is looked up in now, or null to let keys fall to the view below (an approval during its pause). */
  keyMode(time: { now: number; lastKeyAt: number }): Mode | null;
  handle(input: ComposerInput, composer: ComposerState, ctx: ViewContext): Handled;
  /** The status bar's prompt, and the keys that answer it (never cut off), named as they are bound. */
  status(time: { now: number; lastKeyAt: number }, keys: KeyNames): { prompt: Inert; legend: Inert | null };
  /** The composer as this view shows it (a search shows its match), or null to show the draft. */
  shown?(composer: ComposerState): { editor: EditorState; highlight: { start: number; end: number } | null } | null;
  paint?(): ViewPaint | null;
}

/** The input goes on down the stack, the view unchanged. */
export function pass(view: View): Handled {
  return { view, consumed: false };
}

/** The input stops here. */
export function consume(view: View | null, extra: Omit<Handled, 'view' | 'consumed'> = {}): Handled {
  return { view, consumed: true, ...extra };
}

// The composer and the views stacked over it, as one value, and how an input
// travels: from the top view down, each taking it or letting it fall, to the
// composer's reducer last. Opening a search is the stack's own business; every
// other effect goes back to the coordinator. What a frame shows is read from
// here once per paint (selectors below). Pure.

import type { KeyNames, Mode } from './views/registry';
import type { EditorState } from '../editor/model';
import { reduce } from './reducer';
import type { CarriedEffect, ComposerInput, ComposerState, Effect, StackEffect } from './state';
import { initialComposer } from './state';
import { MentionView } from './views/mention';
import { SearchView } from './views/search';
import { SlashMenuView } from './views/slash-menu';
import type { View, ViewContext, ViewPaint, ViewPaints } from './views/view';
import { pushAll } from '../kernel/arrays';
import type { Inert } from '../protocol/inert';

export interface UiState {
  readonly composer: ComposerState;
  /** Bottom first; the last is on top. */
  readonly views: readonly View[];
}

export const initialUi: UiState = { composer: initialComposer, views: [] };

export function dispatch(
  ui: UiState,
  input: ComposerInput,
  ctx: ViewContext,
): { ui: UiState; effects: CarriedEffect[] } {
  let composer = ui.composer;
  const views = [...ui.views];
  const effects: Effect[] = [];
  for (let i = views.length - 1; i >= 0; i--) {
    const r = views[i].handle(input, composer, ctx);
    composer = r.composer ?? composer;
    pushAll(effects, r.effects ?? []);
    if (r.view) views[i] = r.view;
    else views.splice(i, 1);
    if (r.push) views.splice(r.view ? i + 1 : i, 0, r.push);
    if (r.consumed) return open({ composer, views }, effects, ctx);
  }
  const reduced = reduce(composer, input, ctx);
  pushAll(effects, reduced.effects);
  return open({ composer: reduced.state, views }, effects, ctx);
}

const isStackEffect = (e: Effect): e is StackEffect =>
  e.type === 'openSearch' || e.type === 'openMentions' || e.type === 'openSlash' || e.type === 'openView';

/** Opens the views that effects ask for, on top; the rest are the coordinator's. */
export function open(
  ui: UiState,
  effects: readonly Effect[],
  ctx: Pick<ViewContext, 'history' | 'commands'>,
): { ui: UiState; effects: CarriedEffect[] } {
  const rest: CarriedEffect[] = [];
  let views = ui.views;
  const pending = [...effects];
  for (let e = pending.shift(); e; e = pending.shift()) {
    if (!isStackEffect(e)) {
      rest.push(e);
      continue;
    }
    if (e.type === 'openView') views = [...views, e.view];
    else if (e.type === 'openSearch')
      views = [
        ...views,
        SearchView.start(e.direction, ui.composer, ctx.history, e.vi ?? null).typeAhead(e.typed ?? ''),
      ];
    else if (e.type === 'openSlash') views = [...views, SlashMenuView.open(ctx.commands?.() ?? [], ui.composer.editor)];
    else {
      const opened = MentionView.open(e.at, ui.composer.editor);
      views = [...views, opened.view];
      pushAll(pending, opened.effects);
    }
  }
  return { ui: views === ui.views ? ui : { ...ui, views }, effects: rest };
}

export function top(ui: UiState): View | null {
  return ui.views[ui.views.length - 1] ?? null;
}

/** The modes a key is looked up in, top first, ending with the composer's own (idle or busy). */
export function keyModes(ui: UiState, composerMode: Mode, time: { now: number; lastKeyAt: number }): Mode[] {
  const modes: Mode[] = [];
  for (let i = ui.views.length - 1; i >= 0; i--) {
    const m = ui.views[i].keyMode(time);
    if (m) modes.push(m);
  }
  modes.push(composerMode);
  return modes;
}

/** What the composer area shows: the topmost view's version of it (a search's match), else the draft. */
export function shownComposer(ui: UiState): { editor: EditorState; highlight: { start: number; end: number } | null } {
  for (let i = ui.views.length - 1; i >= 0; i--) {
    const shown = ui.views[i].shown?.(ui.composer);
    if (shown) return shown;
  }
  return { editor: ui.composer.editor, highlight: null };
}

/** The status bar's prompt and legend: the top view's, if any. */
export function shownStatus(
  ui: UiState,
  time: { now: number; lastKeyAt: number },
  keys: KeyNames,
): { prompt: Inert | null; legend: Inert | null } {
  const view = top(ui);
  return view ? view.status(time, keys) : { prompt: null, legend: null };
}

/** What the views paint besides, through their own rows: the topmost in each area. */
export function shownPaint(ui: UiState): ViewPaints {
  let transcript: ViewPaint | null = null;
  let overlay: ViewPaint | null = null;
  for (let i = ui.views.length - 1; i >= 0; i--) {
    const p = ui.views[i].paint?.() ?? null;
    if (p?.area === 'transcript') transcript ??= p;
    if (p?.area === 'overlay') overlay ??= p;
  }
  return { transcript, overlay };
}

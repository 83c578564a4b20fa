// A composer (and the views over it) for unit tests, driven as a person
// drives it: keys by command name, typing, pastes. No bus, no runner, no
// temp dir; history lists are plain arrays and time a number passed in.
import { CLUSTERING } from '../../src/editor/width';
import type { CommandName } from '../../src/composer/views/registry';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap';
import { UiState, dispatch, initialUi, shownComposer, shownStatus, top } from '../../src/composer/stack';
import { MentionView } from '../../src/composer/views/mention';
import type { ComposerInput, Effect } from '../../src/composer/state';
import type { ViewContext } from '../../src/composer/views/view';
import * as ed from '../../src/editor/model';
import type { HistoryEntry } from '../../src/history/rules';

export const entry = (text: string): HistoryEntry => ({
  ts: '2026-01-01T00:00:00.000Z',
  segments: [{ type: 'text', text }],
});

/** A composer (and the views over it) driven like a person would: keys by command name, typing, pastes. */
export function composer(history: string[] = [], world: Partial<ViewContext> = {}) {
  let ui: UiState = initialUi;
  const effects: Effect[] = [];
  const ctx: { -readonly [K in keyof ViewContext]: ViewContext[K] } = {
    history: history.map(entry),
    busy: false,
    force: false,
    mode: 'ask' as const,
    now: 10_000,
    lastKeyAt: -Infinity,
    emoji: CLUSTERING,
    ...world,
  };
  const feed = (input: ComposerInput) => {
    const r = dispatch(ui, input, ctx);
    ui = r.ui;
    effects.push(...r.effects);
    return r.effects;
  };
  return {
    ctx,
    get ui() {
      return ui;
    },
    set ui(next: UiState) {
      ui = next;
    },
    /** What the composer shows (a search's match), and the navigation beneath. */
    get state() {
      return { editor: shownComposer(ui).editor, nav: ui.composer.nav };
    },
    get draft() {
      return ui.composer.editor;
    },
    get search() {
      return top(ui)
        ? { prompt: shownStatus(ui, ctx, DEFAULT_KEYMAP).prompt, highlight: shownComposer(ui).highlight }
        : null;
    },
    get text() {
      return ed.expandedText(shownComposer(ui).editor);
    },
    get mode() {
      return top(ui)?.mode ?? (ctx.busy ? 'busy' : 'idle');
    },
    effects,
    run: (...names: CommandName[]) => names.flatMap((name) => feed({ kind: 'command', name })),
    type: (text: string) => feed({ kind: 'text', text }),
    paste: (text: string) => feed({ kind: 'paste', text }),
    /** The @-mention picker's list, while it is open. */
    get mentions() {
      const v = top(ui);
      return v instanceof MentionView ? v.list : null;
    },
    feed,
  };
}

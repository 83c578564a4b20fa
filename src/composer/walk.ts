// Up and Down over the composer (a line, or a step through history where they browse), a history step wherever the
// cursor is, and readline's prefix search: the draft and its walk through history, state in, state out. Pure.

import * as ed from '../editor/model';
import * as nav from '../history/navigator';
import type { ComposerContext, ComposerState } from './state';
import type { CommandName } from './views/registry';

/** Up and Down (a line, or the history where they browse), a history step wherever the cursor is, a prefix search. */
export function walk(s: ComposerState, name: CommandName, ctx: ComposerContext): ComposerState {
  const dir = name === 'editor.up' || name === 'history.older' || name === 'history.searchPrefixBackward' ? -1 : 1;
  if (name === 'history.searchPrefixBackward' || name === 'history.searchPrefixForward') {
    const step = nav.prefixStep(s.nav, s.editor, ctx.history, dir);
    return step ? { ...s, nav: step.nav, editor: step.editor } : s;
  }
  if (name.startsWith('history.') || nav.shouldBrowse(s.nav, s.editor, dir)) return browse(s, dir, ctx);
  return { ...s, editor: ed.moveVertical(s.editor, dir, ctx.emoji) ?? s.editor };
}

function browse(s: ComposerState, dir: -1 | 1, ctx: ComposerContext): ComposerState {
  const step = dir < 0 ? nav.older(s.nav, s.editor, ctx.history) : nav.newer(s.nav, s.editor, ctx.history);
  return step ? { ...s, nav: step.nav, editor: step.editor } : s;
}

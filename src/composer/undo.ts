// The composer's undo steps (the reducer keeps them; vi's `u` takes one too). Pure.

import type { ComposerState } from './state';

/** Ctrl+_ (back a step) or Alt+_ (forward again); the cursor goes where that draft had it. */
export function undoStep(s: ComposerState, way: 'undo' | 'redo'): ComposerState {
  const from = (way === 'undo' ? s.undo : s.redo) ?? [];
  if (from.length === 0) return s;
  const to = (way === 'undo' ? s.redo : s.undo) ?? [];
  const editor = from[from.length - 1];
  const rest = from.slice(0, -1);
  const moved = [...to, s.editor];
  return way === 'undo'
    ? { ...s, editor, undo: rest, redo: moved, typing: false }
    : { ...s, editor, redo: rest, undo: moved, typing: false };
}

// The kill ring, as readline keeps it: each kill is kept (the newest for
// Ctrl+Y, MAX_RING before it for Alt+Y to walk back through).

import { insertClip, removeRange } from './clips';
import type { EditorState } from './model';
import { isWordChar, lineEnd, lineStart, notSpace, scanBack, scanForward } from './text';

/** Kills kept in the ring besides the newest. */
export const MAX_RING = 60;

function kill(s: EditorState, from: number, to: number): EditorState {
  if (to <= from) return s;
  const { state, removed } = removeRange(s, from, to);
  const ring = s.killed ? [...(s.ring ?? []), s.killed].slice(-MAX_RING) : s.ring;
  return { ...state, killed: removed, ring, yanked: null };
}

/** Ctrl+K: to the end of the line; at the end of a line, joins the next one. */
export function killToLineEnd(s: EditorState): EditorState {
  const end = lineEnd(s.text, s.cursor);
  return kill(s, s.cursor, end === s.cursor ? Math.min(end + 1, s.text.length) : end);
}

/** Ctrl+U: to the start of the line; at the start of a line, joins the previous one. */
export function killToLineStart(s: EditorState): EditorState {
  const start = lineStart(s.text, s.cursor);
  return kill(s, start === s.cursor ? Math.max(start - 1, 0) : start, s.cursor);
}

/** Ctrl+W: back to the previous whitespace. */
export function killWordBack(s: EditorState): EditorState {
  return kill(s, scanBack(s.text, s.cursor, notSpace), s.cursor);
}

/** Alt+Backspace: back to the start of the word. */
export function killAlnumWordBack(s: EditorState): EditorState {
  return kill(s, scanBack(s.text, s.cursor, isWordChar), s.cursor);
}

/** Alt+D: forward to the end of the word. */
export function killWordForward(s: EditorState): EditorState {
  return kill(s, s.cursor, scanForward(s.text, s.cursor, isWordChar));
}

/** Ctrl+Y: inserts what the last kill removed. */
export function yank(s: EditorState): EditorState {
  if (!s.killed?.text) return s;
  return { ...insertClip(s, s.killed), yanked: { start: s.cursor, end: s.cursor + s.killed.text.length, back: 0 } };
}

/**
 * Alt+Y right after Ctrl+Y (or another Alt+Y): the text just yanked is
 * replaced by the kill before it, round the ring, as readline's yank-pop.
 * Anywhere else it does nothing.
 */
export function yankPop(s: EditorState): EditorState {
  const y = s.yanked;
  const all = s.killed ? [...(s.ring ?? []), s.killed] : [];
  if (!y || all.length < 2 || s.cursor !== y.end) return s;
  const shown = all[all.length - 1 - y.back];
  if (s.text.slice(y.start, y.end) !== shown.text) return s;
  const back = (y.back + 1) % all.length;
  const clip = all[all.length - 1 - back];
  const { state } = removeRange(s, y.start, y.end);
  return {
    ...insertClip({ ...state, cursor: y.start }, clip),
    yanked: { start: y.start, end: y.start + clip.text.length, back },
  };
}

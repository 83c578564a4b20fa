// The two edits every other is made of: a clip (text with its paste segments)
// inserted at the cursor, and a range taken out with the pastes inside it.

import type { Clip, EditorState } from './model';
import { countMarks } from './text';

/** `clip` inserted at the cursor, the cursor after it. */
export function insertClip(s: EditorState, clip: Clip): EditorState {
  if (!clip.text) return s;
  const k = countMarks(s.text, 0, s.cursor);
  const pastes = clip.pastes.length ? [...s.pastes.slice(0, k), ...clip.pastes, ...s.pastes.slice(k)] : s.pastes;
  return {
    ...s,
    text: s.text.slice(0, s.cursor) + clip.text + s.text.slice(s.cursor),
    pastes,
    cursor: s.cursor + clip.text.length,
    goalCol: null,
  };
}

/** Text [from, to) taken out, with the paste segments inside it; the cursor kept in place or moved back with it. */
export function removeRange(s: EditorState, from: number, to: number): { state: EditorState; removed: Clip } {
  if (to <= from) return { state: { ...s, goalCol: null }, removed: { text: '', pastes: [] } };
  const k0 = countMarks(s.text, 0, from);
  const k1 = k0 + countMarks(s.text, from, to);
  const removed = { text: s.text.slice(from, to), pastes: s.pastes.slice(k0, k1) };
  const state: EditorState = {
    ...s,
    text: s.text.slice(0, from) + s.text.slice(to),
    pastes: k1 > k0 ? [...s.pastes.slice(0, k0), ...s.pastes.slice(k1)] : s.pastes,
    cursor: s.cursor > to ? s.cursor - (to - from) : Math.min(s.cursor, from),
    goalCol: null,
  };
  return { state, removed };
}

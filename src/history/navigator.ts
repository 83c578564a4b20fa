// Up/Down through a history list from the composer: the first step saves the
// draft (text and cursor), Down past the newest entry brings it back exactly,
// and recalling never changes a stored entry. Pure: state in, state out.

import * as ed from '../editor/model';
import type { HistoryEntry } from './rules';

export interface NavState {
  /** Index into the list being browsed; null while on the draft. */
  readonly index: number | null;
  /** The composer as it was before the first step back. */
  readonly draft: ed.EditorState | null;
  /** The composer as recalled, to tell whether it has been edited since. */
  readonly recalled: ed.EditorState | null;
  /** A prefix search going on (readline's history-search-backward): what it looks for, the text it last found. */
  readonly prefix?: { readonly text: string; readonly found: string | null } | null;
}

export const idleNav: NavState = { index: null, draft: null, recalled: null };

export interface Step {
  nav: NavState;
  editor: ed.EditorState;
}

/** The composer still holds exactly what was recalled (cursor moves aside). */
export function isUnedited(nav: NavState, editor: ed.EditorState): boolean {
  return nav.recalled !== null && nav.recalled.text === editor.text && nav.recalled.pastes === editor.pastes;
}

/**
 * Whether Up/Down should browse history rather than move the cursor: on the
 * first (Up) or last (Down) line, in an empty composer, or on an unedited recall.
 */
export function shouldBrowse(nav: NavState, editor: ed.EditorState, dir: -1 | 1): boolean {
  if (ed.isEmpty(editor) || isUnedited(nav, editor)) return true;
  return dir < 0 ? ed.onFirstLine(editor) : ed.onLastLine(editor);
}

function recall(nav: NavState, editor: ed.EditorState, entries: readonly HistoryEntry[], index: number): Step {
  const recalled = ed.replaceWith(editor, entries[index].segments);
  return { nav: { ...nav, index, recalled }, editor: recalled };
}

/** One step older. Null when there is nothing older. */
export function older(nav: NavState, editor: ed.EditorState, entries: readonly HistoryEntry[]): Step | null {
  const from = nav.index ?? entries.length;
  if (from <= 0) return null;
  const draft = nav.index === null ? editor : nav.draft;
  return recall({ ...nav, draft }, editor, entries, Math.min(from, entries.length) - 1);
}

/** One step newer; past the newest entry, the draft comes back. Null when already on the draft. */
export function newer(nav: NavState, editor: ed.EditorState, entries: readonly HistoryEntry[]): Step | null {
  if (nav.index === null) return null;
  if (nav.index + 1 < entries.length) return recall(nav, editor, entries, nav.index + 1);
  const draft = nav.draft ?? ed.emptyEditor;
  return { nav: idleNav, editor: { ...draft, killed: editor.killed, ring: editor.ring } };
}

/** Jumps straight to an entry (as search does); the draft is saved if not yet. */
export function jumpTo(nav: NavState, editor: ed.EditorState, entries: readonly HistoryEntry[], index: number): Step {
  const draft = nav.index === null ? editor : nav.draft;
  return recall({ ...nav, draft }, editor, entries, index);
}

/**
 * readline's history-search-backward (dir -1) and -forward (1): the next entry older or newer than the one shown that
 * starts with the text before the cursor, the cursor left at the end of that text; a text found just before is
 * passed over. The text is taken when a search begins (a recall since left as it was goes on with the same one); with
 * none before the cursor it is Up/Down's step. Null: no entry further on starts with it (the line stays as it is).
 */
export function prefixStep(
  nav: NavState,
  editor: ed.EditorState,
  entries: readonly HistoryEntry[],
  dir: -1 | 1,
): Step | null {
  const going = nav.prefix && isUnedited(nav, editor) && editor.cursor === nav.prefix.text.length ? nav.prefix : null;
  const run = going ?? { text: editor.text.slice(0, editor.cursor), found: null };
  if (run.text === '') return dir < 0 ? older(nav, editor, entries) : newer(nav, editor, entries);
  for (let i = (nav.index ?? entries.length) + dir; i >= 0 && i < entries.length; i += dir) {
    const text = ed.expandedText(ed.replaceWith(ed.emptyEditor, entries[i].segments));
    if (!text.startsWith(run.text) || text === run.found) continue;
    const draft = nav.index === null ? editor : nav.draft;
    const step = recall({ ...nav, draft, prefix: { text: run.text, found: text } }, editor, entries, i);
    const at = { ...step.editor, cursor: run.text.length, goalCol: null };
    return { nav: { ...step.nav, recalled: at }, editor: at };
  }
  return null;
}

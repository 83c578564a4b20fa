// An incremental search as the composer lives it: Ctrl+R / Ctrl+S start or
// step it, typing extends the query, the match is shown in the composer, and
// leaving it either keeps the match or gives back exactly what was there.
// The matching itself is src/search; this module only moves composer state.

import * as ed from '../editor/model';
import * as nav from '../history/navigator';
import type { HistoryEntry } from '../history/rules';
import * as search from '../search/search';
import { entryText } from '../search/index';
import type { ComposerState, SearchSession } from './state';

/** Ctrl+R / Ctrl+S: starts a search over `list`, or steps the running one. */
export function searchStep(s: ComposerState, direction: search.Direction, list: readonly HistoryEntry[]): ComposerState {
  if (!s.search) {
    // Browsing when it began: the search starts at the entry shown, as bash's does.
    return { ...s, search: { state: search.startSearch(direction, s.nav.index ?? undefined), original: s.editor, originalNav: s.nav, list } };
  }
  return show(s, search.searchAgain(s.search.state, s.search.list, direction, s.lastQuery));
}

/** Printable text extends the query, one step per character so Backspace undoes exactly one. */
export function searchType(s: ComposerState, text: string): ComposerState {
  if (!s.search) return s;
  let state = s.search.state;
  for (const ch of text) state = search.typeQuery(state, s.search.list, ch);
  return show(s, state);
}

/**
 * The same query, in the same direction, run afresh over `list` (Ctrl+T's
 * other history, or the list after a deletion), from its newest or oldest end.
 */
export function searchAgainIn(s: ComposerState, list: readonly HistoryEntry[]): ComposerState {
  if (!s.search) return s;
  const { direction, query } = s.search.state;
  let state = search.startSearch(direction);
  for (const ch of query) state = search.typeQuery(state, list, ch);
  return show({ ...s, search: { ...s.search, list, confirmDelete: false } }, state);
}

/** Asks whether to delete the selected entry (nothing selected: nothing to ask). */
export function askDelete(s: ComposerState): ComposerState {
  return s.search?.state.match ? { ...s, search: { ...s.search, confirmDelete: true } } : s;
}

/** The answer: the text of the entry to forget, or null to keep it. Either way the search goes on. */
export function answerDelete(s: ComposerState, yes: boolean): { state: ComposerState; forget: string | null } {
  const session = s.search;
  if (!session?.confirmDelete) return { state: s, forget: null };
  const state = { ...s, search: { ...session, confirmDelete: false } };
  const match = session.state.match;
  return { state, forget: yes && match ? entryText(session.list, match.index) : null };
}

export function searchBackspace(s: ComposerState): ComposerState {
  return s.search ? show(s, search.backspaceQuery(s.search.state)) : s;
}

/** The match goes into the composer, cursor on it so a long entry scrolls to it. */
function show(s: ComposerState, state: search.SearchState): ComposerState {
  const session = s.search as SearchSession;
  const next = { ...session, state };
  if (!state.match) return { ...s, search: next, editor: session.original };
  const entry = session.list[state.match.index];
  const shown = ed.replaceWith(session.original, entry.segments);
  const at = search.bufferRange(entry.segments, state.match.start, state.match.end);
  return { ...s, search: next, editor: { ...shown, cursor: at.start } };
}

/** Leaves the search: accepting keeps the match (as a recalled entry); otherwise the composer gets back what it held. */
export function endSearch(s: ComposerState, options: { accept: boolean }): ComposerState {
  const session = s.search;
  if (!session) return s;
  const { query, match } = session.state;
  const lastQuery = options.accept && query ? query : s.lastQuery;
  const step = options.accept && match
    ? nav.jumpTo(session.originalNav, session.original, session.list, match.index)
    : { nav: session.originalNav, editor: session.original };
  return { ...s, search: null, lastQuery, nav: step.nav, editor: step.editor };
}

/** What the status bar and composer show during a search. */
export function searchView(s: ComposerState): { prompt: string; highlight: { start: number; end: number } | null } | null {
  const session = s.search;
  if (!session) return null;
  const { state } = session;
  if (session.confirmDelete) return { prompt: 'delete this entry from the session and global history? y / n', highlight: null };
  const prefix = `(${state.failing ? 'failing ' : ''}${state.direction}-i-search)\`${state.query}': `;
  if (!state.match) return { prompt: prefix, highlight: null };
  const entry = session.list[state.match.index];
  const text = entryText(session.list, state.match.index);
  // The prompt shows the line the match is on, as bash puts its cursor there; no split of a huge entry on every paint.
  return { prompt: prefix + search.lineAt(text, state.match.start).line, highlight: search.bufferRange(entry.segments, state.match.start, state.match.end) };
}

// The composer in vi mode (config `editingMode: "vi"`, --vi): readline's insert and normal states and vim's visual
// ones over the draft. In the insert state keys type as in emacs mode; Esc goes to the normal state (whatever else
// Esc does is the normal state's: stop a turn, Esc Esc rewind). There, letters are vi commands (editor/vi.ts): `u` is
// the composer's undo, `j`/`k` are Up/Down (lines of the draft, then history), and sending an input starts the next
// one in the insert state, as readline does. Pure.

import type { ComposerInput, ComposerState, Reduced } from './state';
import * as ed from '../editor/model';
import * as nav from '../history/navigator';
import type { HistoryEntry } from '../history/rules';
import { emptyViMemory, normalCursor, overwrite, selection, viEscape, viKey } from '../editor/vi';
import type { ViMemory, ViState } from '../editor/vi';

/** vi's part of the composer: the state, the session's registers and last change, a command's pending keys. */
export interface ViComposer {
  readonly state: ViState;
  readonly memory: ViMemory;
  readonly pending: string;
  /** What was typed since the insert state began: the last change's text, for `.`. */
  readonly inserted: string;
  /** The way the last `/` (older) or `?` (newer) searched, which `n` repeats and `N` reverses. */
  readonly searched?: -1 | 1;
}

export const viStart: ViComposer = { state: 'insert', memory: emptyViMemory, pending: '', inserted: '' };

/** What the vi layer asks of the reducer beneath it. */
export interface ViBase {
  /** The input as emacs mode reduces it. */
  reduce(s: ComposerState, input: ComposerInput): Reduced;
  /** The composer's undo (`u`). */
  undo(s: ComposerState): ComposerState;
  /** The history Up and Down walk, oldest first. */
  history(): readonly HistoryEntry[];
}

/** `n` and `N`: the last search's query again, a step older (-1) or newer from the entry shown; none: as it was. */
function searchAgain(s: ComposerState, entries: readonly HistoryEntry[], dir: -1 | 1): ComposerState {
  const q = s.lastQuery;
  if (!q) return s;
  for (let i = (s.nav.index ?? entries.length) + dir; i >= 0 && i < entries.length; i += dir) {
    if (!ed.segmentsText(entries[i].segments).includes(q)) continue;
    const step = nav.jumpTo(s.nav, s.editor, entries, i);
    return { ...s, nav: step.nav, editor: step.editor };
  }
  return s;
}

/** The state's name for the status bar. */
export function viStateName(vi: ViComposer | undefined): string {
  const names: Record<ViState, string> = {
    insert: 'INSERT',
    replace: 'REPLACE',
    normal: 'NORMAL',
    visual: 'VISUAL',
    visualLine: 'V-LINE',
  };
  return names[(vi ?? viStart).state];
}

/** What a visual state lights in the draft: its selection; null in the other states. */
export function viHighlight(s: ComposerState): { start: number; end: number } | null {
  return s.vi ? selection(s.editor, s.vi.memory, s.vi.state) : null;
}

const ESCAPES = new Set(['session.rewind', 'turn.cancel']);
const TAKES = new Set(['composer.submit', 'composer.queue', 'composer.steer']);

/** An input in vi mode, or null where emacs mode's reduction stands as it is. */
export function viInput(s: ComposerState, input: ComposerInput, base: ViBase): Reduced | null {
  const vi = s.vi ?? viStart;
  if (input.kind === 'command') {
    // Esc leaves the insert, replace and visual states; in the normal state it does what it does in emacs mode.
    if (ESCAPES.has(input.name) && vi.state !== 'normal') {
      const { editor, memory } = viEscape(s.editor, vi.memory, vi.state, vi.inserted);
      return {
        state: { ...s, editor, vi: { ...vi, state: 'normal', memory, pending: '', inserted: '' } },
        effects: [],
      };
    }
    if (TAKES.has(input.name)) {
      const r = base.reduce(s, input);
      const taken = r.state.editor.text === '' && s.editor.text !== '';
      return taken ? { ...r, state: { ...r.state, vi: { ...vi, state: 'insert', pending: '', inserted: '' } } } : r;
    }
    return null;
  }
  if (input.kind !== 'text') return null;
  if (vi.state === 'insert') {
    const r = base.reduce(s, input);
    return { ...r, state: { ...r.state, vi: { ...vi, inserted: vi.inserted + input.text } } };
  }
  if (vi.state === 'replace') {
    const editor = overwrite(s.editor, input.text);
    return { state: { ...s, editor, vi: { ...vi, inserted: vi.inserted + input.text } }, effects: [] };
  }
  return normalKeys(s, vi, input.text, base);
}

/** Keys in the normal or a visual state, one command at a time; once one opens the insert state, the rest is typed. */
function normalKeys(s: ComposerState, vi: ViComposer, keys: string, base: ViBase): Reduced {
  let state = s;
  let v = vi;
  const effects: Reduced['effects'][number][] = [];
  const chars = [...keys];
  for (let n = 0; n < chars.length; n++) {
    if (v.state === 'insert' || v.state === 'replace') {
      const rest = chars.slice(n).join('');
      const r = viInput({ ...state, vi: v }, { kind: 'text', text: rest }, base);
      return r ? { state: r.state, effects: [...effects, ...r.effects] } : { state: { ...state, vi: v }, effects };
    }
    const step = viKey(state.editor, v.memory, v.state, v.pending, chars[n]);
    state = { ...state, editor: step.editor };
    v = { ...v, state: step.state, memory: step.memory, pending: step.pending, inserted: '' };
    if (step.effect === 'undo') state = base.undo(state);
    else if (step.effect === 'searchOlder' || step.effect === 'searchNewer') {
      // readline's `/` and `?`: the history searched for what is typed after them, taken on Enter.
      const older = step.effect === 'searchOlder';
      v = { ...v, searched: older ? -1 : 1 };
      // Keys that came with it in one input are the query's start.
      const typed = chars.slice(n + 1).join('');
      effects.push({ type: 'openSearch', direction: older ? 'reverse' : 'forward', vi: older ? '/' : '?', typed });
      return { state: { ...state, vi: v }, effects };
    } else if (step.effect === 'searchAgain' || step.effect === 'searchBack') {
      const dir = (v.searched ?? -1) * (step.effect === 'searchAgain' ? 1 : -1);
      state = searchAgain(state, base.history(), dir as -1 | 1);
    } else if (step.effect === 'older' || step.effect === 'newer') {
      const r = base.reduce(state, { kind: 'command', name: step.effect === 'older' ? 'editor.up' : 'editor.down' });
      state = r.state;
      for (const e of r.effects) effects.push(e);
    }
    if (step.effect && step.effect !== 'bell')
      state = { ...state, editor: { ...state.editor, cursor: normalCursor(state.editor.text, state.editor.cursor) } };
  }
  return { state: { ...state, vi: v }, effects };
}

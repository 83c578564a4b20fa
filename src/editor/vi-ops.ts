// vi's edits (editor/vi.ts reads the keys that ask for them): an operator over a range, whole lines, a put, the
// insert state's entries, `r`, `~`, the replace state's typing; registers (the kill ring's newest is the unnamed one).
// Pure.

import type { Clip, EditorState } from './model';
import { insertClip, removeRange } from './clips';
import { MAX_RING } from './kill-ring';
import { graphemeEnd, graphemeStart } from './width';
import { lineEnd, lineStart } from './text';
import { type Range, firstNonBlank, lastOfLine } from './vi-motions';
import type { Register, ViEffect, ViMemory, ViState } from './vi-state';

const next = (t: string, i: number): number => graphemeEnd(t, i);
const prev = (t: string, i: number): number => graphemeStart(t, i);

/** Where the cursor may stand in the normal state: on a character of its line, not past the last one. */
export function normalCursor(text: string, i: number): number {
  if (text.length === 0) return 0;
  const at = Math.min(i, text.length);
  return Math.min(at, lastOfLine(text, at));
}

/** The kill ring gets `clip` as its newest entry (the unnamed register), and "x too when named. */
export function store(
  e: EditorState,
  mem: ViMemory,
  clip: Clip,
  linewise: boolean,
  register: string | null,
): [EditorState, ViMemory] {
  if (!clip.text) return [e, mem];
  const ring = e.killed ? [...(e.ring ?? []), e.killed].slice(-MAX_RING) : e.ring;
  const editor = { ...e, killed: clip, ring, yanked: null };
  if (!register || register === '"') return [editor, { ...mem, linewise }];
  const name = register.toLowerCase();
  // "A appends to "a, as vim's uppercase registers do.
  const old = register !== name ? mem.registers[name] : undefined;
  const kept: Register = old
    ? {
        clip: { text: old.clip.text + clip.text, pastes: [...old.clip.pastes, ...clip.pastes] },
        linewise: old.linewise,
      }
    : { clip, linewise };
  return [editor, { ...mem, linewise, registers: { ...mem.registers, [name]: kept } }];
}

/** What a register holds: a named one, or the unnamed (the kill ring's newest). */
function fetch(e: EditorState, mem: ViMemory, register: string | null): Register | null {
  if (register && register !== '"') return mem.registers[register.toLowerCase()] ?? null;
  return e.killed ? { clip: e.killed, linewise: mem.linewise } : null;
}

/** The whole lines `count` lines from the cursor's down, as a range (with the newline that ends them, or begins). */
export function linesRange(t: string, i: number, count: number): Range & { last: boolean } {
  const start = lineStart(t, i);
  let end = lineEnd(t, i);
  for (let k = 1; k < count && end < t.length; k++) end = lineEnd(t, end + 1);
  if (end < t.length) return { start, end: end + 1, last: false };
  return { start: start > 0 ? start - 1 : start, end, last: true };
}

export interface Done {
  editor: EditorState;
  memory: ViMemory;
  state: ViState;
  effect?: ViEffect;
}

/** An operator over [start, end): delete, change (then insert) or yank; `linewise`: whole lines. */
export function operate(
  e: EditorState,
  mem: ViMemory,
  op: string,
  r: Range,
  register: string | null,
  linewise = false,
): Done {
  const { state, removed } = removeRange(e, r.start, r.end);
  if (op === 'y') {
    const [editor, memory] = store(e, mem, removed, linewise, register);
    return {
      editor: { ...editor, cursor: linewise ? e.cursor : Math.min(r.start, e.cursor) },
      memory,
      state: 'normal',
    };
  }
  const [editor, memory] = store(state, mem, removed, linewise, register);
  const at = { ...editor, cursor: r.start };
  return {
    editor: op === 'c' ? at : { ...at, cursor: normalCursor(at.text, at.cursor) },
    memory,
    state: op === 'c' ? 'insert' : 'normal',
  };
}

/** `dd` `cc` `yy`: whole lines; `cc` leaves the line, emptied, to type into. */
export function wholeLines(e: EditorState, mem: ViMemory, op: string, count: number, register: string | null): Done {
  const t = e.text;
  if (op === 'c') {
    const start = lineStart(t, e.cursor);
    const r = linesRange(t, e.cursor, count);
    const end = r.last ? r.end : r.end - 1;
    return operate({ ...e, cursor: start }, mem, 'c', { start, end }, register, true);
  }
  const r = linesRange(t, e.cursor, count);
  const yanked = t.slice(lineStart(t, e.cursor), r.last ? r.end : r.end - 1) + '\n';
  if (op === 'y') {
    const [editor, memory] = store(e, mem, { text: yanked, pastes: [] }, true, register);
    return { editor, memory, state: 'normal' };
  }
  const { state } = removeRange(e, r.start, r.end);
  const [editor, memory] = store(state, mem, { text: yanked, pastes: [] }, true, register);
  const at = Math.min(r.start + (r.last && r.start > 0 ? 1 : 0), editor.text.length);
  return { editor: { ...editor, cursor: firstNonBlank(editor.text, at) }, memory, state: 'normal' };
}

/** `p` `P`: after or before the cursor (whole lines: below or above its line), `count` times. */
export function put(
  e: EditorState,
  mem: ViMemory,
  after: boolean,
  count: number,
  register: string | null,
): Done | null {
  const reg = fetch(e, mem, register);
  if (!reg) return null;
  const text = reg.clip.text.repeat(count);
  const clip = { text, pastes: Array.from({ length: count }, () => reg.clip.pastes).flat() };
  const t = e.text;
  if (reg.linewise) {
    const body = text.endsWith('\n') ? text.slice(0, -1) : text;
    const lines = { text: body, pastes: clip.pastes };
    if (after) {
      const end = lineEnd(t, e.cursor);
      const s1 = insertClip({ ...e, cursor: end }, { text: '\n' + lines.text, pastes: lines.pastes });
      return { editor: { ...s1, cursor: end + 1 }, memory: mem, state: 'normal' };
    }
    const start = lineStart(t, e.cursor);
    const s1 = insertClip({ ...e, cursor: start }, { text: lines.text + '\n', pastes: lines.pastes });
    return { editor: { ...s1, cursor: start }, memory: mem, state: 'normal' };
  }
  const at = after && t.length > 0 && e.cursor < lineEnd(t, e.cursor) ? next(t, e.cursor) : e.cursor;
  const s1 = insertClip({ ...e, cursor: at }, clip);
  return { editor: { ...s1, cursor: normalCursor(s1.text, prev(s1.text, s1.cursor)) }, memory: mem, state: 'normal' };
}

/** Insert-state entries: where the cursor goes for `i a I A o O`. */
export function enterInsert(e: EditorState, key: string): EditorState {
  const t = e.text;
  switch (key) {
    case 'a':
      return { ...e, cursor: e.cursor < lineEnd(t, e.cursor) ? next(t, e.cursor) : e.cursor };
    case 'A':
      return { ...e, cursor: lineEnd(t, e.cursor) };
    case 'I':
      // readline's vi-insert-beg: the line's start (vim's goes to its first non-blank).
      return { ...e, cursor: lineStart(t, e.cursor) };
    case 'o': {
      const end = lineEnd(t, e.cursor);
      return insertClip({ ...e, cursor: end }, { text: '\n', pastes: [] });
    }
    case 'O': {
      const start = lineStart(t, e.cursor);
      return { ...insertClip({ ...e, cursor: start }, { text: '\n', pastes: [] }), cursor: start };
    }
    default:
      return e;
  }
}

/** `r` with a count: the next `count` characters each replaced by `ch`; null when the line has fewer. */
export function replaceChars(e: EditorState, ch: string, count: number): EditorState | null {
  const t = e.text;
  let end = e.cursor;
  for (let k = 0; k < count; k++) {
    if (end >= lineEnd(t, e.cursor)) return null;
    end = next(t, end);
  }
  const { state } = removeRange(e, e.cursor, end);
  const s1 = insertClip({ ...state, cursor: e.cursor }, { text: ch.repeat(count), pastes: [] });
  return { ...s1, cursor: prev(s1.text, s1.cursor) };
}

/** `~`: the case of `count` characters swapped, the cursor after them. */
export function swapCase(e: EditorState, count: number, r?: Range): EditorState {
  const t = e.text;
  let start = e.cursor;
  let end = e.cursor;
  if (r) ({ start, end } = r);
  else for (let k = 0; k < count && end < lineEnd(t, e.cursor); k++) end = next(t, end);
  const swapped = [...t.slice(start, end)]
    .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
    .join('');
  const text = t.slice(0, start) + swapped + t.slice(end);
  return { ...e, text, cursor: normalCursor(text, r ? start : end), goalCol: null };
}

/** The visual selection as a range: from the anchor to the cursor, both characters in; `V`: whole lines. */
export function selection(e: EditorState, mem: ViMemory, state: ViState): Range | null {
  if (mem.anchor === null || (state !== 'visual' && state !== 'visualLine')) return null;
  const a = Math.min(mem.anchor, e.cursor);
  const b = Math.max(mem.anchor, e.cursor);
  if (state === 'visualLine') return { start: lineStart(e.text, a), end: lineEnd(e.text, b) };
  return { start: a, end: Math.min(e.text.length, next(e.text, b)) };
}

// vi's normal and visual states over the composer's text, as readline's vi mode and vim have them: a command read
// key by key (a register, a count, an operator, a motion or text object), then carried out on the editor state, with
// what the composer must do besides (undo, browse or search history) as an effect. Registers: the unnamed one is the
// kill ring's newest entry (so Ctrl+Y yanks what `dw` deleted), "a–"z kept for the session. `.` repeats the last
// change, with the text typed in the insert state it led to. Pure: vi-motions.ts has the motions.

import type { EditorState } from './model';
import { insertClip, removeRange } from './clips';
import { graphemeEnd, graphemeStart } from './width';
import { lineEnd, lineStart } from './text';
import { type Range, motion, textObject, wordEnd } from './vi-motions';
import { FINDS, type Parsed, type ViMemory, type ViState, type ViStep, parse } from './vi-state';
import {
  type Done,
  enterInsert,
  linesRange,
  normalCursor,
  operate,
  put,
  replaceChars,
  selection,
  swapCase,
  wholeLines,
} from './vi-ops';

export * from './vi-state';
export { normalCursor, selection } from './vi-ops';

const next = (t: string, i: number): number => graphemeEnd(t, i);
const prev = (t: string, i: number): number => graphemeStart(t, i);

/**
 * One key in the normal or a visual state, with the keys before it still pending: what the editor, the memory and the
 * state become. Keys that make no command ring the bell and are dropped.
 */
export function viKey(e: EditorState, mem: ViMemory, state: ViState, pending: string, key: string): ViStep {
  const visual = state === 'visual' || state === 'visualLine';
  const keys = pending + key;
  const parsed = parse(keys, visual);
  if (parsed === 'pending') return { editor: e, memory: mem, state, pending: keys };
  const fail: ViStep = { editor: e, memory: mem, state, pending: '', effect: 'bell' };
  if (parsed === 'invalid') return fail;
  const done = visual ? visualCommand(e, mem, state, parsed) : normalCommand(e, mem, parsed, keys);
  if (done === null) return fail;
  return { ...done, pending: '' };
}

/** A change's keys for `.` (the text its insert state takes is added when that ends: viEscape). */
function changed(mem: ViMemory, keys: string): ViMemory {
  return { ...mem, lastChange: { keys, inserted: '' } };
}

function normalCommand(e: EditorState, mem: ViMemory, p: Parsed, keys: string): Done | null {
  const count = p.count ?? 1;
  const t = e.text;
  if (p.op) {
    const r = operatorRange(e, mem, p, count);
    if (r === null) return null;
    const done =
      'lines' in r
        ? wholeLines(e, r.memory, p.op, r.lines, p.register)
        : operate(e, r.memory, p.op, r, p.register, false);
    return p.op === 'y' ? done : { ...done, memory: changed(done.memory, keys) };
  }
  const k = p.key;
  const m = motion(e, mem, k, count);
  if (m)
    return {
      editor: { ...e, cursor: normalCursor(t, m.to), goalCol: null },
      memory: m.memory ?? mem,
      state: 'normal',
      effect: m.effect,
    };
  return simpleCommand(e, mem, p, keys, count);
}

/** A command that is neither a motion nor an operator with one: `x`, `p`, `r`, `.`, `i`, `v`… */
function simpleCommand(e: EditorState, mem: ViMemory, p: Parsed, keys: string, count: number): Done | null {
  const t = e.text;
  const k = p.key;
  const change = (d: Done | null): Done | null => (d ? { ...d, memory: changed(d.memory, keys) } : null);
  switch (k[0]) {
    case 'j':
    case 'k':
      return { editor: e, memory: mem, state: 'normal', effect: k === 'j' ? 'newer' : 'older' };
    case 'x':
    case 'X': {
      const r: Range =
        k === 'x'
          ? { start: e.cursor, end: Math.min(lineEnd(t, e.cursor), nth(t, e.cursor, count, 1)) }
          : { start: Math.max(lineStart(t, e.cursor), nth(t, e.cursor, count, -1)), end: e.cursor };
      return r.end > r.start ? change(operate(e, mem, 'd', r, p.register)) : null;
    }
    case 'D':
    case 'C':
    case 's':
    case 'S':
    case 'Y': {
      const sub = { D: 'd$', C: 'c$', s: 'cl', S: 'cc', Y: 'yy' }[k[0]] as string;
      const d = normalCommand(e, mem, { ...p, op: sub[0], key: sub.slice(1) }, keys);
      return k === 'Y' ? d : change(d);
    }
    case 'r': {
      const edited = replaceChars(e, k[1], count);
      return edited ? change({ editor: edited, memory: mem, state: 'normal' }) : null;
    }
    case '~':
      return change({ editor: swapCase(e, count), memory: mem, state: 'normal' });
    case 'p':
    case 'P':
      return change(put(e, mem, k === 'p', count, p.register));
    case 'u':
      return { editor: e, memory: mem, state: 'normal', effect: 'undo' };
    case '.':
      return repeatChange(e, mem, p.count);
    case 'i':
    case 'a':
    case 'I':
    case 'A':
    case 'o':
    case 'O':
      return { editor: enterInsert(e, k), memory: changed(mem, keys), state: 'insert' };
    case 'R':
      return { editor: e, memory: changed(mem, keys), state: 'replace' };
    case 'v':
    case 'V':
      return { editor: e, memory: { ...mem, anchor: e.cursor }, state: k === 'v' ? 'visual' : 'visualLine' };
    case '/':
    case '?':
      return { editor: e, memory: mem, state: 'normal', effect: k === '/' ? 'searchOlder' : 'searchNewer' };
    case 'n':
    case 'N':
      return { editor: e, memory: mem, state: 'normal', effect: k === 'n' ? 'searchAgain' : 'searchBack' };
    default:
      return null;
  }
}

/** `count` characters on from `i` (back with -1), within the text. */
function nth(t: string, i: number, count: number, dir: 1 | -1): number {
  let j = i;
  for (let k = 0; k < count; k++) j = dir === 1 ? (j < t.length ? next(t, j) : j) : j > 0 ? prev(t, j) : 0;
  return j;
}

/** What an operator's motion or text object covers; `lines`: whole lines (`dd`, `dj`). */
function operatorRange(
  e: EditorState,
  mem: ViMemory,
  p: Parsed,
  count: number,
): (Range & { memory: ViMemory }) | { lines: number; memory: ViMemory } | null {
  const k = p.key;
  const t = e.text;
  if (k === p.op) return { lines: count, memory: mem };
  if (k === 'j') return lineEnd(t, e.cursor) < t.length ? { lines: count + 1, memory: mem } : null;
  if (k.length === 2 && (k[0] === 'i' || k[0] === 'a') && !FINDS.includes(k[0])) {
    const r = textObject(t, e.cursor, k[0], k[1], count);
    return r ? { ...r, memory: mem } : null;
  }
  // `cw` on a word is `ce`: the blanks after it stay (vim and readline alike).
  const key = p.op === 'c' && (k === 'w' || k === 'W') && /\S/.test(t[e.cursor] ?? '') ? (k === 'w' ? 'e' : 'E') : k;
  if (key === 'e' || key === 'E') {
    // On a word's last character, `ce` changes that character alone when it is the end asked for.
    const m = motionOnWordEnd(e, mem, key, count, p.op === 'c' && k !== key);
    return m;
  }
  const m = motion(e, mem, key, count);
  if (!m) return null;
  let to = m.to;
  // `dw` on a line's last word stops at the line's end, not the next line's start.
  if ((key === 'w' || key === 'W') && to > lineEnd(t, e.cursor)) to = lineEnd(t, e.cursor);
  const a = Math.min(e.cursor, to);
  const b = Math.max(e.cursor, to);
  const end = m.inclusive ? Math.min(t.length, next(t, b)) : b;
  return end > a || m.inclusive ? { start: a, end, memory: m.memory ?? mem } : null;
}

/** `e` as an operator's motion; `fromCw`: it stands for `cw`, which on a word's last character takes only it. */
function motionOnWordEnd(e: EditorState, mem: ViMemory, key: string, count: number, fromCw: boolean) {
  const t = e.text;
  const big = key === 'E';
  const onEnd = (j: number): boolean => {
    const n = next(t, j);
    const cls = (i: number): number =>
      i >= t.length || /\s/.test(t[i]) ? 0 : big ? 1 : /[\p{L}\p{N}_]/u.test(t[i]) ? 1 : 2;
    return n >= t.length || cls(n) !== cls(j);
  };
  let to = e.cursor;
  for (let k = 0; k < count; k++) to = fromCw && k === 0 && onEnd(to) ? to : wordEnd(t, to, big);
  return { start: e.cursor, end: Math.min(t.length, next(t, to)), memory: mem };
}

/** `.`: the last change again (its count, unless one is given), with the text its insert state took. */
function repeatChange(e: EditorState, mem: ViMemory, count: number | null): Done | null {
  const last = mem.lastChange;
  if (!last) return null;
  const keys =
    count === null
      ? last.keys
      : last.keys.replace(/^("[a-zA-Z"])?[1-9][0-9]*/, '$1').replace(/^("[a-zA-Z"])?/, `$1${count}`);
  let editor = e;
  let memory = mem;
  let state: ViState = 'normal';
  let pending = '';
  for (const ch of keys) {
    const step = viKey(editor, memory, state, pending, ch);
    if (step.effect === 'bell') return null;
    ({ editor, memory, state, pending } = step);
  }
  if (state === 'insert' || state === 'replace') {
    editor =
      state === 'replace' ? overwrite(editor, last.inserted) : insertClip(editor, { text: last.inserted, pastes: [] });
    // As readline's redo: after an insert's text (i a I A o O R) the cursor steps back onto it, as Esc does; after a
    // change's (c s C S) it stays past it.
    const inserting = /[iaIAoOR]$/.test(last.keys);
    const back =
      inserting && editor.cursor > lineStart(editor.text, editor.cursor)
        ? prev(editor.text, editor.cursor)
        : editor.cursor;
    editor = { ...editor, cursor: normalCursor(editor.text, back) };
  }
  return { editor, memory: { ...memory, lastChange: last }, state: 'normal' };
}

/** Text typed over what is there (the replace state, `R`), the cursor after it. */
export function overwrite(e: EditorState, text: string): EditorState {
  let s = e;
  for (const ch of text) {
    const end = s.cursor < lineEnd(s.text, s.cursor) ? next(s.text, s.cursor) : s.cursor;
    const { state } = removeRange(s, s.cursor, end);
    s = insertClip({ ...state, cursor: s.cursor }, { text: ch, pastes: [] });
  }
  return s;
}

/** A key in a visual state: a motion moves the cursor, an operator acts on the selection, `o` swaps its ends. */
function visualCommand(e: EditorState, mem: ViMemory, state: ViState, p: Parsed): Done | null {
  const count = p.count ?? 1;
  const k = p.key;
  const sel = selection(e, mem, state);
  if (sel === null) return null;
  if (k.length === 2 && (k[0] === 'i' || k[0] === 'a')) {
    const r = textObject(e.text, e.cursor, k[0], k[1], p.count ?? 1);
    if (!r) return null;
    // A selection of one character becomes the object; a wider one grows to take it in.
    const anchor = mem.anchor ?? e.cursor;
    const start = anchor === e.cursor ? r.start : Math.min(r.start, anchor);
    return {
      editor: { ...e, cursor: Math.max(start, prev(e.text, r.end)) },
      memory: { ...mem, anchor: start },
      state: 'visual',
    };
  }
  const m = motion(e, mem, k, count);
  if (m) return { editor: { ...e, cursor: normalCursor(e.text, m.to) }, memory: m.memory ?? mem, state };
  return visualOperator(e, mem, state, p, sel);
}

/** An operator (or `o`, `v`, `V`) on a visual selection. */
function visualOperator(e: EditorState, mem: ViMemory, state: ViState, p: Parsed, sel: Range): Done | null {
  const count = p.count ?? 1;
  const k = p.key;
  const linewise = state === 'visualLine';
  const out = { ...mem, anchor: null };
  switch (k[0]) {
    case 'o':
      return { editor: { ...e, cursor: mem.anchor ?? e.cursor }, memory: { ...mem, anchor: e.cursor }, state };
    case 'd':
    case 'x':
    case 'X':
    case 'D': {
      const r = linewise ? linesRange(e.text, sel.start, 1 + countNewlines(e.text, sel.start, sel.end)) : sel;
      if (!linewise) return operate(e, out, 'd', r, p.register);
      return wholeLines(
        { ...e, cursor: sel.start },
        out,
        'd',
        1 + countNewlines(e.text, sel.start, sel.end),
        p.register,
      );
    }
    case 'c':
    case 's':
      return operate(e, out, 'c', sel, p.register, linewise);
    case 'y':
      return linewise
        ? {
            ...wholeLines(
              { ...e, cursor: sel.start },
              out,
              'y',
              1 + countNewlines(e.text, sel.start, sel.end),
              p.register,
            ),
            editor: { ...e, cursor: sel.start },
          }
        : operate({ ...e, cursor: sel.start }, out, 'y', sel, p.register);
    case '~':
      return { editor: swapCase(e, count, sel), memory: out, state: 'normal' };
    case 'v':
    case 'V': {
      const to: ViState = k === 'v' ? 'visual' : 'visualLine';
      return to === state ? { editor: e, memory: out, state: 'normal' } : { editor: e, memory: mem, state: to };
    }
    default:
      return null;
  }
}

function countNewlines(t: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if (t[k] === '\n') n++;
  return n;
}

/** Esc: insert (or replace) back to normal, the cursor a character back as vi puts it; a visual state ended. */
export function viEscape(
  e: EditorState,
  mem: ViMemory,
  state: ViState,
  inserted: string,
): { editor: EditorState; memory: ViMemory } {
  if (state === 'visual' || state === 'visualLine') return { editor: e, memory: { ...mem, anchor: null } };
  const memory = mem.lastChange && state !== 'normal' ? { ...mem, lastChange: { ...mem.lastChange, inserted } } : mem;
  const back = e.cursor > lineStart(e.text, e.cursor) ? prev(e.text, e.cursor) : e.cursor;
  return { editor: { ...e, cursor: normalCursor(e.text, back), goalCol: null }, memory };
}

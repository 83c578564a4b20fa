// vi's motions and text objects over the composer's text (editor/vi.ts runs the commands made of them): where each
// motion lands from an offset, whether an operator over it takes the landing character too (inclusive), and the
// ranges text objects name. Offsets are UTF-16 code units, stepped a grapheme at a time. Pure.

import { graphemeEnd, graphemeStart } from './width';
import { isWordChar, lineEnd, lineStart } from './text';
import type { EditorState } from './model';
import type { ViEffect, ViMemory } from './vi-state';

/** A character's class for word motions: 0 blank, 1 a word character, 2 other (punctuation); `big`: 1 or 0. */
export function classAt(text: string, i: number, big = false): number {
  if (i >= text.length) return 0;
  const g = text.slice(i, graphemeEnd(text, i));
  if (/^\s/.test(g)) return 0;
  return big || isWordChar(g) ? 1 : 2;
}

const next = (text: string, i: number): number => graphemeEnd(text, i);
const prev = (text: string, i: number): number => graphemeStart(text, i);

/** `w` / `W`: the start of the next word, or the end of the text. */
export function wordForward(text: string, i: number, big: boolean): number {
  const c = classAt(text, i, big);
  let j = i;
  if (c !== 0) while (j < text.length && classAt(text, j, big) === c) j = next(text, j);
  while (j < text.length && classAt(text, j, big) === 0) j = next(text, j);
  return j;
}

/** `e` / `E`: the last character of this word or the next (moving at least one). */
export function wordEnd(text: string, i: number, big: boolean): number {
  let j = next(text, i);
  while (j < text.length && classAt(text, j, big) === 0) j = next(text, j);
  if (j >= text.length) return Math.max(i, prev(text, text.length));
  const c = classAt(text, j, big);
  while (next(text, j) < text.length && classAt(text, next(text, j), big) === c) j = next(text, j);
  return j;
}

/** `b` / `B`: the start of this word or the one before. */
export function wordBack(text: string, i: number, big: boolean): number {
  if (i === 0) return 0;
  let j = prev(text, i);
  while (j > 0 && classAt(text, j, big) === 0) j = prev(text, j);
  const c = classAt(text, j, big);
  while (j > 0 && classAt(text, prev(text, j), big) === c) j = prev(text, j);
  return j;
}

/** The last character of the line `i` is on (its start, for an empty line). */
export function lastOfLine(text: string, i: number): number {
  const start = lineStart(text, i);
  const end = lineEnd(text, i);
  return end > start ? prev(text, end) : start;
}

/** `^`: the first non-blank of the line (its last character when it is all blank). */
export function firstNonBlank(text: string, i: number): number {
  const end = lineEnd(text, i);
  let j = lineStart(text, i);
  while (j < end && /\s/.test(text[j])) j = next(text, j);
  return j < end ? j : lastOfLine(text, i);
}

/**
 * `f` `F` `t` `T`: the `count`th `ch` on the line after (or before) `i`, or where t/T stop short of it; else null.
 * `repeat` (`;` and `,`): as readline repeats them, a t/T that stands just short of its character stays there (vim
 * would look past it).
 */
export function findOnLine(
  text: string,
  i: number,
  kind: 'f' | 'F' | 't' | 'T',
  ch: string,
  count: number,
): number | null {
  const forward = kind === 'f' || kind === 't';
  const start = lineStart(text, i);
  const end = lineEnd(text, i);
  let j = i;
  for (let n = 0; n < count; n++) {
    let found = -1;
    if (forward) {
      for (let k = next(text, j); k < end; k = next(text, k))
        if (text.startsWith(ch, k)) {
          found = k;
          break;
        }
    } else {
      for (let k = j; k > start;) {
        k = prev(text, k);
        if (text.startsWith(ch, k)) {
          found = k;
          break;
        }
      }
    }
    if (found < 0) return null;
    j = found;
  }
  if (kind === 't') return prev(text, j);
  if (kind === 'T') return next(text, j);
  return j;
}

/** A range [start, end) a text object names around `i`, or null where there is none. */
export type Range = { readonly start: number; readonly end: number };

/** `iw` `aw` `iW` `aW`: the run of one class around `i`; `a`: with the blanks after it (else before it). */
export function wordObject(text: string, i: number, around: boolean, big: boolean): Range | null {
  if (text.length === 0) return null;
  const at = Math.min(i, prev(text, text.length));
  const start0 = lineStart(text, at);
  const end0 = lineEnd(text, at);
  const c = classAt(text, at, big);
  let start = at;
  let end = next(text, at);
  while (start > start0 && classAt(text, prev(text, start), big) === c) start = prev(text, start);
  while (end < end0 && classAt(text, end, big) === c) end = next(text, end);
  if (!around) return { start, end };
  if (c === 0) {
    // On blanks, `aw` is the blanks and the word after them.
    const d = classAt(text, end, big);
    while (end < end0 && classAt(text, end, big) === d && d !== 0) end = next(text, end);
    return { start, end };
  }
  let after = end;
  while (after < end0 && classAt(text, after, big) === 0) after = next(text, after);
  if (after > end) return { start, end: after };
  let before = start;
  while (before > start0 && classAt(text, prev(text, before), big) === 0) before = prev(text, before);
  return { start: before, end };
}

/** `i"` `a"` (and `'`, backquote): the quoted text on the line around `i` (or the first after it); `a`: quotes too. */
export function quoteObject(text: string, i: number, q: string, around: boolean): Range | null {
  const start0 = lineStart(text, i);
  const end0 = lineEnd(text, i);
  const quotes: number[] = [];
  for (let k = start0; k < end0; k++) if (text[k] === q && (k === start0 || text[k - 1] !== '\\')) quotes.push(k);
  let open = -1;
  let close = -1;
  for (let n = 0; n + 1 < quotes.length; n += 2) {
    if (quotes[n + 1] >= i) {
      open = quotes[n];
      close = quotes[n + 1];
      break;
    }
  }
  if (open < 0) return null;
  if (!around) return { start: open + 1, end: close };
  let end = close + 1;
  while (end < end0 && /[ \t]/.test(text[end])) end++;
  if (end > close + 1) return { start: open, end };
  let start = open;
  while (start > start0 && /[ \t]/.test(text[start - 1])) start--;
  return { start, end: close + 1 };
}

const PAIRS: Readonly<Record<string, readonly [string, string]>> = {
  '(': ['(', ')'],
  ')': ['(', ')'],
  b: ['(', ')'],
  '[': ['[', ']'],
  ']': ['[', ']'],
  '{': ['{', '}'],
  '}': ['{', '}'],
  B: ['{', '}'],
  '<': ['<', '>'],
  '>': ['<', '>'],
};

/** `i(` `a(` and the other brackets: inside the innermost pair around `i`; `a`: the brackets too. */
export function pairObject(text: string, i: number, which: string, around: boolean): Range | null {
  const pair = PAIRS[which];
  if (!pair) return null;
  const [o, c] = pair;
  let depth = 0;
  let open = -1;
  for (let k = text[i] === c ? i - 1 : i; k >= 0; k--) {
    if (text[k] === c && k !== i) depth++;
    else if (text[k] === o) {
      if (depth === 0) {
        open = k;
        break;
      }
      depth--;
    }
  }
  if (open < 0) return null;
  depth = 0;
  for (let k = open + 1; k < text.length; k++) {
    if (text[k] === o) depth++;
    else if (text[k] === c) {
      if (depth === 0) return around ? { start: open, end: k + 1 } : { start: open + 1, end: k };
      depth--;
    }
  }
  return null;
}

/** The text object `kind` (`i` or `a`) `obj` names around `i`, or null. */
export function textObject(text: string, i: number, kind: string, obj: string, count = 1): Range | null {
  const around = kind === 'a';
  if (obj === 'w' || obj === 'W') {
    let r = wordObject(text, i, around, obj === 'W');
    // `2iw`: the next run too (blanks count as one), as vim counts; `2aw`: the next word with its blanks.
    for (let n = 1; r && n < count && r.end < lineEnd(text, i); n++) {
      const more = wordObject(text, r.end, around, obj === 'W');
      r = more ? { start: r.start, end: more.end } : r;
    }
    return r;
  }
  if (obj === '"' || obj === "'" || obj === '`') return quoteObject(text, i, obj, around);
  // Not inside a pair: the next one on the line, as vim 9 takes it.
  const inside = pairObject(text, i, obj, around);
  if (inside) return inside;
  const open = (PAIRS[obj] ?? [''])[0];
  const at = open ? text.indexOf(open, i) : -1;
  return at >= 0 && at < lineEnd(text, i) ? pairObject(text, at, obj, around) : null;
}

/** Where a motion lands, whether an operator over it takes the landing character too, and what it leaves in memory. */
export interface Landing {
  readonly to: number;
  readonly inclusive: boolean;
  readonly memory?: ViMemory;
  readonly effect?: ViEffect;
}

/** A motion's landing from the cursor. */
export function motion(e: EditorState, mem: ViMemory, key: string, count: number): Landing | null {
  const t = e.text;
  const i = e.cursor;
  const repeat = (n: number, f: (j: number) => number): number => {
    let j = i;
    for (let k = 0; k < n; k++) j = f(j);
    return j;
  };
  switch (key[0]) {
    case 'h':
      return {
        to: Math.max(
          lineStart(t, i),
          repeat(count, (j) => (j > 0 ? prev(t, j) : 0)),
        ),
        inclusive: false,
      };
    case 'l':
    case ' ':
      return {
        to: Math.min(
          lineEnd(t, i),
          repeat(count, (j) => next(t, j)),
        ),
        inclusive: false,
      };
    case 'w':
    case 'W':
      return { to: repeat(count, (j) => wordForward(t, j, key === 'W')), inclusive: false };
    case 'e':
    case 'E':
      return { to: repeat(count, (j) => wordEnd(t, j, key === 'E')), inclusive: true };
    case 'b':
    case 'B':
      return { to: repeat(count, (j) => wordBack(t, j, key === 'B')), inclusive: false };
    case '0':
      return { to: lineStart(t, i), inclusive: false };
    case '|':
      return { to: Math.min(lineStart(t, i) + count - 1, lastOfLine(t, i)), inclusive: false };
    case '^':
      return { to: firstNonBlank(t, i), inclusive: false };
    case '$': {
      // `2$`: the end of the line below.
      let j = i;
      for (let k = 1; k < count && lineEnd(t, j) < t.length; k++) j = lineEnd(t, j) + 1;
      return { to: lastOfLine(t, j), inclusive: true };
    }
    case 'f':
    case 'F':
    case 't':
    case 'T':
    case ';':
    case ',':
      return findMotion(e, mem, key, count);
    default:
      return null;
  }
}

/** `f` `F` `t` `T` and their repeats, `;` and `,`: on the line, or null where the character is not there. */
function findMotion(e: EditorState, mem: ViMemory, key: string, count: number): Landing | null {
  const t = e.text;
  const i = e.cursor;
  if (key === ';' || key === ',') {
    const f = mem.lastFind;
    if (!f) return null;
    const kind = key === ';' ? f.kind : ({ f: 'F', F: 'f', t: 'T', T: 't' } as const)[f.kind];
    const to = findOnLine(t, i, kind, f.ch, count);
    return to === null ? null : { to, inclusive: kind === 'f' || kind === 't' };
  }
  const kind = key[0] as 'f' | 'F' | 't' | 'T';
  const to = findOnLine(t, i, kind, key[1], count);
  if (to === null) return null;
  return { to, inclusive: kind === 'f' || kind === 't', memory: { ...mem, lastFind: { kind, ch: key[1] } } };
}

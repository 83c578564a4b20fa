// Terminal column widths of text, grapheme by grapheme.
// Owns the one answer to "how many cells does this take", shared by the editor
// layout, the transcript wrapper and the patch applied to blessed's own table.
// How this terminal draws emoji sequences (the width probe's answer, kept in
// the settings) is passed in by every caller. Pure: no terminal, no blessed.

import { WIDE_RANGES } from './wide-ranges';

// Created on first non-ASCII text: loading ICU's segmentation data costs start-up time (about 14 ms).
// A cache of a pure function's helper, not state anything reads.
// eslint-disable-next-line no-restricted-syntax
let segmenter: Intl.Segmenter | null = null;

// East Asian Wide / Fullwidth, the ones terminals render in two cells: generated from Unicode's data.
const WIDE = WIDE_RANGES;

function inRanges(cp: number, ranges: ReadonlyArray<readonly [number, number]>): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid];
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]/u;

/** Width in cells of one code point (0, 1 or 2). Control characters count 0. */
export function codePointWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return 1;
  if (inRanges(cp, WIDE)) return 2;
  if (ZERO_WIDTH.test(String.fromCodePoint(cp))) return 0;
  return 1;
}

/**
 * How the terminal draws the emoji sequences terminals disagree on. A
 * terminal that clusters graphemes (kitty, WezTerm, iTerm2, Ghostty, recent
 * VTE) draws each sequence in two cells; xterm.js and older terminals add up
 * each code point's own width. The screen asks the terminal at start-up and
 * sets this; until then (or without an answer) the clustering way is assumed.
 */
export interface EmojiWidths {
  /** A ZWJ sequence (👩‍👩‍👧): two cells, or the sum of its parts. */
  zwj: 'cluster' | 'sum';
  /** A skin-tone modifier (👍🏽): two cells, or the base and the modifier each their own. */
  modifier: 'cluster' | 'sum';
  /** A narrow symbol with the emoji selector (❤️). */
  vs16: 1 | 2;
  /** A flag, a pair of regional indicators (🇯🇵). */
  flag: 1 | 2 | 4;
}

export const CLUSTERING: EmojiWidths = { zwj: 'cluster', modifier: 'cluster', vs16: 2, flag: 2 };

const ZWJ = 0x200d;
const VS16 = 0xfe0f;
const isModifier = (cp: number): boolean => cp >= 0x1f3fb && cp <= 0x1f3ff;
const isRegional = (cp: number): boolean => cp >= 0x1f1e6 && cp <= 0x1f1ff;

/** A grapheme whose width terminals disagree on: it gets repainted with care. */
export function isAmbiguous(g: string): boolean {
  if (g.length < 2 || g.charCodeAt(0) < 0x7f) return false;
  for (const ch of g) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === ZWJ || cp === VS16 || isModifier(cp) || isRegional(cp)) return true;
  }
  return false;
}

/** The width of a sequence drawn code point by code point: each its own width, VS16 widening the symbol before it. */
function sumWidth(g: string, emoji: EmojiWidths): number {
  let w = 0;
  let last = 0;
  for (const ch of g) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === VS16) {
      if (last === 1 && emoji.vs16 === 2) w += 1;
      continue;
    }
    last = cp === ZWJ ? 0 : codePointWidth(cp);
    w += last;
  }
  return w;
}

/**
 * Width in cells of one grapheme cluster, as the terminal draws it (`emoji`: how it draws the sequences terminals
 * disagree on).
 */
export function graphemeWidth(g: string, emoji: EmojiWidths): number {
  const cp = g.codePointAt(0) ?? 0;
  if (cp < 0x7f) return cp < 0x20 ? 0 : 1;
  const w = codePointWidth(cp);
  if (g.length === (cp > 0xffff ? 2 : 1)) return w;
  if (isRegional(cp)) return emoji.flag;
  if (g.includes('\u200d')) return emoji.zwj === 'cluster' ? 2 : sumWidth(g, emoji);
  const second = g.codePointAt(cp > 0xffff ? 2 : 1) ?? 0;
  if (isModifier(second)) return emoji.modifier === 'cluster' ? 2 : sumWidth(g, emoji);
  // An emoji presentation selector may turn a narrow symbol into a wide emoji.
  if (w === 1 && g.includes('\ufe0f')) return emoji.vs16;
  return w;
}

/**
 * A character that is a grapheme on its own whatever surrounds it (nothing in
 * these ranges extends, joins or prepends) and is neither a control nor zero
 * width: Latin, Greek, Cyrillic, punctuation, symbols, arrows, box drawing, kana, CJK, Hangul
 * syllables, fullwidth forms. Text made only of them needs no segmenter.
 */
function standalone(c: number): boolean {
  if (c < 0x300) return c >= 0xa0 || (c >= 0x20 && c < 0x7f);
  // Greek and Cyrillic, but for the Cyrillic combining marks.
  if (c < 0x530) return c >= 0x370 && (c < 0x483 || c > 0x489);
  if (c < 0x2010) return false;
  if (c < 0x2bff) return c <= 0x2027 || (c >= 0x2030 && c <= 0x205e) || (c >= 0x2070 && c <= 0x20cf) || c >= 0x2100;
  if (c < 0xa000)
    return (c >= 0x3000 && c <= 0x3029) || (c >= 0x3030 && c <= 0x3098) || (c >= 0x309b && c <= 0x30ff) || c >= 0x4e00;
  return (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xff01 && c <= 0xff60);
}

/** The width of one standalone character (see `standalone`), or -1 for any other: it needs the segmenter. */
export function standaloneCharWidth(c: number): number {
  if (c >= 0x20 && c < 0x7f) return 1;
  if (!standalone(c)) return -1;
  return c >= 0x1100 && inRanges(c, WIDE) ? 2 : 1;
}

/** The width of text made only of standalone characters, or -1 when some character is not. */
export function standaloneWidth(text: string): number {
  let w = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) w += 1;
    else if (!standalone(c)) return -1;
    else w += c >= 0x1100 && inRanges(c, WIDE) ? 2 : 1;
  }
  return w;
}

/** Splits text into grapheme clusters. Fast path for text of standalone characters. */
export function graphemes(text: string): string[] {
  if (standaloneWidth(text) >= 0) return text.split('');
  const out: string[] = [];
  for (const s of segmenterFor().segment(text)) out.push(s.segment);
  return out;
}

// Below U+0300 nothing extends a grapheme, and nothing there is a Prepend
// character; CR is the one exception (CR LF is one grapheme).
function plain(code: number): boolean {
  return code < 0x300 && code !== 0x0d;
}

function segmenterFor(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}

/** Offset where the grapheme ending at offset `i` starts. Graphemes never cross a newline. */
export function graphemeStart(text: string, i: number): number {
  if (i <= 0) return 0;
  if (plain(text.charCodeAt(i - 1)) && (i < 2 || plain(text.charCodeAt(i - 2)))) return i - 1;
  const from = text.lastIndexOf('\n', i - 2) + 1;
  const seg = segmenterFor()
    .segment(text.slice(from, i))
    .containing(i - 1 - from);
  return seg ? from + seg.index : i - 1;
}

/** Offset where the grapheme starting at offset `i` ends. */
export function graphemeEnd(text: string, i: number): number {
  if (i >= text.length) return text.length;
  if (plain(text.charCodeAt(i)) && (i + 1 >= text.length || plain(text.charCodeAt(i + 1)))) return i + 1;
  const nl = text.indexOf('\n', i + 1);
  const to = nl === -1 ? text.length : nl;
  const seg = segmenterFor().segment(text.slice(i, to)).containing(0);
  return seg ? i + seg.segment.length : i + 1;
}

/** Width in cells of a string without newlines. */
export function stringWidth(text: string, emoji: EmojiWidths): number {
  const fast = standaloneWidth(text);
  if (fast >= 0) return fast;
  let w = 0;
  for (const g of graphemes(text)) w += graphemeWidth(g, emoji);
  return w;
}

/** `text` padded with spaces to `width` cells (by display width, not by code units). */
export function padToWidth(text: string, width: number, emoji: EmojiWidths): string {
  return text + ' '.repeat(Math.max(0, width - stringWidth(text, emoji)));
}

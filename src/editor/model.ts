// The composer's text model: a buffer of typed segments, a cursor and a kill
// buffer, changed only by pure functions that return a new state.
// It knows nothing of screens, keys or history; layout.ts turns it into rows.

import { EmojiWidths, graphemeEnd, graphemeStart, graphemes, graphemeWidth } from './width';
import { insertClip, removeRange } from './clips';
import {
  FILE_CHIP,
  PASTE_MARK,
  chipLabel,
  clean,
  countMarks,
  imageChipContent,
  imageSegment,
  isFileChip,
  isImageChip,
  isWordChar,
  lineEnd,
  lineStart,
  scanBack,
  scanForward,
  segmentsText,
} from './text';
import type { ImageSegment, Segment } from '../protocol/segments';

export {
  FILE_CHIP,
  PASTE_MARK,
  chipLabel,
  displayText,
  imageLabel,
  isFileChip,
  lineEnd,
  lineStart,
  pasteLabel,
  segmentsText,
} from './text';
export {
  MAX_RING,
  killAlnumWordBack,
  killToLineEnd,
  killToLineStart,
  killWordBack,
  killWordForward,
  yank,
  yankPop,
} from './kill-ring';

export const TAB_WIDTH = 4;

export interface Clip {
  readonly text: string;
  readonly pastes: readonly string[];
}

export interface EditorState {
  /** The buffer, with PASTE_MARK where each paste segment sits. */
  readonly text: string;
  /** Content of each paste segment, in buffer order. */
  readonly pastes: readonly string[];
  /** UTF-16 offset into text, always on a grapheme boundary. */
  readonly cursor: number;
  /** Column that Up/Down try to keep while moving through shorter lines. */
  readonly goalCol: number | null;
  /** What the last kill removed, for Ctrl+Y. */
  readonly killed: Clip | null;
  /** The kills before it, oldest first (the kill ring Alt+Y walks back through after Ctrl+Y). */
  readonly ring?: readonly Clip[];
  /** Where the last Ctrl+Y or Alt+Y put its text, and which kill that was (0: the newest). */
  readonly yanked?: { readonly start: number; readonly end: number; readonly back: number } | null;
}

export interface PasteOptions {
  maxLines: number;
  maxChars: number;
}

export const DEFAULT_PASTE_LIMITS: PasteOptions = { maxLines: 10, maxChars: 1000 };

export const emptyEditor: EditorState = { text: '', pastes: [], cursor: 0, goalCol: null, killed: null };

// ---------------------------------------------------------------- queries

export function isEmpty(s: EditorState): boolean {
  return s.text.length === 0;
}

/** True when submitting would send nothing but whitespace. */
export function isBlank(s: EditorState): boolean {
  return s.pastes.length === 0 && s.text.trim().length === 0;
}

export function onFirstLine(s: EditorState): boolean {
  return s.text.lastIndexOf('\n', s.cursor - 1) === -1;
}

export function onLastLine(s: EditorState): boolean {
  return s.text.indexOf('\n', s.cursor) === -1;
}

/** Width in cells of one atom (a grapheme, a tab or a paste mark) of the buffer. */
export function atomWidth(atom: string, emoji: EmojiWidths, paste?: string): number {
  if (atom === PASTE_MARK) return chipLabel(paste ?? '').length;
  if (atom === '\t') return TAB_WIDTH;
  return graphemeWidth(atom, emoji);
}

/** Display column of offset i within its line. */
export function columnAt(s: EditorState, i: number, emoji: EmojiWidths): number {
  const from = lineStart(s.text, i);
  let k = countMarks(s.text, 0, from);
  let col = 0;
  for (const g of graphemes(s.text.slice(from, i))) {
    col += atomWidth(g, emoji, g === PASTE_MARK ? s.pastes[k++] : undefined);
  }
  return col;
}

/** Offset on the line starting at `from` whose column is the largest not past `col`. */
function offsetAtColumn(s: EditorState, from: number, col: number, emoji: EmojiWidths): number {
  const to = lineEnd(s.text, from);
  let k = countMarks(s.text, 0, from);
  let c = 0;
  let i = from;
  for (const g of graphemes(s.text.slice(from, to))) {
    const w = atomWidth(g, emoji, g === PASTE_MARK ? s.pastes[k++] : undefined);
    if (c + w > col) break;
    c += w;
    i += g.length;
  }
  return i;
}

function prevBoundary(text: string, i: number): number {
  return graphemeStart(text, i);
}

function nextBoundary(text: string, i: number): number {
  return graphemeEnd(text, i);
}

// ---------------------------------------------------------------- segments

export function toSegments(s: EditorState): Segment[] {
  const out: Segment[] = [];
  const pieces = s.text.split(PASTE_MARK);
  pieces.forEach((piece, k) => {
    if (piece) out.push({ type: 'text', text: piece });
    if (k < pieces.length - 1) {
      const content = s.pastes[k] ?? '';
      out.push(
        isImageChip(content)
          ? imageSegment(content)
          : isFileChip(content)
            ? { type: 'file', text: content.slice(FILE_CHIP.length) }
            : { type: 'paste', text: content },
      );
    }
  });
  return out;
}

/** The text that is sent when the input is submitted: pastes expanded. */
export function expandedText(s: EditorState): string {
  return segmentsText(toSegments(s));
}

/** An editor holding the given segments, cursor at the end. */
export function fromSegments(segments: readonly Segment[]): EditorState {
  let text = '';
  const pastes: string[] = [];
  for (const seg of segments) {
    if (seg.type === 'paste' || seg.type === 'file' || seg.type === 'image') {
      text += PASTE_MARK;
      pastes.push(seg.type === 'file' ? FILE_CHIP + seg.text : seg.type === 'image' ? imageChipContent(seg) : seg.text);
    } else {
      text += clean(seg.text);
    }
  }
  return { ...emptyEditor, text, pastes, cursor: text.length };
}

// ---------------------------------------------------------------- edits

/** An image chip (a pasted image) and a space at the cursor; `replacing`: its text as pasted just before, taken out. */
export function insertImage(s: EditorState, image: ImageSegment, replacing?: string): EditorState {
  let at = s;
  if (replacing) {
    const from = s.text.lastIndexOf(replacing);
    // What was pasted is gone (edited meanwhile): the chip goes at the cursor, the text stays.
    if (from >= 0) at = { ...removeRange(s, from, from + replacing.length).state, cursor: from };
  }
  return insertClip(at, { text: PASTE_MARK + ' ', pastes: [imageChipContent(image)] });
}

/** The @-mention chip of `mention` (a workspace path) made an image's chip; unchanged when it is gone. */
export function mentionToImage(s: EditorState, mention: string, image: ImageSegment): EditorState {
  const k = s.pastes.indexOf(FILE_CHIP + mention);
  if (k < 0) return s;
  const pastes = [...s.pastes];
  pastes[k] = imageChipContent(image);
  return { ...s, pastes };
}

/** Text [from, to) (an @query) replaced by a file chip and a space, the cursor after them. */
export function replaceWithFile(s: EditorState, from: number, to: number, path: string): EditorState {
  const { state } = removeRange(s, from, to);
  return insertClip({ ...state, cursor: from }, { text: PASTE_MARK + ' ', pastes: [FILE_CHIP + path] });
}

export function insertText(s: EditorState, text: string): EditorState {
  return insertClip(s, { text: clean(text), pastes: [] });
}

/**
 * Inserts pasted text as it came. A large paste becomes one collapsed paste
 * segment; a small one is ordinary text. Newlines never submit.
 */
export function insertPaste(s: EditorState, text: string, limits: PasteOptions = DEFAULT_PASTE_LIMITS): EditorState {
  // Cleaned as typed text is: a paste's escape sequences and other controls never reach the buffer.
  const content = clean(text);
  if (!content) return s;
  const lines = content.split('\n').length;
  if (lines > limits.maxLines || content.length > limits.maxChars) {
    return insertClip(s, { text: PASTE_MARK, pastes: [content] });
  }
  return insertText(s, content);
}

export function newline(s: EditorState): EditorState {
  return insertClip(s, { text: '\n', pastes: [] });
}

/**
 * Enter after a trailing backslash: the backslash becomes a newline (as in a
 * shell's line continuation). Null when the cursor is not right after one.
 */
export function continueLine(s: EditorState): EditorState | null {
  if (s.cursor === 0 || s.text[s.cursor - 1] !== '\\' || s.cursor !== lineEnd(s.text, s.cursor)) return null;
  const { state } = removeRange(s, s.cursor - 1, s.cursor);
  return newline(state);
}

export function backspace(s: EditorState): EditorState {
  return removeRange(s, prevBoundary(s.text, s.cursor), s.cursor).state;
}

export function deleteForward(s: EditorState): EditorState {
  return removeRange(s, s.cursor, nextBoundary(s.text, s.cursor)).state;
}

function moveTo(s: EditorState, cursor: number): EditorState {
  return { ...s, cursor, goalCol: null };
}

export function moveLeft(s: EditorState): EditorState {
  return moveTo(s, prevBoundary(s.text, s.cursor));
}

export function moveRight(s: EditorState): EditorState {
  return moveTo(s, nextBoundary(s.text, s.cursor));
}

export function moveLineStart(s: EditorState): EditorState {
  return moveTo(s, lineStart(s.text, s.cursor));
}

export function moveLineEnd(s: EditorState): EditorState {
  return moveTo(s, lineEnd(s.text, s.cursor));
}

export function moveBufferStart(s: EditorState): EditorState {
  return moveTo(s, 0);
}

export function moveBufferEnd(s: EditorState): EditorState {
  return moveTo(s, s.text.length);
}

/**
 * Moves one line up (-1) or down (+1), keeping the goal column.
 * Null when there is no line in that direction: the caller may browse history.
 */
export function moveVertical(s: EditorState, dir: -1 | 1, emoji: EmojiWidths): EditorState | null {
  const goal = s.goalCol ?? columnAt(s, s.cursor, emoji);
  let target: number;
  if (dir < 0) {
    const from = lineStart(s.text, s.cursor);
    if (from === 0) return null;
    target = lineStart(s.text, from - 1);
  } else {
    const end = lineEnd(s.text, s.cursor);
    if (end === s.text.length) return null;
    target = end + 1;
  }
  return { ...s, cursor: offsetAtColumn(s, target, goal, emoji), goalCol: goal };
}

export function moveWordLeft(s: EditorState): EditorState {
  return moveTo(s, scanBack(s.text, s.cursor, isWordChar));
}

export function moveWordRight(s: EditorState): EditorState {
  return moveTo(s, scanForward(s.text, s.cursor, isWordChar));
}

/** Empties the buffer; the kill buffer survives, as in readline. */
export function clear(s: EditorState): EditorState {
  return { ...emptyEditor, killed: s.killed, ring: s.ring };
}

/** Replaces the content (e.g. with a recalled entry), cursor at the end. */
export function replaceWith(s: EditorState, segments: readonly Segment[]): EditorState {
  return { ...fromSegments(segments), killed: s.killed, ring: s.ring };
}

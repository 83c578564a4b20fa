// Plain-string helpers under the editor model: segments and their text, the
// paste mark, line bounds, cleaning typed text, and word boundaries by
// grapheme. No state here; model.ts builds the editor on these.

import { graphemeEnd, graphemeStart } from './width';
import type { ImageSegment, Segment } from '../protocol/segments';

/**
 * A file chip rides in the editor as a paste mark whose content starts with
 * NUL, which cleaned text never holds: one atom, cut, yanked and undone as a
 * paste is.
 */
export const FILE_CHIP = '\u0000';

export function isFileChip(content: string): boolean {
  return content.startsWith(FILE_CHIP);
}

/** An image chip rides as a paste mark too: its content is this, then the segment as JSON. */
export const IMAGE_CHIP = '\u0001';

export function isImageChip(content: string): boolean {
  return content.startsWith(IMAGE_CHIP);
}

/** An image chip's content as a segment (milk made it: cleaned text never holds the chip's mark). */
export function imageSegment(content: string): ImageSegment {
  return { ...(JSON.parse(content.slice(IMAGE_CHIP.length)) as Omit<ImageSegment, 'type'>), type: 'image' };
}

/** An image segment as a chip's content. */
export function imageChipContent(seg: ImageSegment): string {
  const { text, size, bytes, sha256 } = seg;
  return IMAGE_CHIP + JSON.stringify({ text, size, bytes, sha256 });
}

/** `[image shot.png 1280×720]`: an image by its file's name and its pixel size, wherever milk names one. */
export function imageLabel(seg: { text: string; size: string }): string {
  return `[image ${seg.text.split('/').pop() || seg.text} ${seg.size}]`;
}

/** How a chip reads in the input's text: a file as its @path, an image as its label; null for text and pastes. */
function chipText(seg: Segment): string | null {
  if (seg.type === 'file') return `@${seg.text}`;
  return seg.type === 'image' ? imageLabel(seg) : null;
}

/**
 * Stands in the buffer for one paste segment. U+FFFC is Unicode's "object
 * replacement character", which is exactly this job; typed or pasted copies of
 * it are dropped on insert, so the k-th mark always means pastes[k].
 */
export const PASTE_MARK = '\ufffc';

export function lineStart(text: string, i: number): number {
  return text.lastIndexOf('\n', i - 1) + 1;
}

export function lineEnd(text: string, i: number): number {
  const n = text.indexOf('\n', i);
  return n === -1 ? text.length : n;
}

export function countMarks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf(PASTE_MARK, from); i !== -1 && i < to; i = text.indexOf(PASTE_MARK, i + 1)) n++;
  return n;
}

/** The label a collapsed paste shows in place of its content. */
export function pasteLabel(content: string): string {
  // A paste that ends in a newline has no line after it: twelve lines and their newlines are twelve lines.
  const lines = content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  return lines > 1 ? `[pasted ${lines} lines]` : `[pasted ${content.length} chars]`;
}

/** What a mark shows: a collapsed paste's label, a file chip's @path, an image's chip. */
export function chipLabel(content: string): string {
  if (isImageChip(content)) return imageLabel(imageSegment(content));
  return isFileChip(content) ? `@${content.slice(FILE_CHIP.length)}` : pasteLabel(content);
}

/** The input's text: pastes expanded, a file as its @path, an image as its chip (both attached when sent). */
export function segmentsText(segments: readonly Segment[]): string {
  return segments.map((seg) => chipText(seg) ?? seg.text).join('');
}

// C0 controls but tab and newline, DEL, C1 controls, and our own mark.
// eslint-disable-next-line no-control-regex
const UNWANTED = /[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffc]/g;

export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

export function clean(text: string): string {
  return normalizeNewlines(text).replace(UNWANTED, '');
}

/**
 * Control characters (newlines and tabs aside) written visibly, `^[` for ESC as `cat -v` does: stored text shown on a
 * terminal stays inert.
 */
export function visibleControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (ch) => {
    const c = ch.charCodeAt(0);
    return c < 0x20
      ? '^' + String.fromCharCode(c + 0x40)
      : c === 0x7f
        ? '^?'
        : `<U+${c.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}

// Words for Alt+B/F/D and Alt+Backspace are runs of letters and digits (readline);
// Ctrl+W rubs out back to whitespace (unix-word-rubout). Both step a grapheme
// at a time and judge it by its first character, so an accent or a joined
// emoji is never split from its base.
const WORD_CHAR = /^[\p{L}\p{N}_]/u;

export function isWordChar(g: string): boolean {
  return WORD_CHAR.test(g);
}

function isSpace(g: string): boolean {
  return /^\s/.test(g);
}

export function scanBack(text: string, i: number, inWord: (g: string) => boolean): number {
  let j = i;
  for (let k = graphemeStart(text, j); j > 0 && !inWord(text.slice(k, j)); k = graphemeStart(text, j)) j = k;
  for (let k = graphemeStart(text, j); j > 0 && inWord(text.slice(k, j)); k = graphemeStart(text, j)) j = k;
  return j;
}

export function scanForward(text: string, i: number, inWord: (g: string) => boolean): number {
  let j = i;
  for (let k = graphemeEnd(text, j); j < text.length && !inWord(text.slice(j, k)); k = graphemeEnd(text, j)) j = k;
  for (let k = graphemeEnd(text, j); j < text.length && inWord(text.slice(j, k)); k = graphemeEnd(text, j)) j = k;
  return j;
}

export const notSpace = (g: string): boolean => !isSpace(g);

/** How an input shows in the transcript: pastes stay collapsed, as in the composer. */
export function displayText(segments: readonly Segment[]): string {
  return segments.map((seg) => (seg.type === 'paste' ? pasteLabel(seg.text) : (chipText(seg) ?? seg.text))).join('');
}

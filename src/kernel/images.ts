// Images in the conversation: what one is (a file's name, kind, size, pixel
// size and SHA-256, and its bytes once read at send), the chip that names it
// (`[image shot.png 1280×720]`), the kinds models take, and the cap. The log
// and history keep everything here but the bytes. Pure.

import { imageLabel } from '../editor/text';
import type { ImageMime, ImagePart } from '../protocol/images';

/** Bytes of one image sent at most: the APIs' own limit for one image (Anthropic's is 5 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The kind of image by its first bytes (what the file is, whatever its name says); null for none milk sends. */
export function imageMime(head: Uint8Array): ImageMime | null {
  const at = (i: number, ...bytes: number[]) => bytes.every((b, k) => head[i + k] === b);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

/** A name that looks like an image's (a pasted path is taken for one only then). */
export function looksLikeImage(name: string): boolean {
  return /\.(png|jpe?g|gif|webp)$/i.test(name);
}

/** `[image shot.png 1280×720]`: an image in the transcript, the notes and the composer (editor/text.ts's label). */
export function imageChip(p: Pick<ImagePart, 'path' | 'width' | 'height'>): string {
  return imageLabel({ text: p.path, size: `${p.width}×${p.height}` });
}

/** `34 KB`, `1.2 MB`. */
export function byteSize(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** The image as a data URL (OpenAI's image_url), or null when its bytes are not held. */
export function dataUrl(p: ImagePart): string | null {
  return p.data === undefined ? null : `data:${p.mime};base64,${p.data}`;
}

/** The image as the log keeps it: all but its bytes. */
export function withoutBytes(p: ImagePart): ImagePart {
  return { path: p.path, mime: p.mime, width: p.width, height: p.height, size: p.size, sha256: p.sha256 };
}

/**
 * The path a paste is, when it is one image file's (a file dropped on the terminal: maybe quoted, maybe a file:// URL,
 * spaces maybe escaped): absolute or from the home folder (`~/`); else null.
 */
export function pastedImagePath(text: string): string | null {
  let t = text.trim();
  if (t.includes('\n')) return null;
  if (/^'.*'$/.test(t) || /^".*"$/.test(t)) t = t.slice(1, -1);
  if (t.startsWith('file://')) {
    try {
      t = decodeURIComponent(t.slice('file://'.length).replace(/^localhost(?=\/)/, ''));
    } catch {
      return null;
    }
  } else t = t.replace(/\\(.)/g, '$1');
  if (!t.startsWith('/') && !t.startsWith('~/')) return null;
  return looksLikeImage(t) ? t : null;
}

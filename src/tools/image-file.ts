// An image read for the model: at send time (an @-mention, a pasted path, a
// resumed conversation's image read again) or by read_file, never on a
// keystroke. Its kind by its first bytes, its pixel size by image-size
// (loaded at the first image), its SHA-256 by node:crypto, its bytes in base64;
// past 5 MB, or not an image a model takes, a reason instead.

import * as fs from 'node:fs';
import { MAX_IMAGE_BYTES, byteSize, imageMime } from '../kernel/images';
import { type ImagePart } from '../protocol/images';
import { describeIoError } from '../io/errors';
import type { ImageSegment } from '../protocol/segments';

/** Why a file of `size` bytes is not sent as an image (past the cap); null when it may be. */
export function tooLarge(size: number): string | null {
  return size > MAX_IMAGE_BYTES ? `it is ${byteSize(size)}; images are sent up to ${byteSize(MAX_IMAGE_BYTES)}` : null;
}

/** Width and height by image-size (loaded at the first image); null for an image it cannot read. */
function pixelSize(data: Buffer): { width: number; height: number } | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const dims = (require('image-size') as typeof import('image-size')).imageSize(data);
    return { width: dims.width ?? 0, height: dims.height ?? 0 };
  } catch {
    return null;
  }
}

/** An image's bytes as the part sent (kind, pixels, SHA-256, base64), named `shown`; or why they cannot be sent. */
export function imageOf(data: Buffer, shown: string, encode = true): { image: ImagePart } | { error: string } {
  const mime = imageMime(data);
  if (!mime) return { error: 'it is not a PNG, JPEG, GIF or WebP image' };
  const dims = pixelSize(data);
  if (!dims) return { error: 'its pixel size cannot be read (a damaged image)' };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto = require('node:crypto') as typeof import('node:crypto');
  const sha256 = crypto.createHash('sha256').update(data).digest('hex');
  const bytes = encode ? { data: data.toString('base64') } : {};
  return { image: { path: shown, mime, ...dims, size: data.length, sha256, ...bytes } };
}

/** Reads the image whose file is open as `fd` (`size` bytes), named `shown` to the person and the model. */
export function readImage(fd: number, size: number, shown: string): { image: ImagePart } | { error: string } {
  const large = tooLarge(size);
  if (large) return { error: large };
  const bytes = Buffer.alloc(size);
  let n = 0;
  while (n < size) {
    const got = fs.readSync(fd, bytes, n, size - n, n);
    if (got === 0) break;
    n += got;
  }
  return imageOf(bytes.subarray(0, n), shown);
}

/**
 * Whether a pasted path is an image milk can send: its chip (pixel size, bytes, SHA-256) read off the keystroke, the
 * file whole (at most 5 MB), as it will be sent; null for a path that is no image file (the paste stays text).
 */
export async function probeImage(file: string): Promise<ImageSegment | { error: string } | null> {
  let data: Buffer;
  try {
    const st = await fs.promises.stat(file);
    if (!st.isFile()) return null;
    const large = tooLarge(st.size);
    if (large) return { error: large };
    data = await fs.promises.readFile(file);
  } catch {
    return null;
  }
  if (!imageMime(data)) return null;
  const read = imageOf(data, file, false);
  if ('error' in read) return read;
  const { width, height, size: bytes, sha256 } = read.image;
  return { type: 'image', text: file, size: `${width}×${height}`, bytes, sha256 };
}

/** Opens and reads the image file at `file` (a path the caller may read). */
export function readImageAt(file: string, shown: string): { image: ImagePart } | { error: string } {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    return { error: describeIoError(err) };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { error: 'it is not a regular file' };
    return readImage(fd, st.size, shown);
  } catch (err) {
    return { error: describeIoError(err) };
  } finally {
    fs.closeSync(fd);
  }
}

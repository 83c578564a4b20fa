// An image file read for the model: at send time (an @-mention, a pasted
// path, a resumed conversation's image read again) or by read_file, never on
// a keystroke. Its kind by its first bytes, its pixel size by image-size
// (loaded at the first image), its SHA-256 by node:crypto, its bytes in base64;
// past 5 MB, or not an image a model takes, a reason instead.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ImagePart, MAX_IMAGE_BYTES, byteSize, imageChip, imageMime } from '../images';
import { describeIoError } from '../io/errors';

/** The first bytes of a file, enough to tell an image by (read before deciding to read it whole). */
export const IMAGE_HEAD_BYTES = 16;

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

/** Reads the image at `real` (an open descriptor's file), named `shown` to the person and the model. */
export function readImage(fd: number, size: number, shown: string): { image: ImagePart } | { error: string } {
  if (size > MAX_IMAGE_BYTES)
    return { error: `it is ${byteSize(size)}; images are sent up to ${byteSize(MAX_IMAGE_BYTES)}` };
  const bytes = Buffer.alloc(size);
  let n = 0;
  while (n < size) {
    const got = fs.readSync(fd, bytes, n, size - n, n);
    if (got === 0) break;
    n += got;
  }
  const data = bytes.subarray(0, n);
  const mime = imageMime(data);
  if (!mime) return { error: 'it is not a PNG, JPEG, GIF or WebP image' };
  const dims = pixelSize(data);
  if (!dims) return { error: 'its pixel size cannot be read (a damaged image)' };
  const { width, height } = dims;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto = require('node:crypto') as typeof import('node:crypto');
  const sha256 = crypto.createHash('sha256').update(data).digest('hex');
  return { image: { path: shown, mime, width, height, size: n, sha256, data: data.toString('base64') } };
}

/**
 * Whether a pasted path is an image milk can send, and its pixel size (`1280×720`): read off the keystroke, the file
 * whole (at most 5 MB), as it will be sent.
 */
export async function probeImage(file: string): Promise<{ size: string } | { error: string } | null> {
  let data: Buffer;
  try {
    const st = await fs.promises.stat(file);
    if (!st.isFile()) return null;
    if (st.size > MAX_IMAGE_BYTES)
      return { error: `it is ${byteSize(st.size)}; images are sent up to ${byteSize(MAX_IMAGE_BYTES)}` };
    data = await fs.promises.readFile(file);
  } catch {
    // Not a file after all: the paste stays the text it was.
    return null;
  }
  if (!imageMime(data)) return null;
  const dims = pixelSize(data);
  return dims ? { size: `${dims.width}×${dims.height}` } : { error: 'its pixel size cannot be read (a damaged image)' };
}

/** Opens and reads the image file at `file` (a path already checked to be one the caller may read). */
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

/**
 * A resumed conversation's images, read again from the workspace (the log keeps what they were, not their bytes):
 * each the same file as before (by its SHA-256) goes to the model again; one missing, changed or now out of reach is
 * left out, the message saying so, and a note for the person.
 */
export function rereadImages<M extends { content: string; images?: readonly ImagePart[] }>(
  messages: readonly M[],
  workspace: string,
  inside: (root: string, file: string) => boolean,
): { messages: M[]; notes: string[] } {
  const notes: string[] = [];
  let root = workspace;
  try {
    root = fs.realpathSync(workspace);
  } catch {
    // The workspace as given: every image is then missing, and said so.
  }
  const again = (p: ImagePart): ImagePart | string => {
    const file = path.resolve(root, p.path);
    let real: string;
    try {
      real = fs.realpathSync(file);
    } catch (err) {
      return describeIoError(err);
    }
    // An absolute path is an image the person pasted (they chose it); a relative one is the workspace's.
    if (!path.isAbsolute(p.path) && !inside(root, real)) return 'it is outside the workspace';
    const read = readImageAt(real, p.path);
    if ('error' in read) return read.error;
    return read.image.sha256 === p.sha256 ? read.image : 'it has changed since';
  };
  const out = messages.map((m) => {
    if (!m.images?.length || m.images.every((i) => i.data !== undefined)) return m;
    const kept: ImagePart[] = [];
    let content = m.content;
    for (const p of m.images) {
      const got = p.data !== undefined ? p : again(p);
      if (typeof got !== 'string') {
        kept.push(got);
        continue;
      }
      content += `\n[${imageChip(p)} is no longer sent: ${got}]`;
      notes.push(`${imageChip(p)} could not be read again (${got}); the model is told it is gone`);
    }
    return { ...m, content, images: kept };
  });
  return { messages: out, notes };
}

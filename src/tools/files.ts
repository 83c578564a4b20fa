// read_file, write_file and edit_file, confined to the workspace. Paths the model names
// are not trusted: `..`, symlinks that lead out (dangling ones included), hard
// links to files elsewhere, FIFOs and devices are all refused, and every read
// or write is asynchronous and bounded, so no file can freeze the screen.
// Reading for them is file-read.ts; what a change would do, file-previews.ts.

import { byteSize, imageChip, imageMime } from '../kernel/images';
import { type ImagePart } from '../protocol/images';
import { imageOf, tooLarge } from './image-file';
import * as fs from 'node:fs';
import { Window, binaryKind, numberedWindow } from './numbered';
import { Edit, applyEdits } from './edit';
import { writeAtomicAsync } from '../io/files';
import type { Bounds, EditorFiles, WriteHooks } from './tool';
import { ToolPathError, confineWrite } from './confine';
import { MAX_READ_BYTES, editable, notChanged, readHead } from './file-read';
import { clearCut } from '../kernel/secret-shapes';
import { changeTally } from './file-previews';

export type { Bounds };
// The edit tools ask these through this module, which they load at their first call.
export { writeGuard } from './confine';
export { changeOf, edited, previewEdit, previewWrite } from './file-previews';

/** Bytes of a file read to find the lines asked for: a larger file is read in part, and the note says so. */
export const MAX_SCAN_BYTES = 8 * 1024 * 1024;

/**
 * A window of a regular file's lines, numbered (tools/numbered.ts), without
 * ever blocking on it: at most MAX_SCAN_BYTES are read, and what is returned
 * is cut at MAX_READ_BYTES. An image (PNG, JPEG, GIF, WebP, up to 5 MB: all
 * of it within the scan) comes back as itself; another binary file is named
 * with its kind and size.
 */
export async function readFileTool(
  workspace: string,
  p: string,
  w: Window = {},
  bounds: Bounds = {},
  editor?: EditorFiles,
): Promise<{ content: string; image?: ImagePart }> {
  const { bytes, size, file } = await readHead(workspace, p, MAX_SCAN_BYTES, bounds);
  if (imageMime(bytes)) {
    const large = tooLarge(size);
    const read = large === null ? imageOf(bytes, p) : { error: large };
    if ('error' in read) throw new ToolPathError(`${p} is an image that cannot be sent: ${read.error}`);
    const content = `${p}: ${imageChip(read.image)}, ${byteSize(read.image.size)} (the image follows)`;
    return { content, image: read.image };
  }
  if (!editor?.read || binaryKind(bytes)) return { content: textWindow(p, bytes, size, w) };
  // The editor's buffer, unsaved changes and all, once milk has judged the file on disk.
  const held = Buffer.from(await editor.read(file), 'utf8');
  return { content: textWindow(p, held.subarray(0, MAX_SCAN_BYTES), held.length, w) };
}

/** A text file's lines as read_file gives them; a binary file refused with its kind and size. */
function textWindow(p: string, bytes: Buffer, size: number, w: Window): string {
  const kind = binaryKind(bytes);
  if (kind) throw new ToolPathError(`${p} is a binary file (${kind}, ${size} bytes); it is not shown as text`);
  const partial = size > MAX_SCAN_BYTES;
  // A character the scan cut in two is left out, and so is a line it cut.
  const text = partial ? bytes.toString('utf8').replace(/\uFFFD+$/, '') : bytes.toString('utf8');
  const shown = numberedWindow(partial ? text.slice(0, text.lastIndexOf('\n') + 1) : text, w, partial);
  if (shown.length <= MAX_READ_BYTES) return shown;
  // Masked, then cut: never in the middle of a secret.
  const head = shown.slice(0, clearCut(shown, MAX_READ_BYTES));
  return `${head}\n[cut at ${MAX_READ_BYTES} characters: read fewer lines with offset and limit]`;
}

/**
 * Writes a file by way of a new temp file in the same folder (created
 * exclusively, never following a link) renamed over the target: a symlink
 * swapped in meanwhile is replaced, not followed.
 */
export async function writeFileTool(
  workspace: string,
  p: string,
  content: string,
  hooks?: WriteHooks,
  bounds: Bounds = {},
  editor?: EditorFiles,
): Promise<string> {
  const file = await confineWrite(workspace, p, bounds);
  await hooks?.before(file);
  await (editor?.write ? editor.write(file, content) : replaceFile(file, content));
  await hooks?.after(file);
  return file;
}

/** Replaces a confined file's content by way of a temp file renamed over it, keeping its mode and owner. */
async function replaceFile(file: string, content: string): Promise<void> {
  let st: fs.Stats | null = null;
  try {
    st = await fs.promises.stat(file);
  } catch {
    // A new file: made as any other program makes one (0666 less the umask).
  }
  if (!st) return writeAtomicAsync(file, content, 0o666 & ~currentUmask());
  const owner =
    st.uid !== process.getuid?.() || st.gid !== process.getgid?.() ? { uid: st.uid, gid: st.gid } : undefined;
  await writeAtomicAsync(file, content, st.mode & 0o7777, owner);
}

/** The process's umask (read by setting it and back: Node has no getter that is not deprecated). */
function currentUmask(): number {
  const mask = process.umask(0o022);
  process.umask(mask);
  return mask;
}

/** Applies edit_file's edits to the file as it is now, all or none; returns what to tell the model. */
export async function editFileTool(
  workspace: string,
  p: string,
  edits: readonly Edit[],
  hooks?: WriteHooks,
  bounds: Bounds = {},
  editor?: EditorFiles,
): Promise<{ said: string; tally: string }> {
  const { file, text } = await editable(workspace, p, bounds, editor);
  const result = applyEdits(text, edits);
  if (!result.ok) throw new ToolPathError(notChanged(p, result.error));
  await hooks?.before(file);
  await (editor?.write ? editor.write(file, result.text) : replaceFile(file, result.text));
  await hooks?.after(file);
  const said = `edited ${file}: ${result.replaced} replacement${result.replaced === 1 ? '' : 's'}`;
  return { said, tally: changeTally(text, result.text) };
}

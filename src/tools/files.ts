// read_file and write_file, confined to the workspace. Paths the model names
// are not trusted: `..`, symlinks that lead out (dangling ones included), hard
// links to files elsewhere, FIFOs and devices are all refused, and every read
// or write is asynchronous and bounded, so no file can freeze the screen.

import { byteSize, imageChip, imageMime } from '../kernel/images';
import { type ImagePart } from '../protocol/images';
import { imageOf, tooLarge } from './image-file';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Window, binaryKind, numberedWindow } from './numbered';
import { Edit, applyEdits } from './edit';
import { writeAtomicAsync } from '../io/files';
import type { Bounds, FileChange, Preview, WriteHooks } from './tool';
import { Hunk, hunksOf } from './hunks';
import { ToolPathError, confineRead, confineWrite } from './confine';

export type { Bounds };
// The edit tools ask it through this module, which they load at their first call.
export { writeGuard } from './confine';

/** What read_file returns of a file, at most. */
export const MAX_READ_BYTES = 256 * 1024;

/** Bytes of a file read to find the lines asked for: a larger file is read in part, and the note says so. */
export const MAX_SCAN_BYTES = 8 * 1024 * 1024;

/** The first `max` bytes of a regular file in the workspace, and its size, without ever blocking on it. */
async function readHead(
  workspace: string,
  p: string,
  max: number,
  bounds: Bounds,
): Promise<{ bytes: Buffer; size: number }> {
  const file = await confineRead(workspace, p, bounds);
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new ToolPathError(`${p} is not a regular file`);
    const buf = Buffer.alloc(Math.min(max, st.size));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return { bytes: buf.subarray(0, bytesRead), size: st.size };
  } finally {
    await handle.close();
  }
}

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
): Promise<{ content: string; image?: ImagePart }> {
  const { bytes, size } = await readHead(workspace, p, MAX_SCAN_BYTES, bounds);
  if (imageMime(bytes)) {
    const large = tooLarge(size);
    const read = large === null ? imageOf(bytes, p) : { error: large };
    if ('error' in read) throw new ToolPathError(`${p} is an image that cannot be sent: ${read.error}`);
    const content = `${p}: ${imageChip(read.image)}, ${byteSize(read.image.size)} (the image follows)`;
    return { content, image: read.image };
  }
  return { content: textWindow(p, bytes, size, w) };
}

/** A text file's lines as read_file gives them; a binary file refused with its kind and size. */
function textWindow(p: string, bytes: Buffer, size: number, w: Window): string {
  const kind = binaryKind(bytes);
  if (kind) throw new ToolPathError(`${p} is a binary file (${kind}, ${size} bytes); it is not shown as text`);
  const partial = size > MAX_SCAN_BYTES;
  // A character the scan cut in two is left out, and so is a line it cut.
  const text = partial ? bytes.toString('utf8').replace(/\uFFFD+$/, '') : bytes.toString('utf8');
  const shown = numberedWindow(partial ? text.slice(0, text.lastIndexOf('\n') + 1) : text, w, partial);
  return shown.length > MAX_READ_BYTES
    ? `${shown.slice(0, MAX_READ_BYTES)}\n[cut at ${MAX_READ_BYTES} characters: read fewer lines with offset and limit]`
    : shown;
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
): Promise<string> {
  const file = await confineWrite(workspace, p, bounds);
  await hooks?.before(file);
  await replaceFile(file, content);
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

/** The largest file edit_file changes: it is read whole, and every edit searches all of it. */
export const MAX_EDIT_BYTES = 4 * 1024 * 1024;

/** A file edit_file may change, whole, as text: confined as a write, existing, not binary, not too large. */
async function editable(workspace: string, p: string, bounds: Bounds): Promise<{ file: string; text: string }> {
  const file = await confineWrite(workspace, p, bounds);
  const rel = path.relative(await fs.promises.realpath(workspace), file);
  let head: { bytes: Buffer; size: number };
  try {
    head = await readHead(workspace, rel, MAX_EDIT_BYTES + 1, bounds);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ToolPathError(`${p} does not exist; to make a new file use write_file`);
    throw err;
  }
  if (head.size > MAX_EDIT_BYTES)
    throw new ToolPathError(
      `${p} is ${head.size} bytes, past the ${MAX_EDIT_BYTES} edit_file changes; use write_file or shell`,
    );
  const kind = binaryKind(head.bytes);
  if (kind) throw new ToolPathError(`${p} is a binary file (${kind}, ${head.size} bytes)`);
  return { file, text: utf8Text(p, head.bytes) };
}

/**
 * A file's text, if it is UTF-8: read otherwise, every byte that is not (Latin-1, CP1252) would come back as U+FFFD on
 * lines the edit never touched, and no diff could show it.
 */
function utf8Text(p: string, bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const text = bytes.toString('utf8');
    const line = text.slice(0, text.indexOf('\uFFFD')).split('\n').length;
    throw new ToolPathError(
      `${p} is not UTF-8 text (line ${line} has a byte that is not; it may be Latin-1 or CP1252); edit_file changes ` +
        'UTF-8 files only, so that no byte it was not asked to change is lost: use shell (iconv, sed) for this file',
    );
  }
}

const notChanged = (p: string, why: string): string => `${p} was not changed: ${why}`;

/** Applies edit_file's edits to the file as it is now, all or none; returns what to tell the model. */
export async function editFileTool(
  workspace: string,
  p: string,
  edits: readonly Edit[],
  hooks?: WriteHooks,
  bounds: Bounds = {},
): Promise<string> {
  const { file, text } = await editable(workspace, p, bounds);
  const result = applyEdits(text, edits);
  if (!result.ok) throw new ToolPathError(notChanged(p, result.error));
  await hooks?.before(file);
  await replaceFile(file, result.text);
  await hooks?.after(file);
  return `edited ${file}: ${result.replaced} replacement${result.replaced === 1 ? '' : 's'}`;
}

/** Line diffs past this many edits are not offered hunk by hunk (the diff runs before the question). */
const MAX_HUNK_EDITS = 5000;

/** A change from `before` to `after` as hunks; none when the diff is too large to make before the question. */
export function changeHunks(before: string, after: string): Hunk[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { diffArrays } = require('diff') as typeof import('diff');
  const a = before.split('\n');
  const b = after.split('\n');
  const runs = diffArrays(a, b, { maxEditLength: MAX_HUNK_EDITS, timeout: MAX_DIFF_MS });
  return runs ? hunksOf(a, b, runs) : [];
}

/**
 * What a call would make of an existing UTF-8 file (edit_file's edits applied, or write_file's content), whole and as
 * hunks; null for a new file, one that cannot be edited, or edits that would fail.
 */
export async function changeOf(
  workspace: string,
  p: string,
  make: (text: string) => string | null,
  bounds: Bounds = {},
): Promise<FileChange | null> {
  let text: string;
  try {
    ({ text } = await editable(workspace, p, bounds));
  } catch {
    return null;
  }
  const after = make(text);
  if (after === null || after === text) return null;
  return { path: p, before: text, after, hunks: changeHunks(text, after) };
}

/** edit_file's edits applied to `text`, or null when they would fail. */
export function edited(text: string, edits: readonly Edit[]): string | null {
  const r = applyEdits(text, edits);
  return r.ok ? r.text : null;
}

/** What an edit_file call would change, as a diff, shown before the person approves it; or why it will be refused. */
export async function previewEdit(
  workspace: string,
  p: string,
  edits: readonly Edit[],
  bounds: Bounds = {},
): Promise<Preview> {
  let current: { text: string };
  try {
    current = await editable(workspace, p, bounds);
  } catch (err) {
    return { fails: (err as Error).message };
  }
  const result = applyEdits(current.text, edits);
  if (!result.ok) return { fails: notChanged(p, result.error) };
  return diffPreview(p, current.text, result.text);
}

/**
 * What a write_file call would change, as a unified diff against the file as
 * it is now (or the whole new file), shown before the person approves it.
 * A write that will be refused says why instead.
 */
/** A diff stops past this many line edits or this long: it runs on the main thread, before the question. */
const MAX_DIFF_EDITS = 20_000;
const MAX_DIFF_MS = 250;

function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export async function previewWrite(
  workspace: string,
  p: string,
  content: string,
  bounds: Bounds = {},
): Promise<Preview> {
  let file: string;
  try {
    file = await confineWrite(workspace, p, bounds);
  } catch (err) {
    return { fails: (err as Error).message };
  }
  let before = '';
  try {
    const { bytes, size } = await readHead(
      workspace,
      path.relative(await fs.promises.realpath(workspace), file),
      MAX_READ_BYTES,
      bounds,
    );
    before =
      bytes.toString('utf8') + (size > MAX_READ_BYTES ? `\n[truncated at ${MAX_READ_BYTES} bytes of ${size}]` : '');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return `cannot show the change: ${(err as Error).message}`;
  }
  return diffPreview(p, before, content);
}

/**
 * A unified diff of `before` to `after`, bounded (past the bound: everything that will be written, in numbers and
 * whole).
 */
function diffPreview(p: string, before: string, content: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { structuredPatch } = require('diff') as typeof import('diff');
  // Bounded: a diff of a large rewrite grows with the product of the sizes and would hold the screen
  // for seconds before the question appears; past the bound the change is said in numbers instead.
  const patch = structuredPatch(p, p, before, content, '', '', {
    context: 3,
    maxEditLength: MAX_DIFF_EDITS,
    timeout: MAX_DIFF_MS,
  });
  if (!patch) {
    // No diff, but still everything that will be written, to read before the question is answered.
    const kept = content.endsWith('\n') ? content.slice(0, -1) : content;
    const all = kept.split('\n');
    const width = String(all.length).length;
    const added = all.map((l, i) => numberedDiffLine(i + 1, width, `+${l}`));
    return [
      `too large to show as a diff: ${lineCount(before)} lines replaced by ${lineCount(content)}; what will be ` +
        `written:`,
      ...added,
    ].join('\n');
  }
  const last = patch.hunks.at(-1);
  const width = last ? String(Math.max(last.oldStart + last.oldLines, last.newStart + last.newLines)).length : 1;
  const lines: string[] = [];
  for (const h of patch.hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    let old = h.oldStart;
    let now = h.newStart;
    // A removed line is numbered as it was, an added or kept one as it will be.
    for (const l of h.lines) {
      if (l.startsWith('\\')) continue;
      lines.push(numberedDiffLine(l[0] === '-' ? old : now, width, l));
      if (l[0] !== '+') old++;
      if (l[0] !== '-') now++;
    }
  }
  // Whole: everything that will be written is there to see before the question (the diff itself is bounded above).
  return lines.length === 0 ? 'no change' : lines.join('\n');
}

/** `  12 +text`: a diff line with its number in the file, its sign after it (tui/views.ts colours by the sign). */
function numberedDiffLine(n: number, width: number, line: string): string {
  return `${String(n).padStart(width)} ${line}`;
}

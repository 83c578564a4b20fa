// Reading a file for the file tools: its first bytes and its size without ever blocking on it (a FIFO, a device),
// and a file edit_file may change: confined as a write, existing, not binary, not too large, UTF-8 text.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { binaryKind } from './numbered';
import type { Bounds, EditorFiles } from './tool';
import { ToolPathError, confineRead, confineWrite } from './confine';

/** The first `max` bytes of a regular file in the workspace, and its size, without ever blocking on it. */
export async function readHead(
  workspace: string,
  p: string,
  max: number,
  bounds: Bounds,
): Promise<{ bytes: Buffer; size: number; file: string }> {
  const file = await confineRead(workspace, p, bounds);
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new ToolPathError(`${p} is not a regular file`);
    const buf = Buffer.alloc(Math.min(max, st.size));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return { bytes: buf.subarray(0, bytesRead), size: st.size, file };
  } finally {
    await handle.close();
  }
}

/** The largest file edit_file changes: it is read whole, and every edit searches all of it. */
export const MAX_EDIT_BYTES = 4 * 1024 * 1024;

/**
 * A file edit_file may change, whole, as text: confined as a write, existing, not binary, not too large; its text the
 * editor's (an unsaved buffer) where milk runs behind one that offers it.
 */
export async function editable(
  workspace: string,
  p: string,
  bounds: Bounds,
  editor?: EditorFiles,
): Promise<{ file: string; text: string }> {
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
  const text = utf8Text(p, head.bytes);
  return { file, text: editor?.read ? await editor.read(file) : text };
}

/**
 * A file's text, if it is UTF-8: read otherwise, every byte that is not (Latin-1, CP1252) would come back as U+FFFD on
 * lines the edit never touched, and no diff could show it.
 */
export function utf8Text(p: string, bytes: Buffer): string {
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

export const notChanged = (p: string, why: string): string => `${p} was not changed: ${why}`;

/** What read_file returns of a file, at most. */
export const MAX_READ_BYTES = 256 * 1024;

// What an @-mention attaches when the input is sent: a file's lines,
// numbered and capped as read_file gives them, with its path and line count;
// a folder's entries; or, for a path outside the workspace, a binary or an
// unreadable file, a note saying so, to the model and to the person, never a
// silent drop. Read at send time (the file as it is then), never on a keystroke.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ImageSegment, Segment } from '../protocol/segments';
import { segmentsText } from '../editor/model';
import { DEFAULT_READ_LINES, binaryKind, numberedWindow } from './numbered';
import { describeIoError } from '../io/errors';
import { inside } from './confine';
import { byteSize, imageChip, imageMime } from '../kernel/images';
import { type ImagePart } from '../protocol/images';
import { readImage, readImageAt } from './image-file';

/** Bytes of one attached file read at most; the lines shown are cut as read_file cuts them. */
export const MAX_ATTACH_BYTES = 256 * 1024;
/** Entries of an attached folder listed at most. */
export const MAX_FOLDER_ENTRIES = 200;

export interface Attached {
  /** What the model gets: the input as typed, then each mention's content. */
  readonly text: string;
  /** One line per mention for the transcript: attached (with its size) or why not. */
  readonly notes: readonly string[];
  /** The images mentioned, read (sent as image parts). */
  readonly images: readonly ImagePart[];
}

type One = { block: string; note: string; image?: ImagePart };

/** An image mentioned: its bytes read for the model, its chip for the person. */
function attachImage(fd: number, size: number, rel: string, fail: (why: string) => One): One {
  const read = readImage(fd, size, rel);
  if ('error' in read) return fail(read.error);
  const chip = imageChip(read.image);
  return {
    block: `<image path="${rel}">${chip}</image>`,
    note: `attached ${chip} (${byteSize(size)})`,
    image: read.image,
  };
}

/**
 * An image the person pasted (a dropped file, the clipboard's): read from where it is, in the workspace or not (they
 * chose it); the chip in the input names it to the model. One recalled from history whose file has changed since it
 * was pasted is sent as it is now, and said so.
 */
function pastedImage(seg: ImageSegment): One {
  const read = readImageAt(seg.text, seg.text);
  const name = path.basename(seg.text);
  if ('error' in read)
    return { block: `[image ${name}: not attached: ${read.error}]`, note: `${name} not attached: ${read.error}` };
  const changed = seg.sha256 && seg.sha256 !== read.image.sha256 ? '; the file has changed since it was pasted' : '';
  const note = `attached ${imageChip(read.image)} (${byteSize(read.image.size)}${changed})`;
  return { block: '', note, image: read.image };
}

/** A directory's real path, or it as given when it cannot be resolved. */
function realOr(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** One mention's block for the model, and its note for the person. */
function attachOne(roots: readonly string[], rel: string): One {
  const target = path.resolve(roots[0], rel);
  const fail = (why: string) => ({ block: `[@${rel}: not attached: ${why}]`, note: `@${rel} not attached: ${why}` });
  const where = roots.length > 1 ? 'the workspace and the added directories' : 'the workspace';
  if (!roots.some((r) => inside(r, target))) return fail(`it is outside ${where}`);
  let real: string;
  try {
    real = fs.realpathSync(target);
  } catch (err) {
    return fail(describeIoError(err));
  }
  if (!roots.some((r) => inside(r, real))) return fail(`it leads outside ${where}`);
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO must not hold the send up waiting for a writer.
    fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    return fail(describeIoError(err));
  }
  try {
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) return folder(real, rel);
    if (!st.isFile()) return fail('it is not a regular file');
    const buf = Buffer.alloc(Math.min(st.size, MAX_ATTACH_BYTES));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const bytes = buf.subarray(0, n);
    if (imageMime(bytes)) return attachImage(fd, st.size, rel, fail);
    const kind = binaryKind(bytes);
    if (kind) return fail(`it is a binary file (${kind}, ${st.size} bytes)`);
    const partial = st.size > MAX_ATTACH_BYTES;
    const raw = partial ? bytes.toString('utf8').replace(/\uFFFD+$/, '') : bytes.toString('utf8');
    const text = partial ? raw.slice(0, raw.lastIndexOf('\n') + 1) : raw;
    const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const shown = numberedWindow(text, { limit: DEFAULT_READ_LINES }, partial);
    const count = `${lines} line${lines === 1 ? '' : 's'}${partial ? ` of a ${st.size}-byte file` : ''}`;
    return { block: `<file path="${rel}" lines="${lines}">\n${shown}\n</file>`, note: `attached @${rel} (${count})` };
  } catch (err) {
    return fail(describeIoError(err));
  } finally {
    fs.closeSync(fd);
  }
}

function folder(real: string, rel: string): One {
  const entries = fs.readdirSync(real, { withFileTypes: true }).filter((e) => e.name !== '.git');
  const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  const shown = names.slice(0, MAX_FOLDER_ENTRIES);
  const more = names.length > shown.length ? `\n[and ${names.length - shown.length} more]` : '';
  const count = `${names.length} entr${names.length === 1 ? 'y' : 'ies'}`;
  return {
    block: `<folder path="${rel}" entries="${names.length}">\n${shown.join('\n')}${more}\n</folder>`,
    note: `attached @${rel} (${count})`,
  };
}

/**
 * The input with its mentions' content after it; an input without mentions is its text as it is. `also`: directories
 * added to the workspace, whose files a mention may name by their whole path.
 */
export function attachMentions(
  workspace: string,
  segments: readonly Segment[],
  also: readonly string[] = [],
): Attached {
  const mentions = [...new Set(segments.filter((s) => s.type === 'file').map((s) => s.text))];
  const images = segments.filter((s): s is ImageSegment => s.type === 'image');
  // Each file once, however many of its chips the input holds.
  const pasted = images.filter((s, i) => images.findIndex((o) => o.text === s.text) === i).map(pastedImage);
  const text = segmentsText(segments);
  if (mentions.length === 0 && pasted.length === 0) return { text, notes: [], images: [] };
  let root: string;
  try {
    root = fs.realpathSync(workspace);
  } catch {
    root = path.resolve(workspace);
  }
  const roots = [root, ...also.map((d) => realOr(d))];
  const parts = [...mentions.map((m) => attachOne(roots, m.replace(/\/$/, '') || '.')), ...pasted];
  return {
    text: [text, ...parts.map((p) => p.block).filter(Boolean)].join('\n\n'),
    notes: parts.map((p) => p.note),
    images: parts.flatMap((p) => (p.image ? [p.image] : [])),
  };
}

/**
 * A prompt given whole (`milk run`): each `@path` at a word's start that names something in the workspace is a mention
 * (attached as the composer's are); any other `@` is text.
 */
export function mentionsIn(workspace: string, prompt: string, also: readonly string[] = []): Segment[] {
  const out: Segment[] = [];
  let text = '';
  const named = (rel: string): boolean =>
    path.isAbsolute(rel) ? also.some((d) => inside(realOr(d), path.resolve(rel))) : true;
  for (const piece of prompt.split(/(?<=^|\s)(@[^\s@]+)/)) {
    const rel = piece.startsWith('@') ? piece.slice(1).replace(/[.,;:!?)]+$/, '') : null;
    if (rel && named(rel) && fs.existsSync(path.resolve(workspace, rel))) {
      if (text) out.push({ type: 'text', text });
      out.push({ type: 'file', text: rel });
      text = piece.slice(1 + rel.length);
    } else text += piece;
  }
  if (text) out.push({ type: 'text', text });
  return out;
}

/**
 * A resumed conversation's images, read again from the workspace (the log keeps what they were, not their bytes):
 * each the same file as before (by its SHA-256) goes to the model again; one missing, changed or now out of reach is
 * left out, the message saying so, and a note for the person.
 */
export function rereadImages<M extends { content: string; images?: readonly ImagePart[] }>(
  messages: readonly M[],
  workspace: string,
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
      content += `\n${imageChip(p)} is no longer sent: ${got}`;
      notes.push(`${imageChip(p)} could not be read again (${got}); the model is told it is gone`);
    }
    return { ...m, content, images: kept };
  });
  return { messages: out, notes };
}

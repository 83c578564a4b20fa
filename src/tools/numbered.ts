// What read_file shows the model: a window of lines with their numbers (as
// `cat -n` prints them, so an edit can name the lines it means), a note on
// what was left out and how to read on, and binary files named instead of
// dumped; a secret is never cut in two (mask, then cut), and a window that
// begins inside a private key has that key's lines masked. Pure.

import { KEY_LOOKBACK, MASKED_KEY_LINE, clearCut, endsInsideKey, keyBodyLines } from '../kernel/secret-shapes';

/** Lines shown when the model names no limit. */
export const DEFAULT_READ_LINES = 2000;
/** A longer line is cut: one minified line must not fill the context. */
export const MAX_LINE_CHARS = 2000;

const MAGIC: Array<[string, number[]]> = [
  ['PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG image', [0xff, 0xd8, 0xff]],
  ['GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['ZIP archive', [0x50, 0x4b, 0x03, 0x04]],
  ['gzip archive', [0x1f, 0x8b]],
  ['ELF executable', [0x7f, 0x45, 0x4c, 0x46]],
  ['WebAssembly module', [0x00, 0x61, 0x73, 0x6d]],
  ['SQLite database', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65]],
];

/**
 * What kind of binary file the start of a file shows, or null for text (no NUL in its first 8 KiB and no known magic).
 */
export function binaryKind(head: Uint8Array): string | null {
  for (const [name, magic] of MAGIC) if (magic.every((b, i) => head[i] === b)) return name;
  return head.subarray(0, 8192).includes(0) ? 'binary data' : null;
}

export interface Window {
  /** 1-based first line to show. */
  offset?: number;
  /** How many lines to show. */
  limit?: number;
}

/**
 * Lines `offset`…`offset+limit-1` of `text`, numbered, with a note on anything left out; `partial`: only the file's
 * start was read.
 */
export function numberedWindow(text: string, w: Window, partial = false): string {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  const from = Math.max(1, Math.floor(w.offset ?? 1));
  const limit = Math.max(1, Math.floor(w.limit ?? DEFAULT_READ_LINES));
  if (text === '') return '[the file is empty]';
  if (from > total)
    return (
      `[the file has ${total} line${total === 1 ? '' : 's'}${partial ? ' in the part read' : ''}; offset ` +
      `${from} is past its end]`
    );
  const to = Math.min(total, from + limit - 1);
  const width = String(to).length;
  const out: string[] = [];
  const masked = keyMasked(lines, from, to);
  for (let n = from; n <= to; n++) {
    const line = masked[n - from] ? MASKED_KEY_LINE : lines[n - 1];
    out.push(`${String(n).padStart(width)}\t${cutLine(line, MAX_LINE_CHARS)}`);
  }
  if (from > 1 || to < total || partial) {
    const more = to < total ? `; read on with offset ${to + 1}` : '';
    out.push(`[lines ${from}-${to} of ${total}${partial ? ' in the part read (the file is larger)' : ''}${more}]`);
  }
  return out.join('\n');
}

/** A line as a tool shows it: whole, or its head up to `max` (never half a secret) and how long it was. */
export function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  return `${line.slice(0, clearCut(line, max))}… [line cut at ${max} of ${line.length} characters]`;
}

/**
 * Which lines of `from`…`to` belong to a private key whose BEGIN line is above `from` (looked for up to KEY_LOOKBACK
 * back): the window holds no line that says they are a key, so the request's own mask could not know. A key that
 * begins inside the window is masked whole as the request leaves (turn/secrets.ts).
 */
function keyMasked(lines: readonly string[], from: number, to: number): boolean[] {
  const before: string[] = [];
  let size = 0;
  for (let n = from - 1; n >= 1 && size < KEY_LOOKBACK; n--) {
    before.push(lines[n - 1]);
    size += lines[n - 1].length + 1;
  }
  if (!endsInsideKey(before.reverse().join('\n'))) return [];
  // The lines of that key only, up to its END line: a key that begins later is the request's to mask.
  const body = keyBodyLines(lines.slice(from - 1, to), true);
  const end = body.indexOf(false);
  return end === -1 ? body : body.slice(0, end);
}

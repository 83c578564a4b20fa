// What read_file shows the model: a window of lines with their numbers (as
// `cat -n` prints them, so an edit can name the lines it means), a note on
// what was left out and how to read on, and binary files named instead of
// dumped. Pure.

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
  for (let n = from; n <= to; n++) {
    const line = lines[n - 1];
    const shown =
      line.length > MAX_LINE_CHARS
        ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} of ${line.length} characters]`
        : line;
    out.push(`${String(n).padStart(width)}\t${shown}`);
  }
  if (from > 1 || to < total || partial) {
    const more = to < total ? `; read on with offset ${to + 1}` : '';
    out.push(`[lines ${from}-${to} of ${total}${partial ? ' in the part read (the file is larger)' : ''}${more}]`);
  }
  return out.join('\n');
}

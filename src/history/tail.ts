// Reads a history file's header line and only as many of its last lines as
// can matter: appends from many processes can leave a file far past its cap
// (hundreds of megabytes), and loading or compacting it must cost what the
// cap allows, not what the file weighs. Small files are read whole.

import * as fs from 'node:fs';
import { openRegular } from '../io/files';

/** Files up to this size are read whole, so damage anywhere in them is seen. */
const WHOLE_BELOW = 4 * 1024 * 1024;
const CHUNK = 128 * 1024;
const HEADER_MAX = 64 * 1024;

export interface Tail {
  /** The header line (if the file has one) followed by whole last lines. */
  bytes: Buffer;
  /** False when older lines were left unread. */
  whole: boolean;
  /** Where the bytes read end, and which file they came from (a rewrite makes a new inode). */
  mark: FileMark;
}

export interface FileMark {
  readonly offset: number;
  readonly ino: number;
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) n++;
  return n;
}

/** The first line and at least `lines` last lines of `file` (everything when it is small). Throws like readFileSync. */
export function readTail(file: string, lines: number): Tail {
  const fd = openRegular(file);
  try {
    const st = fs.fstatSync(fd);
    const size = st.size;
    if (size <= WHOLE_BELOW) {
      const bytes = fs.readFileSync(fd);
      return { bytes, whole: true, mark: { offset: completeLength(bytes), ino: st.ino } };
    }
    const head = Buffer.alloc(Math.min(HEADER_MAX, size));
    fs.readSync(fd, head, 0, head.length, 0);
    const nl = head.indexOf(0x0a);
    const headerEnd = nl === -1 ? 0 : nl + 1;
    const chunks: Buffer[] = [];
    let pos = size;
    let newlines = 0;
    while (pos > headerEnd && newlines <= lines) {
      const len = Math.min(CHUNK, pos - headerEnd);
      pos -= len;
      const buf = Buffer.alloc(len);
      fs.readSync(fd, buf, 0, len, pos);
      chunks.unshift(buf);
      newlines += countNewlines(buf);
    }
    let tail = Buffer.concat(chunks);
    if (pos > headerEnd) {
      // The first line read is cut at its start: drop it.
      tail = tail.subarray(tail.indexOf(0x0a) + 1);
    }
    const bytes = Buffer.concat([head.subarray(0, headerEnd), tail]);
    // A line still being written at the end is read again, whole, once it is.
    return {
      bytes,
      whole: pos <= headerEnd,
      mark: { offset: size - (bytes.length - completeLength(bytes)), ino: st.ino },
    };
  } finally {
    fs.closeSync(fd);
  }
}

/** The length of `bytes` up to and including its last newline: a line still being written is left for later. */
export function completeLength(bytes: Uint8Array): number {
  const nl = bytes.lastIndexOf(0x0a);
  return nl + 1;
}

export type Growth =
  | { readonly kind: 'same' }
  /** Whole new lines past the mark, and the mark after them. */
  | { readonly kind: 'grew'; readonly bytes: Buffer; readonly mark: FileMark }
  /** Not the file the mark was taken on (rewritten, shrunk, gone): read it whole again. */
  | { readonly kind: 'replaced' };

/** What another process appended to `file` since `mark`. Throws like readFileSync (ENOENT included). */
export function readGrowth(file: string, mark: FileMark): Growth {
  const fd = openRegular(file);
  try {
    const st = fs.fstatSync(fd);
    if (st.ino !== mark.ino || st.size < mark.offset) return { kind: 'replaced' };
    if (st.size === mark.offset) return { kind: 'same' };
    const buf = Buffer.alloc(st.size - mark.offset);
    const got = fs.readSync(fd, buf, 0, buf.length, mark.offset);
    const n = completeLength(buf.subarray(0, got));
    return n === 0
      ? { kind: 'same' }
      : { kind: 'grew', bytes: buf.subarray(0, n), mark: { offset: mark.offset + n, ino: st.ino } };
  } finally {
    fs.closeSync(fd);
  }
}

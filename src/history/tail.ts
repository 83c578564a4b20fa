// Reads a history file's header line and only as many of its last lines as
// can matter: appends from many processes can leave a file far past its cap
// (hundreds of megabytes), and loading or compacting it must cost what the
// cap allows, not what the file weighs. Small files are read whole.

import * as fs from 'node:fs';

/** Files up to this size are read whole, so damage anywhere in them is seen. */
const WHOLE_BELOW = 4 * 1024 * 1024;
const CHUNK = 128 * 1024;
const HEADER_MAX = 64 * 1024;

export interface Tail {
  /** The header line (if the file has one) followed by whole last lines. */
  bytes: Buffer;
  /** False when older lines were left unread. */
  whole: boolean;
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) n++;
  return n;
}

/** The first line and at least `lines` last lines of `file` (everything when it is small). Throws like readFileSync. */
export function readTail(file: string, lines: number): Tail {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size <= WHOLE_BELOW) return { bytes: fs.readFileSync(fd), whole: true };
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
    return { bytes: Buffer.concat([head.subarray(0, headerEnd), tail]), whole: pos <= headerEnd };
  } finally {
    fs.closeSync(fd);
  }
}

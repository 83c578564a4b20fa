// Reading a file of lines of any size: in chunks, one line at a time, so
// that no string is ever the whole file (V8 refuses strings past ~512 MiB,
// and a conversation log may grow past that), and a line past a limit is
// skipped whole instead of held.

import * as fs from 'node:fs';
import { openRegular } from './files';

const CHUNK = 1 << 20;

export interface LineScan {
  /** The file did not end with a newline: a writer died mid-line (the partial line was still passed on). */
  torn: boolean;
  /** Lines longer than the limit, skipped. */
  oversized: number;
  /** Bytes read. */
  bytes: number;
}

/** Reads `file` in chunks, handing on each line's pieces in order: `ends` when the line ends with that piece. */
function eachPiece(
  file: string,
  scan: LineScan,
  piece: (buf: Buffer, from: number, to: number, ends: boolean) => void,
): void {
  const fd = openRegular(file);
  const buf = Buffer.allocUnsafe(CHUNK);
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null);
      if (n <= 0) break;
      scan.bytes += n;
      let start = 0;
      for (let nl = buf.indexOf(0x0a, start); nl !== -1 && nl < n; nl = buf.indexOf(0x0a, start)) {
        piece(buf, start, nl, true);
        start = nl + 1;
      }
      if (start < n) piece(buf, start, n, false);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Calls `fn` with each line of a regular file (see openRegular), without its
 * newline, decoded as UTF-8. A line of more than `maxLineBytes` is not
 * passed on; it is counted. Throws like openRegular and readSync.
 */
export function eachLine(file: string, maxLineBytes: number, fn: (line: string) => void): LineScan {
  const scan: LineScan = { torn: false, oversized: 0, bytes: 0 };
  let parts: Buffer[] = [];
  let held = 0;
  let skipping = false;
  const hold = (part: Buffer): void => {
    if (skipping) return;
    if (held + part.length > maxLineBytes) {
      skipping = true;
      parts = [];
      held = 0;
      return;
    }
    // A copy: the chunk buffer is reused by the next read.
    parts.push(Buffer.from(part));
    held += part.length;
  };
  const endLine = (): void => {
    if (skipping) scan.oversized++;
    else fn(Buffer.concat(parts, held).toString('utf8'));
    parts = [];
    held = 0;
    skipping = false;
  };
  eachPiece(file, scan, (buf, from, to, ends) => {
    hold(buf.subarray(from, to));
    if (ends) endLine();
  });
  if (held > 0 || skipping) {
    scan.torn = true;
    endLine();
  }
  return scan;
}

/**
 * Calls `fn` with the first `headBytes` of each line as bytes (a view valid during the call only) and whether that was
 * the whole line: for a reader that needs the start of a few lines only (usage over a log of megabytes of answers),
 * never copying or decoding the rest.
 */
export function eachLineHead(file: string, headBytes: number, fn: (head: Buffer, whole: boolean) => void): LineScan {
  const scan: LineScan = { torn: false, oversized: 0, bytes: 0 };
  const head = Buffer.allocUnsafe(headBytes);
  let held = 0;
  let cut = false;
  eachPiece(file, scan, (buf, from, to, ends) => {
    // A short line read whole in one chunk: handed on as it lies there, copied nowhere.
    if (ends && held === 0 && !cut && to - from <= headBytes) return fn(buf.subarray(from, to), true);
    if (to - from > headBytes - held) cut = true;
    const take = Math.min(to - from, headBytes - held);
    if (take > 0) held += buf.copy(head, held, from, from + take);
    if (!ends) return;
    fn(head.subarray(0, held), !cut);
    held = 0;
    cut = false;
  });
  if (held > 0 || cut) {
    scan.torn = true;
    fn(head.subarray(0, held), !cut);
  }
  return scan;
}

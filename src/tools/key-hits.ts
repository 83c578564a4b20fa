// grep's lines that are a private key's body: a search for base64 lines finds them without the BEGIN line that says
// what they are, so the request's own mask (turn/secrets.ts) could not know them. Each line shaped like a key's body
// is looked at in its file: up to KEY_LOOKBACK bytes before it, for a BEGIN line not yet ended.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { maxOf } from '../kernel/arrays';
import { KEY_LOOKBACK, MASKED_KEY_LINE, endsInsideKey } from '../kernel/secret-shapes';
import type { HitLine } from './search-results';

/** A line that could be part of a key's body: base64 only (PEM, OpenSSH), maybe indented (YAML) or quoted. */
const BODY = /^[\s"']*[A-Za-z0-9+/]{16,}={0,2}[\s"',]*$/;

/** Masks, in place, each of `files`' lines that lies inside a private key (files under `root`). */
export async function maskKeyHits(
  root: string,
  files: ReadonlyArray<{ source: string; lines: HitLine[] }>,
): Promise<void> {
  for (const f of files) {
    const suspects = f.lines.filter((l) => l.at !== undefined && BODY.test(l.text));
    if (suspects.length === 0) continue;
    const to = maxOf(suspects.map((l) => l.at!));
    const from = Math.max(0, -maxOf(suspects.map((l) => -l.at!)) - KEY_LOOKBACK);
    // latin1: the BEGIN and END lines are ASCII, and each byte is one character, so an offset is an index.
    const region = await readRange(path.join(root, f.source), from, to - from).catch(() => null);
    for (const l of suspects) {
      const inside =
        region === null || endsInsideKey(region.slice(Math.max(0, l.at! - from - KEY_LOOKBACK), l.at! - from));
      if (inside) l.text = MASKED_KEY_LINE;
    }
  }
}

/** `length` bytes of a regular file from `start`, as latin1, never blocking on a FIFO. */
async function readRange(file: string, start: number, length: number): Promise<string> {
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile()) return '';
    const buf = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buf, 0, length, start);
    return buf.subarray(0, bytesRead).toString('latin1');
  } finally {
    await handle.close();
  }
}

// Entries that could not reach a history file at exit (its lock stayed busy, or the write failed) go into a file of
// their own beside it, `<file>.pending-<pid>-<time>` (atomically, 0600), which the next milk to start takes in and
// removes: nothing entered is lost with the process that took it.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseHistory, serializeEntry } from './format';
import { readRegular, writeAtomic } from '../io/files';
import type { HistoryEntry } from './rules';

/** Writes `entries` beside `file`; false when not even that could be written (the disk refuses everything). */
export function stashEntries(file: string, entries: readonly HistoryEntry[], now: number): boolean {
  const name = `${file}.pending-${process.pid}-${now.toString(36)}`;
  try {
    writeAtomic(name, entries.map((e) => serializeEntry(e) + '\n').join(''));
    return true;
  } catch {
    return false;
  }
}

/** The entries earlier milks stashed beside `file`, oldest first; their files are removed once read. */
export function takeStashed(file: string): HistoryEntry[] {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.pending-`;
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => n.startsWith(prefix) && !n.includes('.tmp-') && !n.includes('.taken-'))
      .sort();
  } catch {
    return [];
  }
  const out: HistoryEntry[] = [];
  for (const name of names) {
    // Claimed by renaming first: of two milks starting at once, only one takes a stash in.
    const taken = path.join(dir, `${name}.taken-${process.pid}`);
    try {
      fs.renameSync(path.join(dir, name), taken);
    } catch {
      continue;
    }
    try {
      for (const e of parseHistory(readRegular(taken)).entries) out.push(e);
      fs.rmSync(taken, { force: true });
    } catch {
      // Unreadable: put back where the next milk looks, if it can be.
      fs.rename(taken, path.join(dir, name), () => undefined);
    }
  }
  return out;
}

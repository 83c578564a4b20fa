// The snapshots' private git store (snapshots.ts) set up, and what one milk keeps in it for the next: its index (whose
// stat cache makes the next first snapshot a walk of stats) with the book of modes and owners that index's files have
// (snapshot-modes.ts), taken up only while that index is the one the book describes.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StoreGit } from './snapshot-git';
import type { ModeBook } from './snapshot-modes';
import { excludeLine } from './snapshot-plan';

/** Every attribute that would change a file's bytes, unset for every path. */
const EXACT = '* -text -eol -filter -ident -working-tree-encoding -crlf\n';

const CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['core.bare', 'false'],
  ['core.autocrlf', 'false'],
  ['core.symlinks', 'true'],
  ['gc.auto', '0'],
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'true'],
  ['core.safecrlf', 'false'],
  ['core.attributesFile', '/dev/null'],
];

export interface StorePlaces {
  readonly store: string;
  readonly workspace: string;
  /** This process's index. */
  readonly index: string;
  /** Real paths never stored (the data dir, where it lies in the workspace). */
  readonly leaveOut: readonly string[];
}

export const excludeFile = (store: string): string => path.join(store, 'info', 'exclude');

/** The store made (once) and set: its config, attributes, excludes; this process's index from the last one kept. */
export async function openStore(repo: StoreGit, p: StorePlaces, book: ModeBook): Promise<void> {
  const fresh = !fs.existsSync(path.join(p.store, 'HEAD'));
  await fs.promises.mkdir(path.dirname(p.store), { recursive: true, mode: 0o700 });
  if (fresh) {
    // Made without a work tree (git refuses one for init); GIT_DIR names it.
    await repo.must(['init', '-q', '--bare'], { workTree: false });
    await fs.promises.chmod(p.store, 0o700);
  }
  for (const [key, value] of CONFIG) await repo.must(['config', key, value]);
  await fs.promises.mkdir(path.join(p.store, 'info'), { recursive: true });
  // The store's own attributes come before the workspace's .gitattributes: no end-of-line conversion, filter,
  // encoding or ident touches a file's bytes on their way in (nor out: a restore writes the blob as it is).
  await fs.promises.writeFile(path.join(p.store, 'info', 'attributes'), EXACT);
  const leaveOut = p.leaveOut
    .map((q) => path.relative(p.workspace, q))
    .filter((rel) => rel && !rel.startsWith('..') && !path.isAbsolute(rel))
    .map((rel) => excludeLine(rel.split(path.sep).join('/')));
  await fs.promises.writeFile(excludeFile(p.store), leaveOut.join('\n') + (leaveOut.length ? '\n' : ''));
  await takeUpIndex(p, book);
}

/** The last milk's index and its book, where the book describes that very index; else a fresh index (all read). */
async function takeUpIndex(p: StorePlaces, book: ModeBook): Promise<void> {
  const kept = path.join(p.store, 'index');
  const copied = await fs.promises
    .copyFile(kept, p.index)
    .then(() => true)
    .catch(() => false);
  if (!copied) return;
  try {
    const modes = JSON.parse(await fs.promises.readFile(`${kept}.modes`, 'utf8')) as { index?: string; book?: unknown };
    if (modes.index === (await checksumOf(p.index)) && book.takeUp(modes.book)) return;
  } catch {
    // No book (another milk's index replaced it, or an older milk's): modes unknown.
  }
  await fs.promises.rm(p.index, { force: true });
}

/** An index file's own checksum (its last 20 bytes), as hex. */
async function checksumOf(index: string): Promise<string> {
  const fh = await fs.promises.open(index, 'r');
  try {
    const { size } = await fh.stat();
    const tail = Buffer.alloc(20);
    await fh.read(tail, 0, 20, Math.max(0, size - 20));
    return tail.toString('hex');
  } finally {
    await fh.close();
  }
}

/** At exit (synchronous): this process's index kept for the next, with its book. Nothing is started. */
export function keepIndex(p: StorePlaces, book: ModeBook): void {
  try {
    const fd = fs.openSync(p.index, 'r');
    const tail = Buffer.alloc(20);
    try {
      fs.readSync(fd, tail, 0, 20, Math.max(0, fs.fstatSync(fd).size - 20));
    } finally {
      fs.closeSync(fd);
    }
    const kept = path.join(p.store, 'index');
    fs.writeFileSync(`${kept}.modes`, JSON.stringify({ index: tail.toString('hex'), book: book }), { mode: 0o600 });
    fs.renameSync(p.index, kept);
  } catch {
    // Another milk's index stays; the next start reads everything once.
  }
}

/** Files stat'ed at once (their stats read in parallel: a first snapshot of 50,000 files takes half as long). */
const STAT_CHUNK = 64;

/**
 * Each path's stat (null: gone), read in parallel chunks, each noted in the book of modes; and, for the book only,
 * the files it asks to see again (read in the second before the last snapshot: a chmod since is invisible to git).
 */
export async function statAll(
  workspace: string,
  paths: readonly Buffer[],
  book: ModeBook,
): Promise<Array<fs.Stats | null>> {
  const root = Buffer.from(workspace + path.sep);
  const now = Date.now();
  const stat = (rel: Buffer) => fs.promises.lstat(Buffer.concat([root, rel])).catch(() => null);
  const out: Array<fs.Stats | null> = [];
  const again = book.recent();
  const all = again.length === 0 ? paths : paths.concat(again);
  for (let at = 0; at < all.length; at += STAT_CHUNK) {
    const chunk = all.slice(at, at + STAT_CHUNK);
    const stats = await Promise.all(chunk.map(stat));
    stats.forEach((st, i) => book.note(chunk[i], st, now));
    for (const st of stats) if (out.length < paths.length) out.push(st);
  }
  return out;
}

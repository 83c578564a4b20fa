// File mechanics the history files, the conversation logs and /copy share:
// private folders, a whole rewrite that a crash cannot tear (temp file,
// fsync, rename, folder fsync), the name a damaged file is copied aside
// under, and whether an append must first end a line a killed writer left torn.

import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Writes every byte of `data` at the file's position, or throws: a write
 * that stops short (a full disk, a file-size limit) is never taken for done.
 */
export function writeAll(fd: number, data: string | Buffer): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let off = 0;
  while (off < buf.length) {
    const n = fs.writeSync(fd, buf, off, buf.length - off);
    if (n <= 0) throw Object.assign(new Error('the write stopped short'), { code: 'ENOSPC' });
    off += n;
  }
}

/** Writes chunks in batches of about this many characters: a file of any size, never one string of all of it. */
const BATCH_CHARS = 4 * 1024 * 1024;

function writeChunks(fd: number, data: string | readonly string[]): void {
  if (typeof data === 'string') return writeAll(fd, data);
  let batch = '';
  for (const chunk of data) {
    batch += chunk;
    if (batch.length >= BATCH_CHARS) {
      writeAll(fd, batch);
      batch = '';
    }
  }
  if (batch) writeAll(fd, batch);
}

/**
 * Replaces `file` with `data` (a string, or chunks written in order)
 * atomically, 0600. Throws on I/O failure (a short write included), leaving
 * the old file. `exclusive`: only if there is no file there yet (then
 * returns false and leaves it).
 */
export function writeAtomic(
  file: string,
  data: string | readonly string[],
  options: { exclusive?: boolean } = {},
): boolean {
  const tmp = `${file}.tmp-${process.pid}-${Date.now().toString(36)}`;
  // A new file, never through a link someone planted under the temp name.
  const fd = fs.openSync(
    tmp,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
    0o600,
  );
  try {
    writeChunks(fd, data);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  if (options.exclusive) {
    // link never replaces what is there.
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return false;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  } else {
    fs.renameSync(tmp, file);
    fs.chmodSync(file, 0o600);
  }
  syncFolder(path.dirname(file));
  return true;
}

/**
 * Replaces `file` with `content` off the event loop: a new temp file beside it
 * (created exclusively, never through a link), synced, renamed over it with
 * `mode`. A symlink swapped in meanwhile is replaced, not followed; on failure
 * the old file stays and the temp file goes.
 */
export async function writeAtomicAsync(
  file: string,
  content: string,
  mode: number,
  owner?: { uid: number; gid: number },
): Promise<void> {
  // Loaded at the first write, not at start-up (node:crypto takes 7–15 ms to load).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.milk-${randomBytes(6).toString('hex')}`);
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;
  const handle = await fs.promises.open(tmp, flags, mode & 0o777);
  try {
    // The file's owner where milk may give it (as root); then its whole mode, which open's umask and a change of owner
    // would have cut (0664 made 0644, setuid dropped).
    const owned = owner
      ? await handle.chown(owner.uid, owner.gid).then(
          () => true,
          () => false,
        )
      : true;
    // Not given to its owner: a setuid or setgid bit would now run the file as milk's user, so it is left off.
    await handle.chmod(owned ? mode : mode & ~0o6000);
    await handle.writeFile(content);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
}

/** Makes a rename or link in `dir` survive a power cut. */
function syncFolder(dir: string): void {
  try {
    const dfd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    // Some file systems refuse fsync on a directory.
  }
}

/** `<file>.corrupt-<time>`, with a counter if that name is taken (two within a millisecond). */
export function asideName(file: string): string {
  const base = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  let name = base;
  for (let n = 1; fs.existsSync(name); n++) name = `${base}-${n}`;
  return name;
}

/** An open file's end: empty, ending in a newline, or torn mid-line by a writer that died. */
export function fileEnd(fd: number): 'empty' | 'whole' | 'torn' {
  const size = fs.fstatSync(fd).size;
  if (size === 0) return 'empty';
  const last = Buffer.alloc(1);
  fs.readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a ? 'whole' : 'torn';
}

/** Creates the folder and its parents, private to the user (0700). */
export function ensureDir(dir: string): void {
  try {
    // Every folder it creates gets the mode, parents included.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // Node's recursive mkdir says ENOENT for any folder it could not make (a
    // read-only file system, no permission): making the first missing one
    // alone gives the real reason.
    let missing = path.resolve(dir);
    while (path.dirname(missing) !== missing && !fs.existsSync(path.dirname(missing))) missing = path.dirname(missing);
    fs.mkdirSync(missing, { mode: 0o700 });
    throw err;
  }
}

/** A path milk reads or writes that is not a regular file (a FIFO, a device, a folder, or a link where milk writes). */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(readonly file: string) {
    super(`${file} is not a regular file`);
    this.name = 'NotRegularFileError';
  }
}

/**
 * Opens an existing file to read: without waiting (opening a FIFO blocks
 * until a writer comes, and milk would hang with it) and only if it is a
 * regular file. A link is followed: a person may keep a file elsewhere.
 */
export function openRegular(file: string): number {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    // A folder keeps the error reading it gave before (EISDIR), which its callers explain and repair.
    if (st.isDirectory()) throw Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' });
    if (!st.isFile()) throw new NotRegularFileError(file);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  return fd;
}

/** The whole of a regular file (see openRegular); throws like readFileSync, and NotRegularFileError. */
export function readRegular(file: string): Buffer {
  const fd = openRegular(file);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether `file`, its links followed, is really inside `dir` (also resolved); false when it cannot be resolved. */
export function insideReal(file: string, dir: string): boolean {
  try {
    const real = fs.realpathSync(file);
    const root = fs.realpathSync(dir);
    return real === root || real.startsWith(root + path.sep);
  } catch {
    return false;
  }
}

/** A regular file larger than it may be: it was not read. */
export class TooLargeFileError extends Error {
  readonly code = 'ETOOLARGE';
  constructor(
    readonly file: string,
    readonly size: number,
    readonly max: number,
  ) {
    super(`${file} is ${size} bytes, more than the ${max} read`);
    this.name = 'TooLargeFileError';
  }
}

/** A regular file of at most `max` bytes, whole (see openRegular): one larger is not read at all. */
export function readRegularCapped(file: string, max: number): Buffer {
  const fd = openRegular(file);
  try {
    const size = fs.fstatSync(fd).size;
    if (size > max) throw new TooLargeFileError(file, size, max);
    const buf = Buffer.alloc(size);
    return buf.subarray(0, fs.readSync(fd, buf, 0, size, 0));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A regular file's text of at most `max` bytes, off the event loop by the callback API (fs.promises would load its
 * module before the first paint): opened without blocking, so a FIFO planted there is refused, never waited on.
 */
export function readRegularText(file: string, max: number): Promise<string> {
  const { O_RDONLY, O_NONBLOCK } = fs.constants;
  return new Promise((resolve, reject) =>
    fs.open(file, O_RDONLY | O_NONBLOCK, (err, fd) => {
      if (err) return reject(err);
      const done = (e: Error | null, text?: string): void => fs.close(fd, () => (e ? reject(e) : resolve(text ?? '')));
      fs.fstat(fd, (e, st) => {
        if (e) return done(e);
        if (st.isDirectory()) return done(Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' }));
        if (!st.isFile()) return done(new NotRegularFileError(file));
        if (st.size > max) return done(new TooLargeFileError(file, st.size, max));
        const buf = Buffer.alloc(st.size);
        fs.read(fd, buf, 0, st.size, 0, (e2, n) => done(e2, buf.subarray(0, n).toString('utf8')));
      });
    }),
  );
}

/**
 * Opens one of milk's own files to append to, creating it (0600): never
 * through a symbolic link (a link planted in the data dir would send milk's
 * writes elsewhere) and only if it is a regular file (a FIFO would block the
 * writes for ever).
 */
export function openForAppend(file: string): number {
  const { O_RDWR, O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new NotRegularFileError(file);
    throw err;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) throw new NotRegularFileError(file);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  return fd;
}

/** Creates a new file (0600) with `data`: never over an existing one or through a link. */
export function writeNew(file: string, data: string): void {
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    writeAll(fd, data);
  } finally {
    fs.closeSync(fd);
  }
}

/** The folder holding `.git` at or above `dir` (the repository's root), or null. */
export function gitRoot(dir: string): string | null {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return null;
  }
}

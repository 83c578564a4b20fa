// Writes and removals that no link can lead out of a root folder, however the folders under it change meanwhile (a
// background command flipping `a/` between a folder and a symbolic link): each folder is opened from the one above
// it by descriptor, never followed through a link (O_NOFOLLOW), made where missing one level at a time (no
// `mkdir -p` on a joined path), and every change is made under that folder's own `/proc/self/fd/N/` name after
// checking that the folder still lies inside the root (it could have been moved out). A file is written into a new
// file made only if nothing is there (O_EXCL, never through a link), given its owner and mode, and renamed over the
// old one. Linux only (/proc). The restore child (restore-child.ts) and its fallback in milk use it.

import * as fs from 'node:fs';

const { O_RDONLY, O_WRONLY, O_DIRECTORY, O_NOFOLLOW, O_CREAT, O_EXCL } = fs.constants;

/** A file's owner, where it is to be given (as root only). */
export interface Owner {
  readonly uid: number;
  readonly gid: number;
}

const LINK_ON_PATH = 'a folder on its path is a link or a file; not followed';

export class Contained {
  private readonly rootFd: number;

  /** `root`: a real path (no link in it), the folder nothing leaves. */
  constructor(private readonly root: string) {
    if (!fs.existsSync('/proc/self/fd')) throw new Error('files cannot be put back safely here (no /proc)');
    this.rootFd = fs.openSync(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    if (this.where(this.rootFd) !== root) {
      fs.closeSync(this.rootFd);
      throw new Error('the workspace is not where it was (a link on its path)');
    }
  }

  close(): void {
    fs.closeSync(this.rootFd);
  }

  /** Writes `data` as the file `rel` (from the root, with /): a new file renamed over it, with `mode` and `owner`. */
  write(rel: string, data: Buffer, mode: number, owner?: Owner): void {
    this.inFolder(rel, (at, name, folder) => {
      const tmp = temporary();
      const fd = fs.openSync(at + tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
      try {
        for (let off = 0; off < data.length;) off += fs.writeSync(fd, data, off, data.length - off);
        // The owner first: a change of owner clears setuid and setgid, which the mode then sets.
        if (owner) fs.fchownSync(fd, owner.uid, owner.gid);
        fs.fchmodSync(fd, mode);
      } finally {
        fs.closeSync(fd);
      }
      this.swap(folder, tmp, name);
    });
  }

  /** Makes `rel` a symbolic link to `target` (a new link renamed over what is there). */
  symlink(rel: string, target: Buffer): void {
    this.inFolder(rel, (at, name, folder) => {
      const tmp = temporary();
      fs.symlinkSync(target, at + tmp);
      this.swap(folder, tmp, name);
    });
  }

  /** Removes the file (or link) `rel`; one already gone is fine. */
  remove(rel: string): void {
    this.inFolder(
      rel,
      (at, name) => {
        try {
          fs.unlinkSync(at + name);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      },
      false,
    );
  }

  /** Runs `work` with the open folder of `rel` (as `/proc/self/fd/N/`) and its last name; closed after. */
  private inFolder(rel: string, work: (at: string, name: string, fd: number) => void, make = true): void {
    const parts = rel.split('/');
    const name = parts.pop() as string;
    if (!ok(name)) throw new Error('not a file name');
    const fd = this.folder(parts, make);
    if (fd === null) return;
    try {
      const at = `/proc/self/fd/${fd}/`;
      this.inside(fd);
      work(at, name, fd);
    } finally {
      if (fd !== this.rootFd) fs.closeSync(fd);
    }
  }

  /** Renames `tmp` over `name` in the open folder `fd`, after checking once more where it is (else `tmp` removed). */
  private swap(fd: number, tmp: string, name: string): void {
    const at = `/proc/self/fd/${fd}/`;
    try {
      this.inside(fd);
      fs.renameSync(at + tmp, at + name);
    } catch (err) {
      fs.rmSync(at + tmp, { force: true });
      throw err;
    }
  }

  /** The folder `parts` under the root, opened one level at a time (made where missing, if `make`); null: missing. */
  private folder(parts: readonly string[], make: boolean): number | null {
    let fd = this.rootFd;
    try {
      for (const part of parts) {
        if (!ok(part)) throw new Error('not a file name');
        const next = openFolder(`/proc/self/fd/${fd}/${part}`, make);
        if (fd !== this.rootFd) fs.closeSync(fd);
        if (next === null) return null;
        fd = next;
      }
      return fd;
    } catch (err) {
      if (fd !== this.rootFd) fs.closeSync(fd);
      throw err;
    }
  }

  /** Refuses a folder that no longer lies inside the root (moved out from under milk meanwhile). */
  private inside(fd: number): void {
    const where = this.where(fd);
    if (where !== this.root && !where.startsWith(this.root === '/' ? '/' : this.root + '/'))
      throw new Error('its folder was moved out of the workspace; not followed');
  }

  private where(fd: number): string {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  }
}

/** Opens the folder at `at` without following a link; made first where missing (if `make`); null: missing. */
function openFolder(at: string, make: boolean): number | null {
  for (let tries = 0; ; tries++) {
    try {
      return fs.openSync(at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'ENOTDIR') throw new Error(LINK_ON_PATH, { cause: err });
      if (code !== 'ENOENT' || tries > 0) throw err;
      if (!make) return null;
    }
    try {
      // mkdir makes a folder or fails: it never follows a link at its last name.
      fs.mkdirSync(at, 0o777);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** A single name that stays in its folder. */
const ok = (name: string): boolean => name !== '' && name !== '.' && name !== '..' && !name.includes('\0');

const temporary = (): string => `.milk-restore-${process.pid}-${Math.random().toString(36).slice(2)}`;

/** The process's umask now (from /proc: setting it to read it would race other threads' files). */
export function umaskNow(): number {
  try {
    const m = /^Umask:\s*([0-7]+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return parseInt(m[1], 8);
  } catch {
    // Not Linux: the usual one.
  }
  return 0o022;
}

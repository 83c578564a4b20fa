// I/O errors in a few words for the status bar and the shell: the error's
// kind, never a file's content.

/** Explains an I/O error in a few words, without any file content. */
export function describeIoError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'disk full';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EFBIG':
      return 'file too large for this process (a file-size limit)';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTREG':
      return 'not a regular file';
    case 'ETOOLARGE':
      return `larger than milk reads (${(err as { max: number }).max} bytes)`;
    case 'ELOCKED':
      return 'locked by another milk process';
    default:
      return code ?? 'unexpected error';
  }
}

// The contained restore's child (restore-contained.ts starts it under bubblewrap): the workspace's real path as its
// argument, framed operations on stdin (restore-ops.ts), one line of JSON per operation on stdout, in order (`{}`
// done, `{"error": why}`), after a first `{"ready":true}` that says it started.

import { Contained } from './contained';
import { Unframer, applyOp } from './restore-ops';

/** Why an operation failed, in words (the path the system names is the child's /proc one: left out). */
export function failure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    EISDIR: 'a folder is there',
    ENOTEMPTY: 'a folder is there',
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    ENOSPC: 'the disk is full',
    EROFS: 'read-only file system',
    EDQUOT: 'over the disk quota',
    ENAMETOOLONG: 'its name is too long',
  };
  return (code && words[code]) ?? (code ? `failed (${code})` : (err as Error).message);
}

function main(): void {
  const root = process.argv[2];
  let c: Contained;
  try {
    c = new Contained(root);
  } catch (err) {
    process.stderr.write(`${failure(err)}\n`);
    process.exit(2);
  }
  process.stdout.write('{"ready":true}\n');
  const un = new Unframer((op) => {
    let line = '{}';
    try {
      applyOp(c, op);
    } catch (err) {
      line = JSON.stringify({ error: failure(err) });
    }
    process.stdout.write(line + '\n');
  });
  process.stdin.on('data', (d: Buffer) => un.push(d));
  process.stdin.on('end', () => c.close());
}

if (require.main === module) main();

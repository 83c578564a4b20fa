// A restore run where no link can lead it out of the workspace: in a child under bubblewrap that sees only the
// system's read-only folders, node and its own code read-only, and the workspace read-write at its own path (no
// network, no other process, gone with milk); its bytes come down a pipe, so neither the store nor milk's data dir is
// in its view. Where bubblewrap cannot start, the same operations run in milk, each folder opened by descriptor from
// the workspace down (contained.ts). Both check every folder again before each change.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Contained } from './contained';
import { type PlannedOp, type RestoreOp, applyOp, frame, withBytes } from './restore-ops';
import { failure } from './restore-child';
import type { StoreGit } from './snapshot-git';

export type Contain = 'bwrap' | 'fds';

export interface ContainedRestore {
  /** The folder nothing leaves: the workspace's real path ('/' for files the tools wrote elsewhere). */
  readonly root: string;
  /** The store the blobs are in (none: the operations name only copies). */
  readonly repo: StoreGit | null;
  /** Paths from `root`, with /. */
  readonly ops: readonly PlannedOp[];
  /** Only this way (tests): bwrap fails rather than falling back. */
  readonly how?: Contain;
}

/** Per operation, in order: null done, or why not; and how they were contained. */
export interface ContainedResult {
  readonly how: Contain;
  readonly errors: Array<string | null>;
}

export async function restoreContained(o: ContainedRestore): Promise<ContainedResult> {
  if (o.how !== 'fds' && o.root !== '/') {
    const child = await startChild(o.root);
    if (child) return { how: 'bwrap', errors: await child.run(o) };
    if (o.how === 'bwrap') throw new Error('bubblewrap cannot start here');
  }
  return { how: 'fds', errors: await inProcess(o) };
}

async function inProcess(o: ContainedRestore): Promise<Array<string | null>> {
  const errors: Array<string | null> = [];
  let c: Contained;
  try {
    c = new Contained(o.root);
  } catch (err) {
    return o.ops.map(() => failure(err));
  }
  try {
    for await (const batch of withBytes(o.repo, o.ops)) {
      for (const op of batch) errors.push(attempt(c, op));
      // Keys and the screen between batches.
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    c.close();
  }
  return errors;
}

function attempt(c: Contained, op: RestoreOp | { error: string }): string | null {
  if ('error' in op) return op.error;
  try {
    applyOp(c, op);
    return null;
  } catch (err) {
    return failure(err);
  }
}

/** The child's script: beside this module (dist/session), under it (the bundle, dist/), or built (tests from src/). */
function childScript(): string | null {
  for (const p of [
    path.join(__dirname, 'restore-child.js'),
    path.join(__dirname, 'session', 'restore-child.js'),
    path.join(__dirname, '..', '..', 'dist', 'session', 'restore-child.js'),
  ])
    if (fs.existsSync(p)) return fs.realpathSync(p);
  return null;
}

/** bubblewrap's arguments: the system read-only, node and the child's code read-only, `root` writable, nothing else. */
export function childArgs(root: string, node: string, script: string): string[] {
  const args = ['--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc'];
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    const st = fs.lstatSync(top, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(top), top);
    else if (st?.isDirectory()) args.push('--ro-bind', top, top);
  }
  args.push('--proc', '/proc', '--dev', '/dev', '--bind', root, root);
  args.push('--ro-bind', node, node, '--ro-bind', path.dirname(script), path.dirname(script));
  args.push('--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--new-session', '--die-with-parent');
  args.push('--chdir', '/', '--', node, script, root);
  return args;
}

interface Child {
  run(o: ContainedRestore): Promise<Array<string | null>>;
}

/** The child started and said so; null where bubblewrap (or the child) cannot start. */
function startChild(root: string): Promise<Child | null> {
  const script = childScript();
  if (!script || !fs.existsSync('/proc/self/fd')) return Promise.resolve(null);
  const node = fs.realpathSync(process.execPath);
  return new Promise((resolve) => {
    const proc = spawn('bwrap', childArgs(root, node, script), {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    });
    const lines: string[] = [];
    let partial = '';
    let ready = false;
    let closed = false;
    proc.on('error', () => resolve(null));
    proc.stderr.resume();
    proc.stdin.on('error', () => undefined);
    proc.stdout.on('data', (d: Buffer) => {
      const parts = (partial + d.toString('utf8')).split('\n');
      partial = parts.pop() as string;
      for (const line of parts) {
        if (!ready && line === '{"ready":true}') {
          ready = true;
          resolve({ run: (o) => feed(o) });
        } else lines.push(line);
      }
    });
    const exited = new Promise<number>((done) =>
      proc.on('close', (code) => {
        closed = true;
        if (!ready) resolve(null);
        done(code ?? 1);
      }),
    );
    async function feed(o: ContainedRestore): Promise<Array<string | null>> {
      const errors: Array<string | null> = [];
      // Per operation sent, its place in `errors`: the child answers in order.
      const sent: number[] = [];
      for await (const batch of withBytes(o.repo, o.ops)) {
        for (const op of batch) {
          errors.push('error' in op ? op.error : null);
          if ('error' in op || closed) continue;
          sent.push(errors.length - 1);
          for (const part of frame(op))
            if (!proc.stdin.write(part)) await Promise.race([new Promise((r) => proc.stdin.once('drain', r)), exited]);
        }
      }
      proc.stdin.end();
      const code = await exited;
      sent.forEach((at, i) => {
        const line = lines[i];
        errors[at] = line === undefined ? `the restore stopped (exit ${code})` : answer(line);
      });
      return errors;
    }
  });
}

function answer(line: string): string | null {
  try {
    return (JSON.parse(line) as { error?: string }).error ?? null;
  } catch {
    return 'the restore said something unreadable';
  }
}

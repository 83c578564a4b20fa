// A restore as a list of operations on paths under one folder (write these bytes with this mode, make this link,
// remove this file), what they carry read from the snapshot store or a file tool's copy in batches, and the same
// operations framed on a pipe for the contained child (restore-contained.ts, restore-child.ts): a header line of
// JSON, then the bytes.

import * as fs from 'node:fs';
import { Contained, type Owner } from './contained';
import type { StoreGit } from './snapshot-git';

/** Where a file's bytes come from: a blob in the snapshot store, or a copy the file tools took. */
export type Source = { readonly blob: string } | { readonly copy: string };

/** A file to write (a link to make, if `link`): where it goes, and the mode and owner it gets. */
interface WriteOp {
  readonly kind: 'write';
  readonly rel: string;
  readonly mode: number;
  readonly owner?: Owner;
  readonly link?: boolean;
}

type RemoveOp = { readonly kind: 'remove'; readonly rel: string };

export type PlannedOp = (WriteOp & { readonly from: Source }) | RemoveOp;

/** An operation with its bytes (a link's target, for a link). */
export type RestoreOp = (WriteOp & { readonly data: Buffer }) | RemoveOp;

/** Bytes read from the store per batch: what git prints is read up to this much (snapshot-git.ts). */
const BATCH_BYTES = 8 * 1024 * 1024;

/** Applies one operation; throws what went wrong. */
export function applyOp(c: Contained, op: RestoreOp): void {
  if (op.kind === 'remove') c.remove(op.rel);
  else if (op.link) c.symlink(op.rel, op.data);
  else c.write(op.rel, op.data, op.mode, op.owner);
}

/**
 * The operations with their bytes, a batch at a time (each under a few MB, however many files: one git for the sizes,
 * one per batch for the bytes). A blob missing from the store is an operation that fails with that reason.
 */
export async function* withBytes(
  repo: StoreGit | null,
  ops: readonly PlannedOp[],
): AsyncGenerator<Array<RestoreOp | { rel: string; error: string }>> {
  const blobs = [...new Set(ops.flatMap((op) => (op.kind === 'write' && 'blob' in op.from ? [op.from.blob] : [])))];
  const sizes = await blobSizes(repo, blobs);
  let batch: PlannedOp[] = [];
  let bytes = 0;
  for (const op of ops) {
    const size = op.kind === 'remove' ? 0 : 'blob' in op.from ? (sizes.get(op.from.blob) ?? 0) : 0;
    if (batch.length > 0 && bytes + size > BATCH_BYTES) {
      yield await fill(repo, batch);
      batch = [];
      bytes = 0;
    }
    batch.push(op);
    bytes += size;
  }
  if (batch.length > 0) yield await fill(repo, batch);
}

async function fill(
  repo: StoreGit | null,
  batch: readonly PlannedOp[],
): Promise<Array<RestoreOp | { rel: string; error: string }>> {
  const blobs = [...new Set(batch.flatMap((op) => (op.kind === 'write' && 'blob' in op.from ? [op.from.blob] : [])))];
  const read = repo && blobs.length > 0 ? await blobBytes(repo, blobs) : new Map<string, Buffer>();
  const out: Array<RestoreOp | { rel: string; error: string }> = [];
  for (const op of batch) {
    if (op.kind === 'remove') {
      out.push(op);
      continue;
    }
    const data =
      'blob' in op.from ? read.get(op.from.blob) : await fs.promises.readFile(op.from.copy).catch(() => undefined);
    if (data === undefined)
      out.push({ rel: op.rel, error: 'blob' in op.from ? 'gone from the store' : 'its copy is gone' });
    else out.push({ kind: 'write', rel: op.rel, mode: op.mode, owner: op.owner, link: op.link, data });
  }
  return out;
}

/** Each blob's size (`git cat-file --batch-check`); one missing is left out. */
async function blobSizes(repo: StoreGit | null, blobs: readonly string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (!repo || blobs.length === 0) return sizes;
  const out = await repo.must(['cat-file', '--batch-check'], { stdin: blobs.join('\n') + '\n', workTree: false });
  for (const line of out.split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (type === 'blob') sizes.set(oid, Number(size));
  }
  return sizes;
}

/** The blobs' bytes (`git cat-file --batch`: a header line, the bytes, a newline, per blob). */
async function blobBytes(repo: StoreGit, blobs: readonly string[]): Promise<Map<string, Buffer>> {
  const out = await repo.bytes(['cat-file', '--batch'], { stdin: blobs.join('\n') + '\n', workTree: false });
  const read = new Map<string, Buffer>();
  for (let at = 0; at < out.length;) {
    const eol = out.indexOf(10, at);
    if (eol < 0) break;
    const [oid, type, size] = out.subarray(at, eol).toString('latin1').split(' ');
    at = eol + 1;
    if (type !== 'blob') continue;
    const end = at + Number(size);
    if (end > out.length) break;
    read.set(oid, out.subarray(at, end));
    at = end + 1;
  }
  return read;
}

/** One operation on the pipe: its header as a line of JSON, then its bytes. */
export function frame(op: RestoreOp): Buffer[] {
  if (op.kind === 'remove') return [Buffer.from(JSON.stringify({ kind: 'remove', rel: op.rel }) + '\n')];
  const { data, ...head } = op;
  return [Buffer.from(JSON.stringify({ ...head, size: data.length }) + '\n'), data];
}

/** Reads framed operations as they arrive: `push` each chunk, and each whole operation is handed to `each`. */
export class Unframer {
  private chunks: Buffer[] = [];
  private length = 0;
  private head: { kind: string; rel: string; size?: number } | null = null;

  constructor(private readonly each: (op: RestoreOp) => void) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    // A big file arrives in many chunks: joined once it is all here, not at each.
    if (this.head !== null && this.length < (this.head.size ?? 0)) return;
    let buf = Buffer.concat(this.chunks);
    for (;;) {
      if (this.head === null) {
        const eol = buf.indexOf(10);
        if (eol < 0) break;
        this.head = JSON.parse(buf.subarray(0, eol).toString('utf8')) as { kind: string; rel: string; size?: number };
        buf = buf.subarray(eol + 1);
      }
      const size = this.head.size ?? 0;
      if (buf.length < size) break;
      const head = this.head;
      this.head = null;
      const data = buf.subarray(0, size);
      buf = buf.subarray(size);
      delete head.size;
      this.each((head.kind === 'remove' ? head : { ...head, data }) as RestoreOp);
    }
    this.chunks = buf.length > 0 ? [buf] : [];
    this.length = buf.length;
  }
}

// The restore's operations on the pipe to the contained child (restore-ops.ts): framed and read back whole, however
// the pipe cuts them.
import { type RestoreOp, Unframer, frame } from '../../src/session/restore-ops';

const ops: RestoreOp[] = [
  { kind: 'write', rel: 'a/b.txt', mode: 0o640, data: Buffer.from('one\ntwo\n') },
  { kind: 'remove', rel: 'gone.txt' },
  { kind: 'write', rel: 'bin/tool', mode: 0o4750, owner: { uid: 7, gid: 8 }, data: Buffer.alloc(70000, 0xff) },
  { kind: 'write', rel: 'link', mode: 0o777, link: true, data: Buffer.from('../target') },
  { kind: 'write', rel: 'empty', mode: 0o600, data: Buffer.alloc(0) },
];

function readBack(chunks: Buffer[]): RestoreOp[] {
  const got: RestoreOp[] = [];
  const un = new Unframer((op) => got.push(op));
  for (const c of chunks) un.push(c);
  return got;
}

it('reads back every operation, bytes and all, from one chunk', () => {
  expect(readBack([Buffer.concat(ops.flatMap(frame))])).toEqual(ops);
});

it.each([1, 7, 4096, 65536])('reads back every operation when the pipe cuts it into %d-byte chunks', (size) => {
  const all = Buffer.concat(ops.flatMap(frame));
  const chunks: Buffer[] = [];
  for (let at = 0; at < all.length; at += size) chunks.push(all.subarray(at, at + size));
  expect(readBack(chunks)).toEqual(ops);
});

it('hands nothing over until an operation is whole', () => {
  const [head, data] = frame(ops[0]);
  const got: RestoreOp[] = [];
  const un = new Unframer((op) => got.push(op));
  un.push(head);
  un.push(data.subarray(0, 3));
  expect(got).toEqual([]);
  un.push(data.subarray(3));
  expect(got).toEqual([ops[0]]);
});

// The seccomp filter of a sandboxed command without network (tools/seccomp.ts), run here by a classic-BPF
// interpreter over the calls a command could make: a Unix socket refused as the family unsupported, every other
// call allowed (socketpair and Internet sockets too: the network namespace stops those), and a call under any other
// ABI (i386's socketcall, x32) or io_uring's setup refused outright.
import { unixSocketFilter } from '../../src/tools/seccomp';

const X64 = 0xc000003e;
const ARM64 = 0xc00000b7;
const I386 = 0x40000003;
const ALLOW = 0x7fff0000;
const errno = (n: number) => 0x00050000 | n;

/** What the filter answers a call: a classic BPF machine over seccomp_data (nr, arch, args[0]'s low half). */
function run(filter: Buffer, call: { arch: number; nr: number; arg0?: number }): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, 0);
  data.writeUInt32LE(call.arch, 4);
  data.writeUInt32LE(call.arg0 ?? 0, 16);
  let a = 0;
  for (let pc = 0, steps = 0; pc < filter.length / 8 && steps < 1000; steps++) {
    const code = filter.readUInt16LE(pc * 8);
    const jt = filter.readUInt8(pc * 8 + 2);
    const jf = filter.readUInt8(pc * 8 + 3);
    const k = filter.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) a = data.readUInt32LE(k);
    else if (code === 0x06) return k;
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else throw new Error(`unexpected instruction ${code.toString(16)}`);
    pc++;
  }
  throw new Error('ran off the end');
}

describe.each([
  ['x64', X64, { socket: 41, socketpair: 53, connect: 42, ioUringSetup: 425 }],
  ['arm64', ARM64, { socket: 198, socketpair: 199, connect: 203, ioUringSetup: 425 }],
] as const)('built for %s', (arch, audit, nr) => {
  const filter = unixSocketFilter(arch) as Buffer;

  it('refuses a Unix socket as an unsupported family, whatever its type', () => {
    expect(run(filter, { arch: audit, nr: nr.socket, arg0: 1 })).toBe(errno(97));
  });

  it('allows Internet sockets, socketpair and everything else', () => {
    expect(run(filter, { arch: audit, nr: nr.socket, arg0: 2 })).toBe(ALLOW);
    expect(run(filter, { arch: audit, nr: nr.socket, arg0: 10 })).toBe(ALLOW);
    expect(run(filter, { arch: audit, nr: nr.socketpair, arg0: 1 })).toBe(ALLOW);
    expect(run(filter, { arch: audit, nr: nr.connect, arg0: 3 })).toBe(ALLOW);
    expect(run(filter, { arch: audit, nr: 0 })).toBe(ALLOW);
  });

  it('refuses io_uring_setup, whose ring can make a socket without the socket call', () => {
    expect(run(filter, { arch: audit, nr: nr.ioUringSetup })).toBe(errno(1));
  });

  it("checks the other architecture's calls by their own numbers, and refuses any other ABI outright", () => {
    expect(run(filter, { arch: X64, nr: 41, arg0: 1 })).toBe(errno(97));
    expect(run(filter, { arch: ARM64, nr: 198, arg0: 1 })).toBe(errno(97));
    // i386's socketcall (102) carries the family in memory the filter cannot read: the whole ABI is refused.
    expect(run(filter, { arch: I386, nr: 102, arg0: 1 })).toBe(errno(1));
    expect(run(filter, { arch: I386, nr: 3 })).toBe(errno(1));
    // x32's numbers on x86_64.
    expect(run(filter, { arch: X64, nr: 0x40000000 + 41, arg0: 1 })).toBe(errno(1));
  });
});

it('is built for x86_64 and aarch64 only', () => {
  expect(unixSocketFilter('ia32')).toBeNull();
  expect(unixSocketFilter('riscv64')).toBeNull();
});

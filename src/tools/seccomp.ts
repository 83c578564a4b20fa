// The seccomp filter a sandboxed command without network runs under (bwrap --seccomp FD): hiding the places that hold
// Unix sockets cannot find every one (a service's socket under /var/tmp, a home's own), so a socket of the Unix
// family cannot be made at all. Written as classic BPF here rather than taken from libseccomp: it is a dozen
// instructions, and a native module at every install is a heavier price than these lines. Pure.
//
// What it does, in order: a call made under any ABI but x86_64's or aarch64's fails with EPERM (i386's socketcall,
// which would carry the family where this filter cannot see it, and x32's numbers on x86_64); io_uring_setup fails with
// EPERM (its ring can make a socket without the socket call); socket(AF_UNIX, …) fails with EAFNOSUPPORT, as on a
// system built without Unix sockets; everything else, socketpair included (Node's IPC and Python's multiprocessing
// use it, and it reaches nothing outside), is allowed.

/** The architectures a filter is built for (Node's names), with the kernel's audit number and syscall numbers. */
const ARCHES = {
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425 },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425 },
} as const;

/** x32's syscall numbers on x86_64 carry this bit. */
const X32_BIT = 0x40000000;
const AF_UNIX = 1;
const EPERM = 1;
const EAFNOSUPPORT = 97;

// Classic BPF: the instruction classes and modes a filter uses, and seccomp's answers.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;

// Where seccomp_data keeps what a filter reads: the syscall's number, the ABI's audit number, the first argument's
// low 32 bits (both architectures are little-endian; the kernel reads `domain` as an int, so the high half is moot).
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

type Insn = { code: number; jt?: string; jf?: string; k: number } | { label: string };

/** The filter for `arch` (process.arch) as the bytes bwrap reads, or null where none is built (another arch). */
export function unixSocketFilter(arch: string): Buffer | null {
  if (!(arch in ARCHES)) return null;
  const own = ARCHES[arch as keyof typeof ARCHES];
  const other = own === ARCHES.x64 ? ARCHES.arm64 : ARCHES.x64;
  const ld = (k: number): Insn => ({ code: LD_W_ABS, k });
  const ret = (k: number): Insn => ({ code: RET_K, k });
  const program: Insn[] = [
    ld(ARCH),
    { code: JEQ_K, k: own.audit, jt: 'own', jf: 'next' },
    // The other of the two (an arm64 milk never sees x86_64 calls, but the filter does not rely on that).
    { code: JEQ_K, k: other.audit, jt: 'other', jf: 'eperm' },
    { label: 'own' },
    ...calls(own, ld),
    { label: 'other' },
    ...calls(other, ld),
    { label: 'check' },
    ld(ARG0),
    { code: JEQ_K, k: AF_UNIX, jt: 'unix', jf: 'allow' },
    { label: 'allow' },
    ret(RET_ALLOW),
    { label: 'unix' },
    ret(RET_ERRNO | EAFNOSUPPORT),
    { label: 'eperm' },
    ret(RET_ERRNO | EPERM),
  ];
  return assemble(program);
}

/** One architecture's checks: x32's numbers refused (x86_64), io_uring_setup refused, socket to `check`. */
function calls(a: (typeof ARCHES)[keyof typeof ARCHES], ld: (k: number) => Insn): Insn[] {
  return [
    ld(NR),
    ...(a === ARCHES.x64 ? [{ code: JGE_K, k: X32_BIT, jt: 'eperm', jf: 'next' }] : []),
    { code: JEQ_K, k: a.ioUringSetup, jt: 'eperm', jf: 'next' },
    { code: JEQ_K, k: a.socket, jt: 'check', jf: 'allow' },
  ];
}

/** The program's bytes: each jump's labels made offsets from the next instruction, as BPF counts them. */
function assemble(program: Insn[]): Buffer {
  const at = new Map<string, number>();
  const insns: Array<Exclude<Insn, { label: string }>> = [];
  for (const i of program) {
    if ('label' in i) at.set(i.label, insns.length);
    else insns.push(i);
  }
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach((insn, n) => {
    const offset = (label: string | undefined): number => {
      if (label === undefined || label === 'next') return 0;
      const to = at.get(label);
      if (to === undefined || to <= n || to - n - 1 > 255) throw new Error(`seccomp: bad jump to ${label}`);
      return to - n - 1;
    };
    out.writeUInt16LE(insn.code, n * 8);
    out.writeUInt8(offset(insn.jt), n * 8 + 2);
    out.writeUInt8(offset(insn.jf), n * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, n * 8 + 4);
  });
  return out;
}

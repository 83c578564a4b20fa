// A sandboxed command run in the editor's terminal (`milk acp`, where the editor offers one): the bubblewrap argv the
// shell tool builds (tools/command.ts), with the environment milk would give it and no other (`env -i`: the editor's
// own environment may hold credentials milk keeps from commands), and, without network, the seccomp filter handed to
// bwrap on descriptor 3 from a private file, as milk hands it from a pipe.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EditorTerminal, TerminalRun } from './tool';

/** The argv that runs `line` with exactly `env`; `filterFile`: the seccomp filter bwrap reads on descriptor 3. */
export function terminalArgv(
  line: { bin: string; args: readonly string[] },
  env: NodeJS.ProcessEnv,
  filterFile: string | null,
): string[] {
  const pairs = Object.entries(env).flatMap(([k, v]) => (v === undefined || k.includes('=') ? [] : [`${k}=${v}`]));
  const run = filterFile
    ? ['/bin/sh', '-c', 'f=$1; shift; exec "$@" 3<"$f"', 'sh', filterFile, line.bin, ...line.args]
    : [line.bin, ...line.args];
  return ['/usr/bin/env', '-i', ...pairs, ...run];
}

export async function inEditorTerminal(
  terminal: EditorTerminal,
  line: { bin: string; args: readonly string[]; filter: Buffer | null },
  env: NodeJS.ProcessEnv,
  o: { cwd: string; abort: AbortSignal; timeout?: number; maxChars: number },
): Promise<TerminalRun> {
  let dir: string | null = null;
  try {
    let filterFile: string | null = null;
    if (line.filter) {
      dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'milk-seccomp-'));
      filterFile = path.join(dir, 'filter.bpf');
      await fs.promises.writeFile(filterFile, line.filter, { mode: 0o600, flag: 'wx' });
    }
    return await terminal.run(terminalArgv(line, env, filterFile), o);
  } finally {
    if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

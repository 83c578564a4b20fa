// Whether bubblewrap can run here, found out once, at the first command:
// `bwrap` may be missing, or present but refused the namespaces it needs (a
// kernel without unprivileged user namespaces, a container that forbids
// them). A probe runs a trivial command in the same sandbox a real one gets;
// with the sandbox off, in the process namespace a command then gets.

import { withheldVariables } from '../kernel/credentials';
import { spawn } from 'node:child_process';
import { bwrapArgs, pidBoxArgs } from './sandbox';
import { toolEnv } from './env';

export type SandboxProbe = { ok: true } | { ok: false; why: string };

/** How long the probe may take before bwrap counts as unable to run. */
const PROBE_MS = 5000;

let probed: Promise<SandboxProbe> | null = null;
let probedBox: Promise<SandboxProbe> | null = null;

function probe(bin: string, args: string[]): Promise<SandboxProbe> {
  return new Promise((resolve) => {
    let stderr = '';
    // The environment a command gets, so that bwrap is looked for where a command's would be.
    const child = spawn(bin, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: toolEnv(process.env, { withhold: withheldVariables() }),
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ ok: false, why: `${bin} did not finish a trivial command in ${PROBE_MS / 1000} s` });
    }, PROBE_MS);
    timer.unref();
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 2000) stderr += d.toString('utf8');
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      const code = (err as NodeJS.ErrnoException).code;
      resolve({
        ok: false,
        why:
          code === 'ENOENT'
            ? `${bin} is not on PATH (Debian and Ubuntu: apt install bubblewrap)`
            : `${bin} cannot start (${err.message})`,
      });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const said = stderr.trim().split('\n')[0]?.slice(0, 300);
      resolve(code === 0 ? { ok: true } : { ok: false, why: `${bin} cannot run here (${said || `exit ${code}`})` });
    });
  });
}

/** bwrap's answer, asked once per process. */
export function probeSandbox(): Promise<SandboxProbe> {
  probed ??= probe('bwrap', bwrapArgs({ workspace: process.cwd(), network: false, hide: [] }, 'true'));
  return probed;
}

/** Whether a command with no sandbox can still have its own process namespace; asked once per process. */
export function probePidBox(): Promise<SandboxProbe> {
  probedBox ??= probe('bwrap', pidBoxArgs(process.cwd(), 'true'));
  return probedBox;
}

// Whether bubblewrap can run here, found out once, at the first command:
// `bwrap` may be missing, or present but refused the namespaces it needs (a
// kernel without unprivileged user namespaces, a container that forbids
// them). A probe runs a trivial command in the same sandbox a real one gets.

import { spawn } from 'node:child_process';
import { bwrapArgs } from './sandbox';
import { toolEnv } from './env';

export type SandboxProbe = { ok: true } | { ok: false; why: string };

/** How long the probe may take before bwrap counts as unable to run. */
const PROBE_MS = 5000;

let probed: Promise<SandboxProbe> | null = null;

function probe(bin: string): Promise<SandboxProbe> {
  return new Promise((resolve) => {
    let stderr = '';
    // The environment a command gets, so that bwrap is looked for where a command's would be.
    const child = spawn(bin, bwrapArgs({ workspace: process.cwd(), network: false, hide: [] }, 'true'), {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: toolEnv(process.env),
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
  probed ??= probe('bwrap');
  return probed;
}

// The built milk run as a child process, asynchronously (a mock server in the test's own process must keep
// answering): its exit code, stdout and stderr; a fresh HOME, the workspace as cwd, stdin given or empty.
import { spawn } from 'node:child_process';
import { CLI, tempDir } from './pty';

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

export function milkCli(args: readonly string[], o: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<Ran>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: tempDir(), ...o.env },
      cwd: o.cwd ?? tempDir(),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(o.input ?? '');
  });
}

/** `milk run`'s flags for the mock server's scenario `model` (openai protocol). */
export const mockRun = (url: string, model: string): string[] => [
  'run',
  '--provider',
  'openai',
  '--base-url',
  `${url}/v1`,
  '--model',
  model,
];

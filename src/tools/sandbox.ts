// The sandbox a shell command runs in on Linux: bubblewrap with the whole
// file system bound read-only, the workspace bound writable over it, a
// private /tmp (what a command leaves there is gone with it), milk's own data
// dir hidden (its history may hold secrets), its own process namespace (the
// command and all it starts die with it), and no network unless the person
// allowed it for that call. Pure: the arguments, and what the model is told.

export interface SandboxPlan {
  /** The workspace's real path: the one place a command may write. */
  workspace: string;
  /** The person allowed the network for this call. */
  network: boolean;
  /** Folders to hide behind an empty one (milk's data dir); each must exist. */
  hide: readonly string[];
}

/** bwrap's arguments to run `command` with /bin/sh inside the sandbox. */
export function bwrapArgs(plan: SandboxPlan, command: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // After /tmp, so that a workspace under /tmp is bound over the private one.
  args.push('--bind', plan.workspace, plan.workspace);
  for (const dir of plan.hide) args.push('--tmpfs', dir);
  args.push('--unshare-pid', '--die-with-parent');
  if (!plan.network) args.push('--unshare-net');
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', plan.workspace, '--', '/bin/sh', '-c', command);
  return args;
}

/** What the model is told about where its commands run. */
export function sandboxSentence(state: 'on' | 'off' | 'unavailable'): string {
  if (state === 'on') {
    return (
      'Commands run in a sandbox: the workspace is writable, the rest of the file system read-only, /tmp ' +
      'private to the command, and there is no network unless the person allows it for that command (a command that ' +
      'needs it, such as an install, fails without it: say so).'
    );
  }
  if (state === 'unavailable')
    return (
      "Commands would run in a sandbox, but none can run here: each runs with the person's full rights once " +
      'the person agrees.'
    );
  return "Commands run with the person's full rights (no sandbox).";
}

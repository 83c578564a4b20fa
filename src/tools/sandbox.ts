// The sandbox a shell command runs in on Linux: bubblewrap with the whole
// file system bound read-only, the workspace bound writable over it, a
// private /tmp (what a command leaves there is gone with it), milk's own data
// dir hidden (its history may hold secrets), what makes a later git run code
// read-only, its own user namespace with no capabilities (root outside is
// powerless inside: it can neither remount nor unmount what hides things),
// its own process namespace (the command and all it starts die with it, and
// it sees no other process), and no network unless the person allowed it for
// that call: then neither the network nor a Unix socket (the places that
// hold them are hidden, and a seccomp filter refuses to make one at all:
// seccomp.ts). Pure: the arguments, and what the model is told.

export interface SandboxPlan {
  /** The workspace's real path: the one place a command may write. */
  workspace: string;
  /** The person allowed the network for this call. */
  network: boolean;
  /** Folders to hide behind an empty one (milk's data dir, what deny rules name); each must exist. */
  hide: readonly string[];
  /** Directories the person added to the workspace (--add-dir): writable as it is; each must exist. */
  also?: readonly string[];
  /** Files to hide behind an empty one (what deny rules name); each must exist. */
  hideFiles?: readonly string[];
  /**
   * Folders bound read-only after the hidden ones, so that one inside a hidden folder shows (a used skill's, in milk's
   * data dir: its scripts run); each must exist.
   */
  show?: readonly string[];
  /**
   * Places in the workspace that make a later git run code (`.git/config`, its hooks): `bind`, read-only as they
   * are; `empty`, a folder that is missing and is made an empty read-only one (so none can be planted there).
   */
  protect?: { readonly bind: readonly string[]; readonly empty: readonly string[] };
  /** Folders that hold Unix sockets (/run, the runtime dir, ~/.ssh…), hidden when there is no network; each exists. */
  sockets?: readonly string[];
  /** The descriptor bwrap reads the seccomp filter from (tools/seccomp.ts), when there is no network. */
  seccompFd?: number;
}

/** bwrap's arguments to run `command` with /bin/sh inside the sandbox. */
export function bwrapArgs(plan: SandboxPlan, command: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  if (!plan.network) for (const dir of plan.sockets ?? []) args.push('--tmpfs', dir);
  // A workspace inside a hidden folder (a worktree milk made in its data dir) is bound over the empty one, and only it.
  const around = plan.hide.filter((dir) => plan.workspace.startsWith(dir + '/'));
  for (const dir of around) args.push('--tmpfs', dir);
  // After /tmp and the socket places, so that a workspace under one of them is bound over the empty one.
  args.push('--bind', plan.workspace, plan.workspace);
  for (const dir of plan.also ?? []) args.push('--bind', dir, dir);
  for (const p of plan.protect?.bind ?? []) args.push('--ro-bind', p, p);
  for (const dir of plan.protect?.empty ?? []) args.push('--tmpfs', dir, '--remount-ro', dir);
  for (const dir of plan.hide) if (!around.includes(dir)) args.push('--tmpfs', dir);
  for (const file of plan.hideFiles ?? []) args.push('--ro-bind', '/dev/null', file);
  for (const dir of plan.show ?? []) args.push('--ro-bind', dir, dir);
  args.push('--unshare-user', '--cap-drop', 'ALL');
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--die-with-parent');
  if (!plan.network) args.push('--unshare-net');
  if (!plan.network && plan.seccompFd !== undefined) args.push('--seccomp', String(plan.seccompFd));
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', plan.workspace, '--', '/bin/sh', '-c', command);
  return args;
}

/**
 * bwrap's arguments to run `command` with no sandbox but in a process namespace of its own (`--sandbox off`): the
 * whole file system as it is, devices and all, and everything the command starts — `setsid` children too — dies with
 * it, at shell_kill or milk's exit.
 */
export function pidBoxArgs(workspace: string, command: string): string[] {
  return [
    ...['--dev-bind', '/', '/', '--proc', '/proc', '--unshare-pid', '--die-with-parent'],
    ...['--chdir', workspace, '--', '/bin/sh', '-c', command],
  ];
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

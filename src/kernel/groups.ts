// The process groups milk started that may still be alive — commands', background commands', hooks' — each named by
// its leader's pid. Exit kills every one left, so that nothing milk started outlives it: a command that ignores TERM,
// a hook still running, a child a hook put in the background.

const live = new Set<number>();

/** Sends `signal` to the group led by `pid`; one already gone is no matter. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Whether any process of the group is still alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, but not ours to signal (it changed its user): still one to try at exit.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function holdGroup(pid: number): void {
  // Groups whose every process has ended are let go, so that a pid the system hands out again is never killed.
  for (const g of live) if (!groupAlive(g)) live.delete(g);
  live.add(pid);
}

export function releaseGroup(pid: number): void {
  live.delete(pid);
}

/** Kills every group still held, at once (milk is exiting). Synchronous, for cleanup. */
export function killGroups(): void {
  for (const pid of live) signalGroup(pid, 'SIGKILL');
  live.clear();
}

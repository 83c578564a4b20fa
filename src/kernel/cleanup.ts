// The one place exit work is registered and run: flush histories, restore the
// terminal. It runs once, whatever the exit path, and a failing step does not
// stop the others. Signal and crash handlers end in the conventional codes.

type Task = { name: string; run: () => void };

export class Cleanup {
  private readonly tasks: Task[] = [];
  private done = false;

  /** Tasks run in reverse order of registration (last set up, first torn down). */
  add(name: string, run: () => void): void {
    this.tasks.push({ name, run });
  }

  get ran(): boolean {
    return this.done;
  }

  run(): void {
    if (this.done) return;
    this.done = true;
    for (const task of [...this.tasks].reverse()) {
      try {
        task.run();
      } catch {
        // Keep going: restoring the terminal matters more than any one step.
      }
    }
  }
}

export const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** Routes signals and crashes through `cleanup`, then exits with the conventional code. */
export function installExitHandlers(
  cleanup: Cleanup,
  report: (message: string) => void = (m) => process.stderr.write(m),
): () => void {
  const onSignal = (signal: keyof typeof EXIT_CODES) => () => {
    cleanup.run();
    if (signal === 'SIGHUP') {
      // The terminal is gone: Node's exit-time tty reset would fail an assertion
      // on it, so die of the signal itself (status 129 to the shell).
      process.removeAllListeners('SIGHUP');
      process.kill(process.pid, 'SIGHUP');
      return;
    }
    process.exit(EXIT_CODES[signal]);
  };
  const handlers = (Object.keys(EXIT_CODES) as Array<keyof typeof EXIT_CODES>).map((sig) => {
    const h = onSignal(sig);
    process.on(sig, h);
    return [sig, h] as const;
  });
  const onCrash = (err: unknown): void => {
    cleanup.run();
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    report(`milk: internal error: ${message}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  return () => {
    for (const [sig, h] of handlers) process.off(sig, h);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  };
}

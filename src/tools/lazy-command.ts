// The command runner (child_process, bubblewrap's probe), loaded at the first
// command of any kind — a tool's, a background one, the person's own — so that
// start-up never pays for it.

import { killGroups } from '../kernel/groups';

let loaded: typeof import('./command') | null = null;

export function commandModule(): typeof import('./command') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./command') as typeof import('./command');
  return loaded;
}

/** Kills what commands and hooks left running (at exit). */
export function killLiveTools(): void {
  killGroups();
}

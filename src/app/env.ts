// What several of the full screen's parts share: the environment the terminal is judged by, how the terminal is handed
// to another program (the external editor), and that editor's module, loaded at its first use.

import type { AppOptions } from './screen';

/** The environment the terminal is judged by (TERM, COLORFGBG, NO_COLOR…): the options', else the process's. */
export function env(options: AppOptions): Readonly<Record<string, string | undefined>> {
  return options.env ?? process.env;
}

/** Runs `run` with the terminal handed over (the external editor), the screen given back after. */
export type HandOver = (run: () => Promise<void>) => Promise<void>;

let loadedEditor: typeof import('../tui/external-editor') | null = null;

/** The external editor's module, loaded at its first use (Ctrl+G, /memory): start-up never pays for child_process. */
export function editorModule(): typeof import('../tui/external-editor') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loadedEditor ??= require('../tui/external-editor') as typeof import('../tui/external-editor');
  return loadedEditor;
}

/** Ends the external editor if one runs (milk is exiting); loads nothing when none ever did. */
export function stopEditor(): void {
  loadedEditor?.stopEditor();
}

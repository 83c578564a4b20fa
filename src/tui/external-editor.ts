// Ctrl+G: the draft in the person's own editor ($VISUAL, else $EDITOR, else
// vi), in a temp file under the data dir (0600) that is removed after. milk
// hands the terminal over as for Ctrl-Z and takes it back when the editor
// exits; the edited text replaces the draft, which stays as it was when the
// editor fails or leaves the file empty. The editor runs synchronously: the
// screen and milk's timers wait for it, so it is offered only while no turn
// runs.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dataLayout } from '../data-dir';

export type Edited = { ok: true; text: string } | { ok: false; why: string };

/** The editor to run: $VISUAL, else $EDITOR, else vi (a command line: `code --wait` works). */
export function editorCommand(env: NodeJS.ProcessEnv): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/**
 * Opens `text` in the editor with the terminal handed over (`handOver` runs
 * its argument with the terminal given back, and takes it again after).
 */
export function editExternally(text: string, dataDir: string | null, handOver: (run: () => void) => void): Edited {
  const dir = dataDir ? dataLayout(dataDir).tmp : fs.mkdtempSync(path.join(os.tmpdir(), 'milk-edit-'));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `draft-${process.pid}-${Date.now().toString(36)}.md`);
  fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
  try {
    const editor = editorCommand(process.env);
    let status: number | null = null;
    let error: Error | undefined;
    handOver(() => {
      // Through the shell, so that an editor given with its arguments runs as written; the file is its last argument.
      const r = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit' });
      status = r.status;
      error = r.error;
    });
    if (error) return { ok: false, why: `could not run the editor (${editor}): ${(error as Error).message}` };
    if (status !== 0)
      return {
        ok: false,
        why:
          `the editor (${editor}) exited with ${status === null ? 'a signal' : `code ${status}`}: the draft is ` +
          `as it was`,
      };
    const edited = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    if (edited.trim() === '') return { ok: false, why: 'the file was left empty: the draft is as it was' };
    return { ok: true, text: edited };
  } finally {
    fs.rmSync(file, { force: true });
    if (!dataDir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

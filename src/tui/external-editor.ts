// Ctrl+G: the draft in the person's own editor ($VISUAL, else $EDITOR, else
// vi), in a temp file under the data dir (0600) that is removed after. milk
// hands the terminal over as for Ctrl-Z and takes it back when the editor
// exits; the edited text replaces the draft, which stays as it was when the
// editor fails or leaves the file empty. The editor runs as a child milk
// waits for without blocking: its signals are still handled (a SIGTERM ends
// milk, the editor with it, and gives the terminal back), while nothing is
// painted over the editor. It is offered only while no turn runs.

import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dataLayout } from '../kernel/data-dir';

export type Edited = { ok: true; text: string } | { ok: false; why: string };

/** The editor running now, for milk's exit to end it. */
let live: ChildProcess | null = null;

/** The editor to run: $VISUAL, else $EDITOR, else vi (a command line: `code --wait` works). */
export function editorCommand(env: NodeJS.ProcessEnv): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/** Ends the editor milk is waiting for, if any (milk is exiting): a hangup, as a closed terminal would send. */
export function stopEditor(): void {
  live?.kill('SIGHUP');
  live = null;
}

/** Runs the editor on `files` with the terminal; how it ended. */
function runEditor(editor: string, files: readonly string[]): Promise<{ status: number | null; error?: Error }> {
  return new Promise<{ status: number | null; error?: Error }>((resolve) => {
    // Through the shell, so that an editor given with its arguments runs as written; the files are its last arguments.
    const child = spawn('/bin/sh', ['-c', `${editor} "$@"`, 'sh'].concat(files), { stdio: 'inherit' });
    live = child;
    child.once('error', (error) => resolve({ status: null, error }));
    child.once('exit', (status) => resolve({ status }));
  }).finally(() => {
    live = null;
  });
}

/**
 * Opens `text` in the editor with the terminal handed over (`handOver` runs
 * its argument with the terminal given back, and takes it again once it has
 * settled).
 */
export async function editExternally(
  text: string,
  dataDir: string | null,
  handOver: (run: () => Promise<void>) => Promise<void>,
): Promise<Edited> {
  const dir = dataDir ? dataLayout(dataDir).tmp : fs.mkdtempSync(path.join(os.tmpdir(), 'milk-edit-'));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `draft-${process.pid}-${Date.now().toString(36)}.md`);
  fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
  try {
    const editor = editorCommand(process.env);
    let ended: { status: number | null; error?: Error } = { status: null };
    await handOver(async () => {
      ended = await runEditor(editor, [file]);
    });
    const { status, error } = ended;
    if (error) return { ok: false, why: `could not run the editor (${editor}): ${error.message}` };
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

/** /memory: the instruction files opened in the editor as they are (the editor writes them); what to say after. */
export async function editFiles(
  files: readonly string[],
  handOver: (run: () => Promise<void>) => Promise<void>,
): Promise<string> {
  const editor = editorCommand(process.env);
  let ended: { status: number | null; error?: Error } = { status: null };
  await handOver(async () => {
    ended = await runEditor(editor, files);
  });
  if (ended.error) return `could not run the editor (${editor}): ${ended.error.message}`;
  return ended.status === 0
    ? `edited in ${editor}: ${files.join(', ')} (the model reads them from the next turn)`
    : `the editor (${editor}) exited with ${ended.status === null ? 'a signal' : `code ${ended.status}`}`;
}

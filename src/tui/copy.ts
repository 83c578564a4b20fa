// /copy: the last answer, as the Markdown the model wrote, to the terminal's
// clipboard by OSC 52 (milk's own sequence; the model's never reach the
// terminal) and to a file under the data dir whose path is printed, for
// terminals that ignore OSC 52. A selection in the transcript (the mouse,
// copy mode) goes the same way, to a file only where OSC 52 may not arrive.

import * as path from 'node:path';
import { describeIoError } from '../io/errors';
import { ensureDir, writeNew } from '../io/files';
import { dataLayout } from '../kernel/data-dir';

/** OSC 52 payloads past this are refused by many terminals; the file still has everything. */
const OSC52_MAX = 100_000;

export function copyAnswer(answer: string, dataDir: string | null, write: (data: string) => void): string {
  if (!answer.trim()) return 'nothing to copy yet: no answer in this conversation';
  const clipboard = answer.length <= OSC52_MAX;
  if (clipboard) write(`\x1b]52;c;${Buffer.from(answer, 'utf8').toString('base64')}\x07`);
  const how = clipboard ? 'copied to the clipboard (OSC 52)' : 'too long for the clipboard';
  if (!dataDir) return `${how}; no data dir for a file`;
  const file = path.join(dataLayout(dataDir).copied, `answer-${stamp()}.md`);
  try {
    ensureDir(path.dirname(file));
    writeNew(file, answer);
  } catch (err) {
    return `${how}; the file could not be written (${describeIoError(err)})`;
  }
  return `${how}, and saved as ${file}`;
}

/** Terminals known to ignore OSC 52 (Apple's Terminal, VTE's: GNOME Terminal, Tilix…): a copy goes to a file too. */
export function mayIgnoreOsc52(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.TERM_PROGRAM === 'Apple_Terminal' || Boolean(env.VTE_VERSION);
}

/**
 * A selection to the clipboard by OSC 52, and to a file in the data dir when the terminal may not take it (or it is
 * too long for OSC 52). Returns what the status bar says.
 */
export function copySelection(
  text: string,
  to: { dataDir: string | null; write: (data: string) => void; env: Readonly<Record<string, string | undefined>> },
): string {
  const lines = text.split('\n').length;
  const what = `${lines > 1 ? `${lines} lines, ` : ''}${text.length.toLocaleString('en-US')} characters`;
  const clipboard = text.length <= OSC52_MAX;
  if (clipboard) to.write(`\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`);
  const said = clipboard ? `copied ${what} (OSC 52)` : `${what}: too long for the clipboard`;
  if ((clipboard && !mayIgnoreOsc52(to.env)) || !to.dataDir) return said;
  const file = path.join(dataLayout(to.dataDir).copied, `selection-${stamp()}.txt`);
  try {
    ensureDir(path.dirname(file));
    writeNew(file, text);
  } catch (err) {
    return `${said}; no file (${describeIoError(err)})`;
  }
  return `${said}; saved as ${file}`;
}

const stamp = (): string => new Date().toISOString().replace(/[:.]/g, '-');

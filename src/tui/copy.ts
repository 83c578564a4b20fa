// /copy: the last answer, as the Markdown the model wrote, to the terminal's
// clipboard by OSC 52 (milk's own sequence; the model's never reach the
// terminal) and to a file under the data dir whose path is printed, for
// terminals that ignore OSC 52.

import * as path from 'node:path';
import { describeIoError } from '../io/errors';
import { ensureDir, writeNew } from '../io/files';
import { dataLayout } from '../data-dir';

/** OSC 52 payloads past this are refused by many terminals; the file still has everything. */
const OSC52_MAX = 100_000;

export function copyAnswer(answer: string, dataDir: string | null, write: (data: string) => void): string {
  if (!answer.trim()) return 'nothing to copy yet: no answer in this conversation';
  const clipboard = answer.length <= OSC52_MAX;
  if (clipboard) write(`\x1b]52;c;${Buffer.from(answer, 'utf8').toString('base64')}\x07`);
  const how = clipboard ? 'copied to the clipboard (OSC 52)' : 'too long for the clipboard';
  if (!dataDir) return `${how}; no data dir for a file`;
  const file = path.join(dataLayout(dataDir).copied, `answer-${new Date().toISOString().replace(/[:.]/g, '-')}.md`);
  try {
    ensureDir(path.dirname(file));
    writeNew(file, answer);
  } catch (err) {
    return `${how}; the file could not be written (${describeIoError(err)})`;
  }
  return `${how}, and saved as ${file}`;
}

// Reads the prompt commands' files: `<data>/commands/*.md` (the person's own)
// and `<workspace>/.milk/commands/*.md` (the project's; milk only reads
// there). Only regular files, each at most MAX_PROMPT_BYTES, read once the
// screen is up and again for a new conversation, never on a keystroke.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRegular } from '../io/files';
import { describeIoError } from '../io/errors';
import type { PromptFile } from './prompt-commands';
import { dataLayout } from '../data-dir';

/** A prompt file larger than this is not a prompt: it is skipped, and said so. */
export const MAX_PROMPT_BYTES = 64 * 1024;

function readFolder(dir: string, source: PromptFile['source'], problems: string[]): PromptFile[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => n.toLowerCase().endsWith('.md'))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR')
      problems.push(`${dir}: ${describeIoError(err)}`);
    return [];
  }
  const files: PromptFile[] = [];
  for (const file of names) {
    try {
      const bytes = readRegular(path.join(dir, file));
      if (bytes.length > MAX_PROMPT_BYTES)
        problems.push(`${path.join(dir, file)}: larger than ${MAX_PROMPT_BYTES / 1024} KiB; skipped`);
      else files.push({ file, text: bytes.toString('utf8'), source });
    } catch (err) {
      problems.push(`${path.join(dir, file)}: ${describeIoError(err)}; skipped`);
    }
  }
  return files;
}

/** Both folders' files, and what could not be read. */
export function readPromptFiles(
  dataDir: string | null,
  workspace: string | null,
): { files: PromptFile[]; problems: string[] } {
  const problems: string[] = [];
  const files = [
    ...(dataDir ? readFolder(dataLayout(dataDir).commands, 'personal', problems) : []),
    ...(workspace ? readFolder(path.join(workspace, '.milk', 'commands'), 'project', problems) : []),
  ];
  return { files, problems };
}

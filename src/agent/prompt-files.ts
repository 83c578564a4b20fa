// Reads the prompt commands' files: `<data>/commands/*.md` (the person's own)
// and `<workspace>/.milk/commands/*.md` (the project's; milk only reads
// there); the subagents' likewise, from `agents/`. Only regular files, each at most MAX_PROMPT_BYTES, read once the
// screen is up and again for a new conversation, never on a keystroke.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { TooLargeFileError, gitRoot, insideReal, readRegularCapped } from '../io/files';
import { describeIoError } from '../io/errors';
import type { PromptFile } from './prompt-commands';
import { dataLayout } from '../kernel/data-dir';

/** A prompt file larger than this is not a prompt: it is skipped, and said so. */
export const MAX_PROMPT_BYTES = 64 * 1024;

/**
 * The prompt files of `dir`; `within`: the folder a project's files must really be in (a link may point inside it), or
 * null for the person's own.
 */
function readFolder(
  dir: string,
  source: PromptFile['source'],
  problems: string[],
  within: string | null,
): PromptFile[] {
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
    const where = path.join(dir, file);
    try {
      // A project's file that is a link out of its repository (to ~/.ssh/id_rsa) would go to the model as a prompt.
      if (within !== null && !insideReal(where, within)) {
        problems.push(`${where}: a link to a file outside the repository; skipped`);
        continue;
      }
      files.push({ file, text: readRegularCapped(where, MAX_PROMPT_BYTES).toString('utf8'), source });
    } catch (err) {
      problems.push(
        err instanceof TooLargeFileError
          ? `${where}: larger than ${MAX_PROMPT_BYTES / 1024} KiB; skipped`
          : `${where}: ${describeIoError(err)}; skipped`,
      );
    }
  }
  return files;
}

/** Both folders' files, and what could not be read. */
export function readPromptFiles(
  dataDir: string | null,
  workspace: string | null,
  kind: 'commands' | 'subagents' = 'commands',
): { files: PromptFile[]; problems: string[] } {
  const problems: string[] = [];
  const folder = kind === 'commands' ? 'commands' : 'agents';
  const files = [
    ...(dataDir ? readFolder(dataLayout(dataDir)[kind], 'personal', problems, null) : []),
    ...(workspace
      ? readFolder(path.join(workspace, '.milk', folder), 'project', problems, gitRoot(workspace) ?? workspace)
      : []),
  ];
  return { files, problems };
}

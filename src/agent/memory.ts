// Memory: `# remember that we use pnpm`, typed as an input, adds a line to an
// instructions file the model reads at every turn — the workspace's AGENTS.md
// (the default) or the person's own in the data dir — through the file tools'
// write path (confined, the file's mode and owner kept, replaced whole by a
// rename). /memory opens both in the person's editor.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileTool } from '../tools/files';

export interface MemoryFile {
  /** How the person knows it. */
  readonly label: string;
  /** The folder it is confined to, and its name there. */
  readonly root: string;
  readonly name: string;
}

/** The files a memory can go to: the workspace's first (Enter takes it), then the person's own (with a data dir). */
export function memoryFiles(workspace: string, dataDir: string | null): MemoryFile[] {
  const files: MemoryFile[] = [{ label: "this workspace's AGENTS.md", root: workspace, name: 'AGENTS.md' }];
  if (dataDir) files.push({ label: 'your own AGENTS.md, for every workspace', root: dataDir, name: 'AGENTS.md' });
  return files;
}

/** Adds `text` as a list item at the end of `file`; the path written. */
export async function remember(file: MemoryFile, text: string): Promise<string> {
  let before = '';
  try {
    before = await fs.promises.readFile(path.join(file.root, file.name), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const sep = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  return writeFileTool(file.root, file.name, `${before}${sep}- ${text}\n`);
}

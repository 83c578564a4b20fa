// Real git for the tests: a command in a folder with a name and email of its own (the machine's config has none), and
// a repository on main with one commit of the files given.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './pty';

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });

/** A new repository on main whose first commit holds `files` (path to text). */
export function repoWith(files: Record<string, string>): string {
  const ws = tempDir();
  git(ws, 'init', '-q', '-b', 'main');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(ws, name), text);
  git(ws, 'add', '.');
  git(ws, 'commit', '-q', '-m', 'first');
  return ws;
}

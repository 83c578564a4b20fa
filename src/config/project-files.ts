// The files a workspace's `.milk/` holds beside its settings: its agents, prompt commands, skills and plugins. Like
// the settings they are the repository's, not the person's: they apply only once the person trusts the workspace,
// and trust covers them as they were seen (a SHA-256 over every one's name and bytes), so that an agent file added
// or changed later asks again. Listed without following a link, at most a few hundred files, read only to hash.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gitRoot } from '../io/files';

/** The folders of `.milk/` whose files milk takes as prompts, agents or code. */
export const PROJECT_FOLDERS = ['agents', 'commands', 'skills', 'plugins'] as const;

/** Files listed at most (a folder past it is cut, and trusting it says so). */
const MAX_FILES = 500;
/** Folders deep under each, at most. */
const MAX_DEPTH = 4;

export interface ProjectFile {
  /** Relative to the workspace, `/`-separated: `.milk/agents/explore.md`. */
  readonly rel: string;
  readonly sha256: string;
}

/**
 * Every regular file under `.milk/{agents,commands,skills,plugins}` and `.agents/skills/` (the open format's place for
 * a repository's skills), in name order; [] when there are none. In the home folder `.agents/skills` is the person's
 * own, not a project's.
 */
export function projectFiles(workspace: string, hash: (bytes: Buffer) => string): ProjectFile[] {
  const root = path.join(workspace, '.milk');
  const skills = skillFolders(workspace);
  if (!fs.existsSync(root) && skills.length === 0) return [];
  const out: ProjectFile[] = [];
  const walk = (dir: string, rel: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (out.length >= MAX_FILES) return;
      const full = path.join(dir, e.name);
      const name = `${rel}/${e.name}`;
      if (e.isDirectory() && depth < MAX_DEPTH) walk(full, name, depth + 1);
      else if (e.isFile()) out.push({ rel: name, sha256: hashOf(full, hash) });
      // A link is listed by where it points, never followed: replacing its target is a change too.
      else if (e.isSymbolicLink()) out.push({ rel: name, sha256: hash(Buffer.from(`link:${linkOf(full)}`)) });
      // A FIFO or a device is never read (it could block milk), only listed: milk skips it, and says so, once trusted.
      else if (!e.isDirectory()) out.push({ rel: name, sha256: hash(Buffer.from('special')) });
    }
  };
  for (const folder of PROJECT_FOLDERS) walk(path.join(root, folder), `.milk/${folder}`, 1);
  for (const s of skills) walk(s.dir, s.rel, 1);
  return out;
}

/**
 * The repository's `.agents/skills/` folders that exist, from the workspace up to the repository's root (as skills
 * are looked for: agent/skill-files.ts), named relative to the workspace; the home folder's is the person's own.
 */
function skillFolders(workspace: string): Array<{ dir: string; rel: string }> {
  const top = gitRoot(workspace) ?? workspace;
  const home = path.resolve(os.homedir());
  const out: Array<{ dir: string; rel: string }> = [];
  for (let d = path.resolve(workspace); ; d = path.dirname(d)) {
    const dir = path.join(d, '.agents', 'skills');
    const rel = path.relative(workspace, dir).split(path.sep).join('/');
    if (d !== home && fs.existsSync(dir)) out.push({ dir, rel });
    if (d === top || path.dirname(d) === d) return out;
  }
}

function hashOf(file: string, hash: (bytes: Buffer) => string): string {
  try {
    return hash(fs.readFileSync(file));
  } catch {
    return 'unreadable';
  }
}

function linkOf(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return '?';
  }
}

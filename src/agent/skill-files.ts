// Reads the Agent Skills' SKILL.md files (agent/skills.ts) from every place, in the order a name is looked for: the
// workspace's `.milk/skills/`, then `.agents/skills/` from the working folder up to the repository root (both the
// project's: read only once it is trusted, and only files really inside the repository), then the data dir's
// `skills/`, `~/.agents/skills/`, and the folders config `skills.extraDirs` names (`~/.claude/skills`). Only regular
// files, each at most MAX_PROMPT_BYTES; read once the screen is up and again for a new conversation, never on a key.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TooLargeFileError, gitRoot, insideReal, readRegularCapped } from '../io/files';
import { describeIoError } from '../io/errors';
import { dataLayout } from '../kernel/data-dir';
import { pushAll } from '../kernel/arrays';
import { MAX_PROMPT_BYTES } from './prompt-files';
import type { SkillFile, SkillSource } from './skills';

/** Skill folders read from one place, at most: they are read on the main thread after the first paint. */
export const MAX_SKILLS_PER_PLACE = 200;

/** One place skills are looked for: its folder, how /skills names it, whose it is. */
interface Place {
  readonly dir: string;
  readonly place: string;
  readonly source: SkillSource;
  /** A project's: its skills must really be inside this folder (a link out of the repository is skipped). */
  readonly within: string | null;
}

/** A path as the person wrote it in config.json: `~/` is their home. */
function expandHome(dir: string, home: string): string {
  return dir === '~' ? home : dir.startsWith('~/') ? path.join(home, dir.slice(2)) : dir;
}

/** Where skills are looked for, first to last; the project's places only when `trusted`. */
export function skillPlaces(o: {
  workspace: string | null;
  dataDir: string | null;
  extraDirs: readonly string[];
  trusted: boolean;
  home?: string;
}): Place[] {
  const home = o.home ?? os.homedir();
  const places: Place[] = [];
  const personal = path.join(home, '.agents', 'skills');
  if (o.workspace && o.trusted) {
    const root = gitRoot(o.workspace) ?? o.workspace;
    places.push({
      dir: path.join(o.workspace, '.milk', 'skills'),
      place: '.milk/skills',
      source: 'project',
      within: root,
    });
    for (let d = path.resolve(o.workspace); ; d = path.dirname(d)) {
      const rel = path.relative(root, d);
      // The home folder's is the person's own, looked in below as theirs.
      if (path.join(d, '.agents', 'skills') !== personal)
        places.push({
          dir: path.join(d, '.agents', 'skills'),
          place: rel ? `${rel}/.agents/skills` : '.agents/skills',
          source: 'project',
          within: root,
        });
      if (d === root || path.dirname(d) === d) break;
    }
  }
  if (o.dataDir)
    places.push({
      dir: dataLayout(o.dataDir).skills,
      place: "the data dir's skills",
      source: 'personal',
      within: null,
    });
  places.push({
    dir: path.join(home, '.agents', 'skills'),
    place: '~/.agents/skills',
    source: 'personal',
    within: null,
  });
  for (const extra of o.extraDirs)
    places.push({ dir: path.resolve(expandHome(extra, home)), place: extra, source: 'extra', within: null });
  return places;
}

/** The SKILL.md of each folder in `p`, in name order, and what could not be read. */
function readPlace(p: Place, problems: string[]): SkillFile[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(p.dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() || e.isSymbolicLink())
      .map((e) => e.name)
      .filter((n) => !n.startsWith('.'))
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.push(`${p.dir}: ${describeIoError(err)}`);
    return [];
  }
  const files: SkillFile[] = [];
  if (names.length > MAX_SKILLS_PER_PLACE) {
    problems.push(`${p.dir}: ${names.length} folders; the first ${MAX_SKILLS_PER_PLACE} by name are read`);
    names = names.slice(0, MAX_SKILLS_PER_PLACE);
  }
  for (const name of names) {
    const dir = path.join(p.dir, name);
    const file = path.join(dir, 'SKILL.md');
    if (!fs.existsSync(file)) continue;
    try {
      // A project's skill that is a link out of its repository would hand the model whatever it points at.
      if (p.within !== null && !insideReal(file, p.within)) {
        problems.push(`${file}: a link to a file outside the repository; skipped`);
        continue;
      }
      const text = readRegularCapped(file, MAX_PROMPT_BYTES).toString('utf8');
      files.push({ dir, place: p.place, source: p.source, text });
    } catch (err) {
      problems.push(
        err instanceof TooLargeFileError
          ? `${file}: larger than ${MAX_PROMPT_BYTES / 1024} KiB; skipped`
          : `${file}: ${describeIoError(err)}; skipped`,
      );
    }
  }
  return files;
}

/** Every place's SKILL.md files, in search order, and what could not be read. */
export function readSkillFiles(places: readonly Place[]): { files: SkillFile[]; problems: string[] } {
  const problems: string[] = [];
  const seen = new Set<string>();
  const files: SkillFile[] = [];
  for (const p of places) {
    // The same folder twice (a repository root that is also the working folder; an extra dir named twice): once.
    const key = path.resolve(p.dir);
    if (seen.has(key)) continue;
    seen.add(key);
    pushAll(files, readPlace(p, problems));
  }
  return { files, problems };
}

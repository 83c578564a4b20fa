// The Agent Skills found on disk: every place in its order, the project's only once trusted, links out of the
// repository and oversized files skipped with a word, the first of a name winning.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { readSkillFiles, skillPlaces } from '../../src/agent/skill-files';
import { resolveSkills } from '../../src/agent/skills';
import { tempDir } from '../helpers/pty';

function skill(root: string, name: string, description: string, extra = ''): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n${extra}---\nBody.\n`);
  return dir;
}

describe('skills on disk', () => {
  const home = tempDir();
  const data = tempDir();
  const repo = tempDir();
  const work = path.join(repo, 'packages', 'app');
  const extra = tempDir();
  fs.mkdirSync(path.join(repo, '.git'));
  fs.mkdirSync(work, { recursive: true });
  skill(path.join(work, '.milk', 'skills'), 'review', 'The project review.');
  skill(path.join(work, '.agents', 'skills'), 'lint', 'The package lint.');
  skill(path.join(repo, '.agents', 'skills'), 'lint', 'The repository lint.');
  skill(path.join(repo, '.agents', 'skills'), 'release', 'Releases.');
  skill(path.join(data, 'skills'), 'review', 'My review.');
  skill(path.join(home, '.agents', 'skills'), 'notes', 'My notes.');
  skill(extra, 'pdf', 'Claude skills folder.');
  // A folder without SKILL.md is no skill; a dot folder is passed over.
  fs.mkdirSync(path.join(home, '.agents', 'skills', 'empty'));
  skill(path.join(home, '.agents', 'skills'), '.hidden', 'x');

  const found = (trusted: boolean) => {
    const places = skillPlaces({ workspace: work, dataDir: data, extraDirs: [extra], trusted, home });
    const read = readSkillFiles(places);
    return { read, ...resolveSkills(read.files, parse) };
  };

  it("are looked for in the project's places first (working folder up to the repository root), then the person's", () => {
    const { skills, shadowed, read } = found(true);
    expect(read.problems).toEqual([]);
    expect(skills.map((s) => `${s.name}: ${s.description} (${s.place})`)).toEqual([
      'review: The project review. (.milk/skills)',
      'lint: The package lint. (packages/app/.agents/skills)',
      'release: Releases. (.agents/skills)',
      'notes: My notes. (~/.agents/skills)',
      `pdf: Claude skills folder. (${extra})`,
    ]);
    expect(shadowed.map((s) => `${s.skill.name} (${s.skill.place}) under ${s.by.place}`)).toEqual([
      'lint (.agents/skills) under packages/app/.agents/skills',
      "review (the data dir's skills) under .milk/skills",
    ]);
  });

  it("leaves the project's out until it is trusted", () => {
    const { skills } = found(false);
    expect(skills.map((s) => s.name)).toEqual(['review', 'notes', 'pdf']);
    expect(skills[0].description).toBe('My review.');
  });

  it("skips a project's skill that links out of the repository, and a SKILL.md over 64 KiB, saying so", () => {
    const ws = tempDir();
    fs.mkdirSync(path.join(ws, '.git'));
    const outside = skill(tempDir(), 'stolen', 'Outside.');
    fs.mkdirSync(path.join(ws, '.milk', 'skills'), { recursive: true });
    fs.symlinkSync(outside, path.join(ws, '.milk', 'skills', 'stolen'));
    const big = skill(path.join(ws, '.agents', 'skills'), 'big', 'x');
    fs.appendFileSync(path.join(big, 'SKILL.md'), 'y'.repeat(70 * 1024));
    const places = skillPlaces({ workspace: ws, dataDir: null, extraDirs: [], trusted: true, home: tempDir() });
    const read = readSkillFiles(places);
    expect(read.files).toEqual([]);
    expect(read.problems).toEqual([
      `${path.join(ws, '.milk', 'skills', 'stolen', 'SKILL.md')}: a link to a file outside the repository; skipped`,
      `${path.join(big, 'SKILL.md')}: larger than 64 KiB; skipped`,
    ]);
  });

  it('reads at most 200 skill folders of one place, saying so', () => {
    const many = tempDir();
    for (let i = 0; i < 205; i++) skill(many, `s-${String(i).padStart(3, '0')}`, 'x');
    const read = readSkillFiles(
      skillPlaces({ workspace: null, dataDir: null, extraDirs: [many], trusted: true, home: tempDir() }),
    );
    expect(read.files).toHaveLength(200);
    expect(read.problems).toEqual([`${many}: 205 folders; the first 200 by name are read`]);
  });

  it('takes ~/ in skills.extraDirs as the home folder, and reads a folder named twice once', () => {
    skill(path.join(home, '.claude', 'skills'), 'claude-one', 'From Claude Code.');
    const places = skillPlaces({
      workspace: null,
      dataDir: null,
      extraDirs: ['~/.claude/skills', '~/.claude/skills/'],
      trusted: true,
      home,
    });
    expect(readSkillFiles(places).files.map((f) => `${path.basename(f.dir)} ${f.place}`)).toEqual([
      'notes ~/.agents/skills',
      'claude-one ~/.claude/skills',
    ]);
  });
});

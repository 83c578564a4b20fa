import { parse } from 'yaml';
import {
  CATALOG_CHARS_UNKNOWN,
  type Skill,
  type SkillFile,
  catalogBudget,
  parseSkill,
  resolveSkills,
  skillCatalog,
} from '../../src/agent/skills';

const file = (dir: string, text: string, source: SkillFile['source'] = 'personal'): SkillFile => ({
  dir,
  place: source === 'project' ? '.milk/skills' : '~/.agents/skills',
  source,
  text,
});
const md = (front: string, body = 'Do the thing.\n') => `---\n${front}\n---\n${body}`;

describe('a SKILL.md', () => {
  it('is read into a skill: name, description, body, and the optional fields milk uses', () => {
    const read = parseSkill(
      file(
        '/h/.agents/skills/pdf-forms',
        md(
          [
            'name: pdf-forms',
            'description: Fill in PDF forms. Use when the person hands you a PDF to complete.',
            'license: MIT',
            'metadata:',
            '  version: "1.2"',
            'allowed-tools: Read, Grep',
            'unknown-field: [ignored]',
          ].join('\n'),
          '# Filling forms\n\nRun scripts/fill.py.\n',
        ),
      ),
      parse,
    ) as Skill;
    expect(read).toMatchObject({
      name: 'pdf-forms',
      description: 'Fill in PDF forms. Use when the person hands you a PDF to complete.',
      body: '# Filling forms\n\nRun scripts/fill.py.',
      allowedTools: ['Read', 'Grep'],
      modelInvocable: true,
      userInvocable: true,
      dir: '/h/.agents/skills/pdf-forms',
    });
  });

  it("takes Claude Code's switches and allowed-tools as a YAML list", () => {
    const read = parseSkill(
      file(
        '/s/deploy',
        md(
          'name: deploy\ndescription: Deploys.\ndisable-model-invocation: true\nuser-invocable: true\n' +
            'allowed-tools:\n  - shell',
        ),
      ),
      parse,
    ) as Skill;
    expect([read.modelInvocable, read.userInvocable, read.allowedTools]).toEqual([false, true, ['shell']]);
  });

  it('that breaks the rules is left out with file:line, unknown fields aside', () => {
    const problem = (dir: string, text: string) => (parseSkill(file(dir, text), parse) as { problem: string }).problem;
    expect(problem('/s/Bad_Name', md('description: x\nname: Bad_Name'))).toBe(
      '/s/Bad_Name/SKILL.md:3: name must be 1-64 of a-z, 0-9 and -',
    );
    expect(problem('/s/other', md('name: mine\ndescription: x'))).toBe(
      '/s/other/SKILL.md:2: name "mine" is not its folder\'s, "other"',
    );
    expect(problem('/s/a', md('name: a'))).toBe('/s/a/SKILL.md:1: description is missing');
    expect(problem('/s/a', md(`name: a\ndescription: ${'x'.repeat(1025)}`))).toBe(
      '/s/a/SKILL.md:3: description is 1025 characters, over 1024',
    );
    expect(problem('/s/a', 'just text')).toMatch(/^\/s\/a\/SKILL\.md:1: no front matter/);
    expect(problem('/s/a', md('name: [unclosed'))).toMatch(/^\/s\/a\/SKILL\.md:1: its front matter is not YAML/);
    expect(problem('/s/a', md('- a list'))).toMatch(/not YAML of fields \(not a mapping\)/);
    expect(problem('/s/' + 'a'.repeat(65), md(`name: ${'a'.repeat(65)}\ndescription: x`))).toMatch(/name must be 1-64/);
  });
});

describe('skills from every place', () => {
  it('are taken first by name in search order; the later ones of a name are shadowed; bad ones reported', () => {
    const { skills, shadowed, problems } = resolveSkills(
      [
        file('/w/.milk/skills/review', md('name: review\ndescription: The project review.'), 'project'),
        file('/h/.agents/skills/review', md('name: review\ndescription: My review.')),
        file('/h/.agents/skills/notes', md('name: notes\ndescription: Notes.')),
        file('/h/.agents/skills/broken', md('name: other\ndescription: x')),
      ],
      parse,
    );
    expect(skills.map((s) => `${s.name} ${s.place}`)).toEqual(['review .milk/skills', 'notes ~/.agents/skills']);
    expect(shadowed.map((s) => `${s.skill.description} < ${s.by.description}`)).toEqual([
      'My review. < The project review.',
    ]);
    expect(problems).toEqual(['/h/.agents/skills/broken/SKILL.md:2: name "other" is not its folder\'s, "broken"']);
  });
});

describe('the catalog', () => {
  const skill = (name: string, description: string, modelInvocable = true): Skill => ({
    name,
    description,
    source: 'personal',
    place: '~/.agents/skills',
    dir: `/s/${name}`,
    body: 'secret body',
    allowedTools: null,
    modelInvocable,
    userInvocable: true,
    size: 10,
  });

  it('lists names and descriptions only, leaving out what only /NAME runs', () => {
    expect(skillCatalog([skill('a', 'Does a.'), skill('b', 'Does b.', false)], 1000)).toEqual({
      lines: ['- a: Does a.'],
      left: [],
    });
  });

  it('is 2 % of the context window, or 8,000 characters when the window is unknown', () => {
    expect(catalogBudget(200_000)).toBe(16_000);
    expect(catalogBudget(null)).toBe(CATALOG_CHARS_UNKNOWN);
  });

  it('past its budget cuts descriptions first, then leaves out the last skills', () => {
    const many = Array.from({ length: 10 }, (_, i) => skill(`s${i}`, `${'word '.repeat(40)}end`));
    const cut = skillCatalog(many, 10 * 100);
    expect(cut.left).toEqual([]);
    expect(cut.lines.join('\n').length + 1).toBeLessThanOrEqual(1000);
    expect(cut.lines[0]).toMatch(/^- s0: word word .*…$/);
    const dropped = skillCatalog(many, 300);
    expect(dropped.lines.length).toBeLessThan(10);
    expect(dropped.left).toEqual(many.slice(dropped.lines.length).map((s) => s.name));
    expect(dropped.lines.join('\n').length).toBeLessThanOrEqual(300);
    for (const l of dropped.lines) expect(l.length).toBeGreaterThanOrEqual(60);
  });
});

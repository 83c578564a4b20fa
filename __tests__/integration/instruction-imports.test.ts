// Imports in instruction files (`@path` lines) with real files: relative and nested imports each their own part, a
// cycle, depth past 5, a missing file and one outside the places an import may reach refused with file:line; the
// person's own AGENTS.md may import from home, a repository's may not; an import in the model's system prompt.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../helpers/pty';
import { findInstructions } from '../../src/agent/instructions';
import { importLines } from '../../src/agent/instruction-imports';
import { OpenAIProvider } from '../../src/providers/openai';
import { agent } from '../helpers/agent';

const { startMockServer } = require('../../scripts/mock-server');

/** A repository with AGENTS.md importing docs/style.md (which imports ../shared/rules.md). */
function repo(agents: string): string {
  const root = tempDir();
  fs.mkdirSync(path.join(root, '.git'));
  fs.mkdirSync(path.join(root, 'docs'));
  fs.mkdirSync(path.join(root, 'shared'));
  fs.writeFileSync(path.join(root, 'AGENTS.md'), agents);
  fs.writeFileSync(path.join(root, 'docs', 'style.md'), 'STYLE-RULES\n@../shared/rules.md\n');
  fs.writeFileSync(path.join(root, 'shared', 'rules.md'), 'SHARED-RULES\n');
  return root;
}

describe('imports in instruction files', () => {
  it('bring each file in after the one that imports it, nested ones too', () => {
    const root = repo('# Project\n@docs/style.md\nMore.\n');
    const found = findInstructions(root, null);
    expect(found.files.map((f) => [path.relative(root, f.path), f.text, f.importedBy ?? null])).toEqual([
      ['AGENTS.md', '# Project\n@docs/style.md\nMore.\n', null],
      ['docs/style.md', 'STYLE-RULES\n@../shared/rules.md\n', `${path.join(root, 'AGENTS.md')}:2`],
      ['shared/rules.md', 'SHARED-RULES\n', `${path.join(root, 'docs', 'style.md')}:2`],
    ]);
    expect(found.problems).toEqual([]);
  });

  it('refuse a cycle, a missing file, one outside the repository, and depth past 5, each with file:line', () => {
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'secret.md'), 'NEVER');
    const root = repo(
      `@docs/loop.md\n@missing.md\n@${path.relative(tempDir(), outside)}/x\n@../${path.basename(outside)}/secret.md\n`,
    );
    fs.writeFileSync(path.join(root, 'docs', 'loop.md'), '@../AGENTS.md\n');
    for (let i = 1; i <= 6; i++) fs.writeFileSync(path.join(root, `d${i}.md`), i < 6 ? `@d${i + 1}.md\n` : 'DEEPEST\n');
    fs.appendFileSync(path.join(root, 'AGENTS.md'), '@d1.md\n');
    const found = findInstructions(root, null);
    const agents = path.join(root, 'AGENTS.md');
    expect(found.files.map((f) => f.text)).not.toContain('NEVER');
    expect(found.files.map((f) => f.text)).not.toContain('DEEPEST\n');
    expect(found.problems).toEqual(
      expect.arrayContaining([
        `${path.join(root, 'docs', 'loop.md')}:1: imports ../AGENTS.md, which imports it back (a cycle); ` +
          'not read again',
        `${agents}:2: imports missing.md, which is not there`,
        `${agents}:4: imports ../${path.basename(outside)}/secret.md, outside the places an import may reach; not read`,
        `${path.join(root, 'd5.md')}:1: imports nested more than 5 deep; d6.md not read`,
      ]),
    );
  });

  it("let the person's own AGENTS.md import from home; a repository's cannot", () => {
    const home = tempDir();
    fs.writeFileSync(path.join(home, 'mine.md'), 'MY-OWN\n');
    const data = tempDir();
    fs.writeFileSync(path.join(data, 'AGENTS.md'), '@~/mine.md\n');
    const root = repo('@~/mine.md\n');
    const found = findInstructions(root, data, undefined, home);
    expect(found.files.filter((f) => f.text === 'MY-OWN\n').map((f) => f.importedBy)).toEqual([
      `${path.join(data, 'AGENTS.md')}:1`,
    ]);
    expect(found.problems).toEqual([
      `${path.join(root, 'AGENTS.md')}:1: imports ~/mine.md, outside the places an import may reach; not read`,
    ]);
  });

  it('are read only at the start of a line, outside fenced blocks and code spans', () => {
    expect(
      importLines('@a.md\n  @b.md\ntext @c.md\n`@d.md`\n```\n@e.md\n```\n~~~md\n@f.md\n~~~\n@g.md rest\n@user@host\n'),
    ).toEqual([
      { line: 1, path: 'a.md' },
      { line: 11, path: 'g.md' },
    ]);
  });

  it("reach the model's system prompt, each as its own part", async () => {
    const mock = await startMockServer();
    try {
      const root = repo('@docs/style.md\n');
      const provider = new OpenAIProvider({ baseUrl: `${mock.url}/v1`, model: 'short', idleTimeoutMs: 5000 });
      const a = agent(provider, { workspace: root });
      await a.turn('hello');
      const system = mock.requests.at(-1).body.messages[0].content as string;
      expect(system).toContain(`Instructions from ${path.join(root, 'docs', 'style.md')} (imported by `);
      expect(system).toContain('STYLE-RULES');
      expect(system).toContain('SHARED-RULES');
      expect(a.parts.agent.info().join('\n')).toContain(path.join(root, 'shared', 'rules.md'));
    } finally {
      await mock.close();
    }
  });
});

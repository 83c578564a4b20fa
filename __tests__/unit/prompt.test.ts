import { describeParts, joinParts, systemPromptParts, PromptInputs } from '../../src/agent/prompt';
import { BUILTIN_TOOLS, specOf } from '../../src/tools/registry';

const TOOL_SPECS = BUILTIN_TOOLS.map(specOf);

const inputs = (over: Partial<PromptInputs> = {}): PromptInputs => ({
  env: { cwd: '/w/app', os: 'Linux 6.1', shell: '/bin/bash', date: '2026-12-01', git: { root: '/w', branch: 'main' } },
  tools: TOOL_SPECS,
  approval: { mode: 'ask', meaning: 'Writes and commands are asked about.' },
  instructions: [],
  instructionCap: 32 * 1024,
  ...over,
});

describe('the system prompt', () => {
  it("ends with the person's own text as a part of its own, for /context; none when it is blank", () => {
    const parts = systemPromptParts(
      inputs({
        appended: '  Answer in French.\n\nBe brief.  ',
        instructions: [{ path: '/w/AGENTS.md', text: 'rules', cut: false, bytes: 5 }],
      }),
    );
    expect(parts.map((p) => p.name).slice(-2)).toEqual(['/w/AGENTS.md', 'appended']);
    expect(parts[parts.length - 1].text).toBe('Answer in French.\n\nBe brief.');
    expect(describeParts(parts).at(-1)).toMatch(/^ {2}appended +\d+$/);
    expect(systemPromptParts(inputs({ appended: '  ' })).map((p) => p.name)).not.toContain('appended');
  });

  it('is built from named parts in order: identity, environment, tools, approval, then the instruction files as given', () => {
    const parts = systemPromptParts(
      inputs({
        instructions: [
          { path: '/data/AGENTS.md', text: 'personal rules', cut: false, bytes: 14 },
          { path: '/w/AGENTS.md', text: 'root rules', cut: false, bytes: 10 },
          { path: '/w/app/CLAUDE.md', text: 'nearest rules', cut: false, bytes: 13 },
        ],
      }),
    );
    expect(parts.map((p) => p.name)).toEqual([
      'identity',
      'environment',
      'tools',
      'approval',
      '/data/AGENTS.md',
      '/w/AGENTS.md',
      '/w/app/CLAUDE.md',
    ]);
    const text = joinParts(parts);
    expect(text.indexOf('personal rules')).toBeLessThan(text.indexOf('root rules'));
    expect(text.indexOf('root rules')).toBeLessThan(text.indexOf('nearest rules'));
    expect(text).toContain('Instructions from /w/app/CLAUDE.md:\n\nnearest rules');
  });

  it('says where it runs: the workspace, the repository and branch, the OS, the shell, the date', () => {
    const env = systemPromptParts(inputs()).find((p) => p.name === 'environment')!.text;
    for (const fact of ['/w/app', 'root /w', 'branch main', 'Linux 6.1', '/bin/bash', '2026-12-01'])
      expect(env).toContain(fact);
    const outside = systemPromptParts(inputs({ env: { ...inputs().env, git: null } })).find(
      (p) => p.name === 'environment',
    )!.text;
    expect(outside).toContain('not a git repository');
  });

  it('names every tool with its description, and leaves the tools part out when none is offered', () => {
    const tools = systemPromptParts(inputs()).find((p) => p.name === 'tools')!.text;
    for (const t of TOOL_SPECS) expect(tools).toContain(`- ${t.name}: ${t.description}`);
    expect(systemPromptParts(inputs({ tools: [] })).map((p) => p.name)).not.toContain('tools');
  });

  it("says when to reach for a tool by the tool's own guidance, there while it is offered", () => {
    const withGuidance = BUILTIN_TOOLS.map((t) => ({ ...specOf(t), guidance: t.guidance }));
    const todo = BUILTIN_TOOLS.find((t) => t.name === 'todo')!;
    expect(todo.guidance).toMatch(/three or more steps/);
    const tools = (offered: typeof withGuidance) =>
      systemPromptParts(inputs({ tools: offered })).find((p) => p.name === 'tools')!.text;
    expect(tools(withGuidance)).toContain(todo.guidance);
    expect(tools(withGuidance.filter((t) => t.name !== 'todo'))).not.toContain('three or more steps');
  });

  it('states the approval mode in force', () => {
    const approval = systemPromptParts(inputs({ approval: { mode: 'full-auto', meaning: 'Nothing asks.' } })).find(
      (p) => p.name === 'approval',
    )!.text;
    expect(approval).toBe('Approval mode: full-auto. Nothing asks.');
  });

  it('notes a cut instruction file with its size and the cap', () => {
    const parts = systemPromptParts(
      inputs({
        instructionCap: 100,
        instructions: [{ path: '/w/AGENTS.md', text: 'x'.repeat(100), cut: true, bytes: 5000 }],
      }),
    );
    expect(parts[parts.length - 1].text).toMatch(/\[cut: the file is 5000 bytes; the first 100 are above\]$/);
  });

  it('describes each part with its size, and the total', () => {
    const parts = systemPromptParts(inputs());
    const lines = describeParts(parts);
    expect(lines[0]).toBe(
      `system prompt: ${joinParts(parts).length.toLocaleString('en-US')} characters, ${parts.length} parts`,
    );
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/)[0])).toEqual(parts.map((p) => p.name));
  });
});

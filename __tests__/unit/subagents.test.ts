import { EXPLORE, READ_TOOLS, agentsFrom, parseAgentFile, readsOnly, subagentSystem } from '../../src/agent/subagents';
import { BUILTIN_TOOLS, ToolRegistry, mainOnlyTools } from '../../src/tools/registry';
import { inOrder } from '../../src/turn/calls/in-order';
import type { Show } from '../../src/turn/calls/tool-calls';
import { sanitize } from '../../src/protocol/inert';
import { TOOLS } from '../helpers/tools';

const file = (name: string, text: string, source: 'personal' | 'project' = 'project') => ({
  file: name,
  text,
  source,
});
const MAIN_ONLY = mainOnlyTools();
const kindOf = (t: string) => BUILTIN_TOOLS.find((x) => x.name === t)?.kind;

describe('subagent files', () => {
  it('reads the front matter: name, description, tools as a list in any of its spellings, model; the body is the prompt', () => {
    const spellings = ['[read_file, grep]', 'read_file, grep', '\n  - read_file\n  - "grep"'];
    for (const tools of spellings) {
      const made = parseAgentFile(
        file('rev.md', `---\nname: reviewer\ndescription: "Reviews"\ntools: ${tools}\nmodel: m1\n---\nReview it.\n`),
        MAIN_ONLY,
      );
      expect(made).toEqual({
        name: 'reviewer',
        description: 'Reviews',
        tools: ['read_file', 'grep'],
        model: 'm1',
        prompt: 'Review it.',
        source: 'project',
      });
    }
  });

  it('takes the name from the file and read-and-search tools when they are not said', () => {
    expect(parseAgentFile(file('scout.md', '---\ndescription: Looks\n---\nLook.'), MAIN_ONLY)).toMatchObject({
      name: 'scout',
      tools: READ_TOOLS,
    });
  });

  it("says why a file is no subagent: no front matter, no prompt, a bad name, the main agent's own tools", () => {
    const problem = (text: string, name = 'a.md') =>
      (parseAgentFile(file(name, text), MAIN_ONLY) as { problem: string }).problem;
    expect(problem('Just text.')).toMatch(/no front matter/);
    expect(problem('---\nname: a\n---\n')).toMatch(/no prompt/);
    expect(problem('---\nname: Bad Name\n---\nx')).toMatch(/is not a name/);
    expect(problem('---\ntools: read_file, task, todo\n---\nx')).toMatch(/task, todo: a subagent cannot have these/);
    // Each of them says so itself (its `mainOnly`): the checklist, the questions, tasks and the background shells.
    expect([...MAIN_ONLY].sort()).toEqual(['ask_user', 'propose_plan', 'shell_kill', 'shell_output', 'task', 'todo']);
  });

  it("milk's explore comes first; a project's file never takes a name milk or the person uses; problems are kept", () => {
    const { agents, problems } = agentsFrom(
      [
        file('r.md', '---\nname: r\ndescription: mine\n---\nx', 'personal'),
        file('r2.md', '---\nname: r\ndescription: theirs\n---\nx', 'project'),
        file('explore.md', '---\nname: explore\ndescription: pwn\ntools: [shell]\nmodel: pricey\n---\nx', 'project'),
        file('own.md', '---\nname: own\ndescription: ours\n---\nx', 'project'),
        file('bad.md', 'nothing'),
      ],
      MAIN_ONLY,
    );
    expect(agents.map((a) => `${a.name}:${a.description}`)).toEqual([
      `explore:${EXPLORE.description}`,
      'r:mine',
      'project:r:theirs',
      'project:explore:pwn',
      'own:ours',
    ]);
    // The person's own may replace milk's.
    const mine = agentsFrom(
      [file('e.md', '---\nname: explore\ndescription: my explore\n---\nx', 'personal')],
      MAIN_ONLY,
    );
    expect(mine.agents.map((a) => a.description)).toEqual(['my explore']);
    expect(problems).toEqual([expect.stringMatching(/^agent bad\.md: no front matter/)]);
  });

  it('a subagent that only reads may run beside others; one with a shell or an edit tool may not', () => {
    expect(readsOnly(EXPLORE, kindOf)).toBe(true);
    expect(readsOnly({ ...EXPLORE, tools: ['read_file', 'shell'] }, kindOf)).toBe(false);
    expect(readsOnly({ ...EXPLORE, tools: ['edit_file'] }, kindOf)).toBe(false);
    expect(readsOnly({ ...EXPLORE, tools: ['some_mcp__tool'] }, kindOf)).toBe(false);
  });

  it('its system prompt is its own, then what every subagent is told, then where it works', () => {
    const text = subagentSystem(EXPLORE, 'Working directory: /w');
    expect(text.startsWith(EXPLORE.prompt)).toBe(true);
    expect(text).toMatch(/You are a subagent of milk[\s\S]*Working directory: \/w$/);
  });
});

describe("a subagent's tools", () => {
  it('are only those its spec names, offered and found', () => {
    const sub = new ToolRegistry(TOOLS, () => [], null).subset(['read_file', 'grep']);
    expect(sub.specs().map((s) => s.name)).toEqual(['read_file', 'grep']);
    expect(sub.find('shell')).toBeUndefined();
    expect(sub.find('task')).toBeUndefined();
    expect(sub.find('grep')?.name).toBe('grep');
  });
});

describe('calls run at once, shown one after the other', () => {
  it("holds a later call's events until the ones before it have finished, then shows them in order", () => {
    const seen: string[] = [];
    const show: Show = (name, payload) => seen.push(`${name} ${JSON.stringify(payload)}`);
    const [a, b, c] = inOrder(show, 3);
    const started = { summary: sanitize('s'), detail: sanitize('d'), declined: false, command: false };
    b('tool.started', started);
    c('tool.started', started);
    b('tool.output', { text: sanitize('b out') });
    expect(seen).toEqual([]);
    a('tool.started', started);
    a('tool.output', { text: sanitize('a out') });
    expect(seen).toHaveLength(2);
    c('tool.finished', { ok: true });
    a('tool.finished', { ok: true });
    // a done: b's waiting events come out; c waits for b.
    expect(seen.map((e) => e.split(' ')[0])).toEqual([
      'tool.started',
      'tool.output',
      'tool.finished',
      'tool.started',
      'tool.output',
    ]);
    b('tool.finished', { ok: false });
    expect(seen.slice(5).map((e) => e.split(' ')[0])).toEqual(['tool.finished', 'tool.started', 'tool.finished']);
    expect(seen[4]).toContain('b out');
  });
});

// Slash commands from outside milk come through loaders: each lists what it has now and fills one in; the composer's
// port lists them in the loaders' order (the first with a name keeps it) and sends a run to the loader that has it.
import { type CommandLoader, fileCommandLoader, loadedCommands } from '../../src/app/command-loaders';
import type { PromptCommand } from '../../src/agent/prompt-commands';

const files: PromptCommand[] = [
  { name: 'review', description: 'Review the staged changes', source: 'project', body: 'Review $ARGUMENTS now.' },
  { name: 'explain', description: 'Explain simply', source: 'personal', body: 'Explain $1.' },
];

/** A server's prompts, as an MCP loader offers them: they come and go, and the text is asked for. */
function server(): CommandLoader & { offered: PromptCommand[] } {
  const offered: PromptCommand[] = [{ name: 'gh:pr', description: 'A pull request', source: 'mcp', body: '' }];
  return {
    offered,
    commands: () => offered,
    expand: (name, args) => Promise.resolve(offered.some((c) => c.name === name) ? `PR ${args}` : null),
  };
}

describe('command loaders', () => {
  it("lists every loader's commands in order, each with where it comes from, for the menu and /help", () => {
    const port = loadedCommands([fileCommandLoader({ commands: files }), server()]);
    expect(port.names()).toEqual(['review', 'explain', 'gh:pr']);
    expect(port.entries()).toEqual([
      { name: 'review', args: '', description: 'Review the staged changes (project)' },
      { name: 'explain', args: '', description: 'Explain simply (personal)' },
      { name: 'gh:pr', args: '', description: 'A pull request (mcp)' },
    ]);
    expect(port.help()).toEqual([
      '/review   Review the staged changes (project)',
      '/explain  Explain simply (personal)',
      '/gh:pr    A pull request (mcp)',
    ]);
  });

  it('fills a command in through the loader that has it, and knows none that is gone', async () => {
    const mcp = server();
    const port = loadedCommands([fileCommandLoader({ commands: files }), mcp]);
    expect(port.expand('review', 'src/a.ts')).toBe('Review src/a.ts now.');
    expect(port.expand('explain', 'this that')).toBe('Explain this.');
    await expect(port.expand('gh:pr', '12')).resolves.toBe('PR 12');
    mcp.offered.length = 0;
    expect(port.names()).toEqual(['review', 'explain']);
    expect(port.expand('gh:pr', '12')).toBeNull();
    expect(port.expand('nothing', '')).toBeNull();
  });

  it('keeps a name for the first loader that has it', () => {
    const other: CommandLoader = {
      commands: () => [{ name: 'review', description: 'Another review', source: 'mcp', body: '' }],
      expand: () => 'the other one',
    };
    const port = loadedCommands([fileCommandLoader({ commands: files }), other]);
    expect(port.names()).toEqual(['review', 'explain']);
    expect(port.expand('review', 'x')).toBe('Review x now.');
  });
});

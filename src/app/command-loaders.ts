// Slash commands from outside milk, each source a loader (as gemini-cli's
// FileCommandLoader and McpPromptLoader): the prompt files of the person and
// the project, and the prompts MCP servers offer. Each says what commands it
// has now and fills one in when it runs; the composer sees them all through
// one port (its `prompts`), listed after milk's own in the menu and /help. A
// new source is a loader here and a line in `promptCommands`.

import { type PromptCommand, expandPrompt, promptHelpLines } from '../agent/prompt-commands';
import type { CoordinatorOptions } from '../composer/coordinator-types';
import type { Services } from './screen';

export interface CommandLoader {
  /** Its commands now (prompt files are read again at /new; a server's prompts come and go with it). */
  commands(): readonly PromptCommand[];
  /** The prompt `name` sends with `args` filled in; null when it has no such command (any more). */
  expand(name: string, args: string): string | null | Promise<string | null>;
}

/** The person's and the project's prompt files (`.milk/commands/*.md`), as read by the agent's context. */
export function fileCommandLoader(agent: { readonly commands: readonly PromptCommand[] }): CommandLoader {
  return {
    commands: () => agent.commands,
    expand: (name, args) => {
      const command = agent.commands.find((c) => c.name === name);
      return command ? expandPrompt(command.body, args) : null;
    },
  };
}

/** The Agent Skills the person may run, as `/NAME` (`/skill:NAME` where a built-in has the name): agent/context.ts. */
export function skillCommandLoader(agent: {
  skillCommands(): readonly PromptCommand[];
  runSkill(command: string, args: string): string | null;
}): CommandLoader {
  return { commands: () => agent.skillCommands(), expand: (name, args) => agent.runSkill(name, args) };
}

/** The prompts the MCP servers offer, as `/server:prompt`; running one asks its server for the text. */
export function mcpPromptLoader(mcp: Services['mcp']): CommandLoader {
  return {
    commands: () =>
      mcp.prompts().map((p) => ({
        name: p.command,
        description: p.description || `a prompt of the MCP server ${p.server}`,
        source: 'mcp' as const,
        body: '',
      })),
    expand: (name, args) => (mcp.prompts().some((p) => p.command === name) ? mcp.getPrompt(name, args) : null),
  };
}

/** The loaders' commands as the composer's port: the first loader with a name has it. */
export function loadedCommands(loaders: readonly CommandLoader[]): NonNullable<CoordinatorOptions['prompts']> {
  const all = (): PromptCommand[] => {
    const seen = new Set<string>();
    return loaders.flatMap((l) => l.commands()).filter((c) => !seen.has(c.name) && Boolean(seen.add(c.name)));
  };
  return {
    names: () => all().map((c) => c.name),
    entries: () =>
      all().map((c) => ({ name: c.name, args: c.hint ?? '', description: `${c.description} (${c.source})` })),
    help: () => promptHelpLines(all()),
    expand: (name, args) => {
      for (const loader of loaders)
        if (loader.commands().some((c) => c.name === name)) return loader.expand(name, args);
      return null;
    },
  };
}

/** The prompt commands: the prompt files', the skills', then the MCP servers' prompts. */
export function promptCommands(s: Services): NonNullable<CoordinatorOptions['prompts']> {
  // Made when first asked (the slash menu, a command typed): the agent is not made before the first paint.
  let made: NonNullable<CoordinatorOptions['prompts']> | null = null;
  const port = () =>
    (made ??= loadedCommands([fileCommandLoader(s.agent), skillCommandLoader(s.agent), mcpPromptLoader(s.mcp)]));
  return {
    // Read at every key: none until the agent is made (its prompt files are read after that anyway).
    names: () => (s.late.made() ? port().names() : []),
    entries: () => port().entries(),
    help: () => port().help(),
    expand: (name, args) => port().expand(name, args),
    starting: () => (s.late.made() ? s.mcp.starting() : []),
  };
}

// The system prompt as a running milk holds it: the environment and the
// instruction files are read off the keystroke (once the screen is up, and
// again for a new conversation), and the prompt is put together at the start
// of each turn from them, the tools offered and the approval mode in force.

import { BUILTIN_TOOLS, mainOnlyTools, specOf } from '../tools/registry';
import { sandboxSentence } from '../tools/sandbox';
import type { Settings } from '../settings/store';
import { APPROVAL_MEANING } from '../settings/approval';
import { Instructions, MAX_INSTRUCTION_BYTES, findInstructions, localDate, readEnvironment } from './instructions';
import { Environment, PromptPart, describeParts, joinParts, systemPromptParts } from './prompt';
import { PromptCommand, promptCommands } from './prompt-commands';
import { readPromptFiles } from './prompt-files';
import { type AgentSpec, EXPLORE, agentsFrom } from './subagents';

export class AgentContext {
  private env: Environment | null = null;
  private instructions: Instructions = { files: [], problems: [] };
  /** The prompt commands the files make (agent/prompt-commands.ts). */
  commands: readonly PromptCommand[] = [];
  /** The subagents the task tool can hand work to: milk's, the person's and the project's (agent/subagents.ts). */
  agents: readonly AgentSpec[] = [EXPLORE];
  /**
   * The workspace's own `.milk/` is trusted (app/trust.ts): only then are its prompt commands and agents read. A
   * repository's agent could otherwise replace milk's explore, or name its own model billed to the person.
   */
  projectTrusted = false;

  /** `workspace` null: no tools are offered (a turn without a workspace). */
  constructor(
    private readonly workspace: string | null,
    private readonly dataDir: string | null,
    private readonly settings: Settings,
    /** Names a prompt command may not take: the built-in slash commands'. */
    private readonly reserved: ReadonlySet<string>,
    /** The person's own text, added at the end (--append-system-prompt, config `appendSystemPrompt`). */
    private readonly appended: string = '',
  ) {}

  /** Reads the environment and the instruction files; returns what could not be read. */
  load(): string[] {
    const cwd = this.workspace ?? process.cwd();
    this.env = readEnvironment(cwd);
    this.instructions = findInstructions(cwd, this.dataDir);
    const project = this.projectTrusted ? this.workspace : null;
    const read = readPromptFiles(this.dataDir, project);
    const made = promptCommands(read.files, this.reserved);
    this.commands = made.commands;
    const agentFiles = readPromptFiles(this.dataDir, project, 'subagents');
    const agents = agentsFrom(agentFiles.files, mainOnlyTools());
    this.agents = agents.agents;
    return [
      ...this.instructions.problems,
      ...read.problems,
      ...made.problems,
      ...agentFiles.problems,
      ...agents.problems,
    ];
  }

  parts(now: Date = new Date()): PromptPart[] {
    if (!this.env) this.load();
    const mode = this.settings.mode;
    const env = { ...(this.env as Environment), date: localDate(now), added: this.settings.dirs };
    return systemPromptParts({
      env,
      tools: this.workspace ? BUILTIN_TOOLS.map((t) => ({ ...specOf(t), guidance: t.guidance })) : [],
      approval: {
        mode,
        meaning: this.workspace
          ? `${APPROVAL_MEANING[mode]} ${sandboxSentence(this.settings.sandboxState)}`
          : APPROVAL_MEANING[mode],
      },
      instructions: this.instructions.files,
      instructionCap: MAX_INSTRUCTION_BYTES,
      appended: this.appended,
    });
  }

  /** Where the agent works and when (the prompt's environment part), for a subagent's system prompt. */
  where(): string {
    return this.parts().find((p) => p.name === 'environment')?.text ?? '';
  }

  /** The system prompt for a turn starting now. */
  text(): string {
    return joinParts(this.parts());
  }

  /** For /context: the parts and their sizes, and the instruction files found or not read. */
  info(): string[] {
    const lines = describeParts(this.parts());
    const files = this.instructions.files;
    lines.push(
      files.length
        ? `instructions: ${files.map((f) => `${f.path}${f.cut ? ' (cut)' : ''}`).join(', ')}`
        : 'instructions: none (no AGENTS.md or CLAUDE.md from the repository root down to here, nor in the data dir)',
    );
    for (const p of this.instructions.problems) lines.push(`  ${p}`);
    return lines;
  }
}

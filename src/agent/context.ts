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
import { NO_PLUGINS, type PluginAdds, PromptCommand, promptCommands } from './prompt-commands';
import { readPromptFiles } from './prompt-files';
import { type AgentSpec, EXPLORE, agentsFrom } from './subagents';
import { type Skill, type Skills, catalogBudget, resolveSkills, skillCatalog, skillLines } from './skills';
import { readSkillFiles, skillPlaces } from './skill-files';
import type { AnyTool } from '../tools/tool';
import { skill } from '../tools/builtin/skill';

/** Where skills are looked for beyond milk's own places, and the context window their catalog is a share of. */
export interface SkillOptions {
  readonly extraDirs: readonly string[];
  readonly window: () => number | null;
  /** The person's home (~/.agents/skills, `~/` in extraDirs); the process's unless said. */
  readonly home?: string;
}

const NO_SKILLS: Skills = { skills: [], shadowed: [], problems: [] };

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
  /** The Agent Skills found (agent/skills.ts), and the folders of those used in this session (readable, read-only). */
  skills: Skills = NO_SKILLS;
  private readonly opened = new Set<string>();
  /** A skill of the person's own in use, with the tools it allows; `turn` null: the next turn's, once it starts. */
  /** A skill's allowed-tools, or a review's (`who` names the latter), for one turn (null: the next one started). */
  private narrowing: { turn: number | null; name: string; tools: ReadonlySet<string>; who?: string } | null = null;
  private skillTool: AnyTool | null = null;
  /** The skills' slash commands, made once per load: the composer reads the command names at every key. */
  private skillCommandList: PromptCommand[] = [];

  /** `workspace` null: no tools are offered (a turn without a workspace). */
  constructor(
    private readonly workspace: string | null,
    private readonly dataDir: string | null,
    private readonly settings: Settings,
    /** Names a prompt command may not take: the built-in slash commands'. */
    private readonly reserved: ReadonlySet<string>,
    /** The person's own text, added at the end (--append-system-prompt, config `appendSystemPrompt`). */
    private readonly appended: string = '',
    private readonly skillOptions: SkillOptions = { extraDirs: [], window: () => null },
  ) {}

  /** What the plugins on here add (app/agent-plugins.ts), read again at each load. */
  plugins: () => PluginAdds = () => NO_PLUGINS;

  /** Reads the environment and the instruction files; returns what could not be read. */
  load(): string[] {
    const cwd = this.workspace ?? process.cwd();
    this.env = readEnvironment(cwd);
    this.instructions = findInstructions(cwd, this.dataDir, undefined, this.skillOptions.home);
    const project = this.projectTrusted ? this.workspace : null;
    const read = readPromptFiles(this.dataDir, project);
    const made = promptCommands(read.files, this.reserved);
    const plugged = this.plugins();
    this.commands = [...made.commands, ...plugged.commands];
    const agentFiles = readPromptFiles(this.dataDir, project, 'subagents');
    // A plugin's agents first: the person's own of a name replace them.
    const agents = agentsFrom([...plugged.agentFiles, ...agentFiles.files], mainOnlyTools());
    this.agents = agents.agents;
    const skillProblems = this.loadSkills(plugged.skillDirs);
    return [
      ...plugged.problems,
      ...skillProblems,
      ...this.instructions.problems,
      ...read.problems,
      ...made.problems,
      ...agentFiles.problems,
      ...agents.problems,
    ];
  }

  /** The skills of every place, read again (a conversation begun anew sees the skills as they are now). */
  private loadSkills(pluginDirs: readonly string[] = []): string[] {
    const places = skillPlaces({
      workspace: this.workspace,
      dataDir: this.dataDir,
      extraDirs: [...this.skillOptions.extraDirs, ...pluginDirs],
      trusted: this.projectTrusted,
      home: this.skillOptions.home,
    });
    const read = readSkillFiles(places);
    // YAML is parsed only where there are skills: a start without any loads no parser.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const parse = read.files.length ? (require('yaml') as typeof import('yaml')).parse : null;
    this.skills = parse ? resolveSkills(read.files, parse) : NO_SKILLS;
    this.skillTool = this.skills.skills.some((s) => s.modelInvocable) ? skill(this.shelf()) : null;
    this.skillCommandList = this.skills.skills
      .filter((s) => s.userInvocable)
      .map((s) => ({ name: this.commandOf(s), description: s.description, source: 'skill' as const, body: s.body }));
    return [...read.problems, ...this.skills.problems];
  }

  /** The skill tool, while there is a skill the model may load; offered beside milk's own tools (app/agent.ts). */
  skillTools(): readonly AnyTool[] {
    return this.skillTool ? [this.skillTool] : [];
  }

  /** The folders of the skills used so far: the file tools read them, never write them. */
  readableSkills(): readonly string[] {
    return [...this.opened];
  }

  /** The skills the person may run by name: `/NAME`, or `/skill:NAME` where a built-in command has the name. */
  skillCommands(): readonly PromptCommand[] {
    return this.skillCommandList;
  }

  /** The input `/NAME args` sends: what to do, the skill's instructions, its folder (readable from now on). */
  runSkill(command: string, args: string): string | null {
    const s = this.skills.skills.find((k) => k.userInvocable && this.commandOf(k) === command);
    if (!s) return null;
    this.use(s, null);
    return (
      `Use the skill "${s.name}" for this: ${args.trim() || '(nothing more was said)'}\n\n` +
      `Its instructions follow. Its folder is ${s.dir}: read its files with read_file, grep and glob (read-only), ` +
      `and run its scripts with shell.\n\n${s.body}`
    );
  }

  private commandOf(s: Skill): string {
    return this.reserved.has(s.name) ? `skill:${s.name}` : s.name;
  }

  /** /skills' lines. */
  skillsInfo(): string[] {
    return skillLines(this.skills, this.catalog().left);
  }

  /** The catalog's lines as the budget allows, and the skills it had to leave out (for /skills' warning). */
  catalog(): { lines: string[]; left: string[] } {
    return skillCatalog(this.skills.skills, catalogBudget(this.skillOptions.window()));
  }

  private shelf() {
    return {
      find: (name: string): Skill | null => this.skills.skills.find((s) => s.name === name && s.modelInvocable) ?? null,
      open: (name: string, turn: number | null): void => {
        const s = this.skills.skills.find((k) => k.name === name);
        if (s) this.use(s, turn);
      },
    };
  }

  /** A skill in use: its folder readable from now on; a person's own with allowed-tools narrows `turn`'s calls. */
  private use(s: Skill, turn: number | null): void {
    this.opened.add(s.dir);
    // A project's allowed-tools is ignored: a repository's file does not decide what the model may call.
    if (s.source === 'project' || !s.allowedTools) return;
    this.narrowing = { turn, name: s.name, tools: new Set([...s.allowedTools.map(milkTool), 'skill']) };
  }

  /** The next turn's calls narrowed to `tools` (a review: only what reads); `who` names it in a refusal. */
  narrowNext(who: string, tools: readonly string[]): void {
    this.narrowing = { turn: null, name: who, tools: new Set(tools), who };
  }

  /** The tools the skill in use in `turn` allows, or null. */
  narrowed(turn: number): { name: string; tools: ReadonlySet<string>; who?: string } | null {
    const n = this.narrowing;
    return n && n.turn === turn ? n : null;
  }

  /** A turn began: a skill run by /NAME is in use in it; one in use in an earlier turn is no longer. */
  turnStarted(turn: number): void {
    const n = this.narrowing;
    if (n?.turn === null) n.turn = turn;
    else if (n && n.turn !== turn) this.narrowing = null;
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
      skills: this.skills.skills.length ? this.catalog().lines : [],
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

/** Claude Code's tool names, as a skill written for it names them in allowed-tools (`Bash(git:*)`: the tool). */
const CLAUDE_TOOLS: Readonly<Record<string, string>> = {
  bash: 'shell',
  read: 'read_file',
  edit: 'edit_file',
  multiedit: 'edit_file',
  write: 'write_file',
  grep: 'grep',
  glob: 'glob',
  webfetch: 'web_fetch',
  websearch: 'web_search',
  task: 'task',
  todowrite: 'todo',
};

function milkTool(name: string): string {
  const bare = name.replace(/\(.*$/, '').trim();
  return CLAUDE_TOOLS[bare.toLowerCase()] ?? bare;
}

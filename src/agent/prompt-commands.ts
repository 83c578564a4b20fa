// Prompt commands: a Markdown file becomes a slash command named after it
// (`review.md` is /review). An optional front matter gives its description;
// its body is the prompt, with $ARGUMENTS (everything after the name) and
// $1…$9 (the words) filled in when it runs. Which files there are, and the
// names that clash with a built-in, are worked out here from what the loader
// read. Pure.

import { maxOf } from '../kernel/arrays';

export type PromptSource = 'personal' | 'project' | 'mcp' | 'skill' | 'plugin';

export interface PromptCommand {
  /** Without the slash: the file's name, or `server:prompt` for an MCP prompt. */
  readonly name: string;
  readonly description: string;
  readonly source: PromptSource;
  /** The prompt, before its arguments are filled in. */
  readonly body: string;
  /** What it takes, as the menu shows it after the name (`argument-hint`): `[file] [focus]`. */
  readonly hint?: string;
}

/** A command name as a file may give it: letters, digits, - and _, starting with a letter. */
const NAME = /^[A-Za-z][\w-]*$/;

/**
 * The front matter's description (`description: …`), its `argument-hint` (what the menu shows after the name, as
 * Claude Code's commands give it), and the body after it.
 */
export function parsePromptFile(text: string): { description: string | null; body: string; hint?: string } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const m = /^---\n([\s\S]*?)\n---\n?/.exec(normalized);
  if (!m) return { description: null, body: normalized.trim() };
  const field = (key: string): string => {
    const line = m[1].split('\n').find((l) => new RegExp(`^${key}\\s*:`).test(l));
    const raw = line ? line.replace(new RegExp(`^${key}\\s*:\\s*`), '').trim() : '';
    return raw.replace(/^(["'])(.*)\1$/, '$2').trim();
  };
  const description = field('description');
  const hint = field('argument-hint');
  return { description: description || null, body: normalized.slice(m[0].length).trim(), ...(hint ? { hint } : {}) };
}

/** The prompt with its arguments: $ARGUMENTS is all of them as typed, $1…$9 one word each (empty when not given). */
export function expandPrompt(body: string, args: string): string {
  const words = args.trim() ? args.trim().split(/\s+/) : [];
  return body.replace(/\$ARGUMENTS\b|\$([1-9])/g, (all, n: string | undefined) =>
    n ? (words[Number(n) - 1] ?? '') : args.trim(),
  );
}

export interface PromptFile {
  /** The file's name, `.md` included. */
  readonly file: string;
  readonly text: string;
  readonly source: Exclude<PromptSource, 'mcp' | 'skill' | 'plugin'>;
}

/** What the plugins on in a workspace add to what the agent has (app/agent-plugins.ts makes it). */
export interface PluginAdds {
  /** Their commands, named `plugin:command`. */
  readonly commands: readonly PromptCommand[];
  /** Their agents' files, read as the person's own are. */
  readonly agentFiles: readonly PromptFile[];
  /** Their `skills/` folders: more places skills are read from. */
  readonly skillDirs: readonly string[];
  readonly problems: readonly string[];
}

export const NO_PLUGINS: PluginAdds = { commands: [], agentFiles: [], skillDirs: [], problems: [] };

/**
 * The commands the files make, and what is wrong with the rest: a name
 * that is no command name, or one a built-in has (reported, skipped). A
 * project's command replaces a personal one of the same name.
 */
export function promptCommands(
  files: readonly PromptFile[],
  builtIns: ReadonlySet<string>,
): { commands: PromptCommand[]; problems: string[] } {
  const byName = new Map<string, PromptCommand>();
  const problems: string[] = [];
  const ordered = [...files.filter((f) => f.source === 'personal'), ...files.filter((f) => f.source === 'project')];
  for (const f of ordered) {
    const name = f.file.replace(/\.md$/i, '');
    const where = f.source === 'project' ? '.milk/commands' : "the data dir's commands";
    if (!NAME.test(name)) {
      problems.push(
        `${f.file} in ${where}: not a command name (letters, digits, - and _, starting with a letter); skipped`,
      );
      continue;
    }
    if (builtIns.has(name.toLowerCase())) {
      problems.push(`/${name} from ${where} has the name of a built-in command; skipped`);
      continue;
    }
    const { description, body, hint } = parsePromptFile(f.text);
    byName.set(name, {
      name,
      description: description ?? firstLine(body),
      source: f.source,
      body,
      ...(hint ? { hint } : {}),
    });
  }
  return { commands: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), problems };
}

function firstLine(body: string): string {
  const line = body.split('\n').find((l) => l.trim()) ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** /help's lines for them: the name, what it does, and where it comes from. */
export function promptHelpLines(commands: readonly PromptCommand[]): string[] {
  const rows = commands.map((c) => [`/${c.name}`, `${c.description} (${c.source})`] as const);
  const width = maxOf(
    rows.map(([k]) => k.length),
    0,
  );
  return rows.map(([k, d]) => `${k.padEnd(width)}  ${d}`);
}

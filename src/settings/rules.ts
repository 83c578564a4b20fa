// Rules a person made from an approval question, kept per workspace: "always
// allow shell commands starting with `npm test`", or every call of one tool.
// A rule only turns a question into a run; it never lifts a refusal, and a
// command prefix covers a simple command only: one that chains, pipes,
// redirects or substitutes anything still asks, since `npm test; curl … | sh`
// starts with `npm test` too. Pure.

export interface Rule {
  tool: string;
  /** shell only: the command's first words; absent, every call of the tool. */
  prefix?: string;
}

/**
 * Anything that makes a command more than one simple command: separators, pipes, redirections, substitutions, groups, a
 * newline.
 */
const COMPOUND = /[;&|<>`$(){}\n\r\\]/;

/** Tools whose second word names what they do (`npm test`, `git status`): a rule keeps both words. */
const SUBCOMMANDS = new Set([
  'npm',
  'npx',
  'pnpm',
  'yarn',
  'bun',
  'git',
  'cargo',
  'go',
  'make',
  'docker',
  'kubectl',
  'pip',
  'pip3',
  'poetry',
  'uv',
  'dotnet',
  'gradle',
  'mvn',
  'bundle',
  'rake',
  'mix',
  'deno',
  'node',
  'python',
  'python3',
]);

function words(command: string): string[] {
  return command.trim().split(/\s+/).filter(Boolean);
}

export function sameRule(a: Rule, b: Rule): boolean {
  return a.tool === b.tool && (a.prefix ?? null) === (b.prefix ?? null);
}

/**
 * Whether `rule` lets this call run without a question; `command`: what the
 * tool's prefix rules are matched against (its `ruleText`), if it has any.
 */
export function ruleAllows(rule: Rule, tool: string, command: string | undefined): boolean {
  if (rule.tool !== tool) return false;
  if (rule.prefix === undefined) return true;
  if (command === undefined || COMPOUND.test(command)) return false;
  const have = words(command);
  const want = words(rule.prefix);
  return want.length > 0 && want.every((w, i) => have[i] === w);
}

/**
 * The rule an approval question offers for a call: for a command (a tool's
 * `ruleText`), its first word (and the second, for tools like npm and git,
 * unless it is an option); none for a command no prefix rule could ever
 * allow. Other tools: the tool.
 */
export function suggestRule(tool: string, command: string | undefined): Rule | null {
  if (command === undefined) return { tool };
  if (COMPOUND.test(command)) return null;
  const [first, second] = words(command);
  if (!first || first.includes('=')) return null;
  const two = SUBCOMMANDS.has(first) && second !== undefined && !second.startsWith('-');
  return { tool, prefix: two ? `${first} ${second}` : first };
}

/** A rule in words, for the question, /permissions and notes. */
export function describeRule(rule: Rule): string {
  return rule.prefix === undefined
    ? `every ${rule.tool} call`
    : `${rule.tool} commands starting with \`${rule.prefix}\``;
}

/** A rule from /permissions add: `shell npm test` (a command prefix) or a tool's name. */
export function parseRule(args: readonly string[]): Rule | null {
  const [tool, ...rest] = args;
  if (!tool) return null;
  if (tool !== 'shell') return rest.length === 0 ? { tool } : null;
  const prefix = rest.join(' ').trim();
  if (!prefix || COMPOUND.test(prefix)) return null;
  return { tool, prefix };
}

/** The rules of a stored file, each checked: what is not a rule is left out (and counted). */
export function validRules(value: unknown): { rules: Rule[]; bad: number } {
  const rules: Rule[] = [];
  let bad = 0;
  for (const item of Array.isArray(value) ? value : []) {
    const o = item as Record<string, unknown> | null;
    const ok =
      o !== null &&
      typeof o === 'object' &&
      typeof o.tool === 'string' &&
      o.tool !== '' &&
      (o.prefix === undefined || (typeof o.prefix === 'string' && o.prefix.trim() !== '' && !COMPOUND.test(o.prefix)));
    if (ok)
      rules.push(
        o.prefix === undefined ? { tool: o.tool as string } : { tool: o.tool as string, prefix: o.prefix as string },
      );
    else bad++;
  }
  return { rules, bad };
}

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
  'pnpm',
  'yarn',
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
]);

/**
 * Commands that run another command given as their arguments (`timeout 5 sh -c …`, `xargs rm`, `env X=1 cmd`): a
 * prefix of them would allow whatever follows, so no rule covers them.
 */
// prettier-ignore
export const WRAPPERS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'env', 'timeout', 'nice', 'nohup', 'xargs', 'sudo', 'doas', 'su',
  'exec', 'eval', 'command', 'builtin', 'time', 'stdbuf', 'ionice', 'chrt', 'taskset', 'setsid', 'unbuffer', 'watch',
  'strace', 'ltrace', 'flock', 'chroot', 'unshare', 'nsenter', 'script', 'parallel', 'busybox', 'bwrap', 'firejail',
  'npx', 'pnpx', 'bunx', 'uvx', 'pipx',
]);

/**
 * Interpreters: a rule must name what they run (`node scripts/build.js`, `python3 -m pytest`), and never covers code
 * given inline (`-c`, `-e`, `--eval`…).
 */
// prettier-ignore
const INTERPRETERS = new Set([
  'node', 'python', 'python3', 'perl', 'ruby', 'php', 'deno', 'bun', 'lua', 'awk', 'gawk', 'mawk', 'Rscript',
  'osascript', 'tclsh', 'pwsh', 'powershell',
]);
const INLINE_CODE = /^(-[ceEpr]|--eval|--print|--exec|--command|-[a-zA-Z]*[ce]$)/;

/**
 * Options by which a command that reads writes a file or runs another (`git log --output=FILE`, `find -delete`):
 * a rule for the command never covers a call that uses one.
 */
const WRITING_OPTIONS: Record<string, RegExp> = {
  git: /^(-c|--config-env|--exec-path|--output|--upload-pack|--receive-pack|--exec|--ext-diff|--open-files-in-pager)(=|$)|^-c./,
  find: /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/,
  sort: /^(-o|--output|--compress-program)(=|$)|^-o./,
  rg: /^(--pre|--pre-glob)(=|$)/,
  sed: /^(-i|--in-place)/,
  tee: /./,
  fd: /^(-x|-X|--exec|--exec-batch)(=|$)/,
};

/** Subcommands that run whatever follows them (`npm exec`, `uv run`, `bundle exec`). */
const WRAPPING_SUBCOMMANDS = /^((npm|pnpm|yarn|bun) (exec|x|dlx)|(uv|poetry|pipenv|hatch|pdm) run|bundle exec)$/;

/** Whether no rule may cover this simple command (a wrapper, inline code, a writing option). */
function uncoverable(have: readonly string[]): boolean {
  const [first, ...rest] = have;
  const name = first.split('/').pop() ?? first;
  if (WRAPPERS.has(name) || WRAPPING_SUBCOMMANDS.test(`${name} ${rest[0] ?? ''}`)) return true;
  // The interpreter's own options come before what it runs: code given inline there is not a script a rule names.
  if (INTERPRETERS.has(name)) {
    const own = rest.findIndex((w) => !w.startsWith('-'));
    if (rest.slice(0, own === -1 ? rest.length : own).some((w) => INLINE_CODE.test(w))) return true;
  }
  const writing = WRITING_OPTIONS[name];
  return writing !== undefined && rest.some((w) => writing.test(w));
}

/** For an interpreter, the words up to what it runs (a script, or `-m` and a module); null when there is none. */
function interpreterPrefix(have: readonly string[]): string | null {
  for (let i = 1; i < have.length; i++) {
    if (have[i] === '-m' && have[i + 1]) return have.slice(0, i + 2).join(' ');
    if (!have[i].startsWith('-')) return have.slice(0, i + 1).join(' ');
  }
  return null;
}

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
  if (have.length === 0 || uncoverable(have)) return false;
  // An interpreter's rule must name what it runs: `node` alone would allow any script.
  const first = have[0].split('/').pop() ?? have[0];
  if (INTERPRETERS.has(first) && want.length < 2) return false;
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
  const have = words(command);
  const [first, second] = have;
  if (!first || first.includes('=') || uncoverable(have)) return null;
  if (INTERPRETERS.has(first.split('/').pop() ?? first)) {
    const prefix = interpreterPrefix(have);
    return prefix === null ? null : { tool, prefix };
  }
  if (!SUBCOMMANDS.has(first)) return { tool, prefix: first };
  // `git -C dir push`: a prefix of `git` alone would cover every subcommand.
  if (second === undefined || second.startsWith('-')) return first === 'make' ? { tool, prefix: first } : null;
  // `npm run build`: the script, not every script.
  const third = have[2];
  if (second === 'run' && third !== undefined && !third.startsWith('-'))
    return { tool, prefix: `${first} run ${third}` };
  return { tool, prefix: `${first} ${second}` };
}

/** A rule in words, for the question, /permissions and notes. */
export function describeRule(rule: Rule): string {
  if (rule.prefix === undefined) return `every ${rule.tool} call`;
  // web_fetch's rules name a host (its rule text), matched whole.
  if (rule.tool === 'web_fetch') return `web_fetch of pages on ${rule.prefix}`;
  // web_search's name a service (its rule text): `provider` lets the model's server search inside its requests.
  if (rule.tool === 'web_search')
    return rule.prefix === 'provider' ? "the provider's own web search" : `web_search through ${rule.prefix}`;
  return `${rule.tool} commands starting with \`${rule.prefix}\``;
}

/** What a web_search rule may name: config `webSearch`'s services. */
const SEARCH_SERVICES = new Set(['searxng', 'brave', 'provider']);

/** A rule from /permissions add: `shell npm test` (a command prefix) or a tool's name. */
export function parseRule(args: readonly string[]): Rule | null {
  const [tool, ...rest] = args;
  if (!tool) return null;
  if (tool === 'web_search' && rest.length === 1 && SEARCH_SERVICES.has(rest[0])) return { tool, prefix: rest[0] };
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

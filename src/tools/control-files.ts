// The workspace's control files: what milk runs or reads as configuration from the workspace, which the agent never
// changes without the person's yes, in any mode. They are `.git`'s (git-control.ts), everything under `.milk/` (the
// project's settings, agents, commands, skills, plugins) and `.agents/skills/`, and each workspace file a hook or an
// MCP server's command names. The file tools ask for a change to one in every mode; the sandbox binds them read-only
// (sandbox-places.ts). Pure: the words of a command, which of them name files, and why a path is one.

import { gitControlReason } from './git-control';

const EXPANDED = '\0';

/** Shells whose `-c` script is itself a command whose words may name files. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);

/**
 * The literal words of a shell command (a hook's), in order: a word with an expansion in it (`$HOME/x`, `$(…)`) or a
 * glob is left out (what it names is not known before it runs), and so is a redirection's target (written, not run);
 * a shell's `-c` script is read for its own words.
 */
export function commandWords(command: string, depth = 0): string[] {
  let tokens: ReturnType<typeof import('shell-quote').parse>;
  try {
    // An expansion becomes a NUL, which no real word holds: its word is left out whole.
    // Loaded at the first command read (a tool call, a trust question), never at start-up.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parse } = require('shell-quote') as typeof import('shell-quote');
    tokens = parse(command, () => EXPANDED);
  } catch {
    return [];
  }
  const words: string[] = [];
  let redirect = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (typeof t !== 'string') {
      redirect = 'op' in t && /^[<>]/.test(t.op);
      continue;
    }
    if (redirect || t.includes(EXPANDED)) {
      redirect = false;
      continue;
    }
    words.push(t);
    const next = tokens[i + 1];
    const base = t.slice(t.lastIndexOf('/') + 1);
    if (SHELLS.has(base) && next === '-c' && typeof tokens[i + 2] === 'string' && depth < 3) {
      words.push('-c');
      for (const w of commandWords(tokens[i + 2] as string, depth + 1)) words.push(w);
      i += 2;
    }
  }
  return words;
}

/**
 * The words of commands that could name a file in the workspace: every word but options (`-x`, `--flag`) and
 * assignments (`FOO=1`); which of them are files is for the caller to find out (real paths, in the workspace).
 */
export function fileWords(words: readonly string[]): string[] {
  return words.filter((w) => w !== '' && !w.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
}

/** `.milk/` at the workspace's root and everything in it. */
const MILK = /^\.milk(\/|$)/;
/** The workspace's Agent Skills folder (`.agents/skills/`, read as a project's skills: agent/skill-files.ts). */
const SKILLS = /^\.agents\/skills(\/|$)/;

/**
 * Why a change to `rel` (a real path relative to the workspace, `/`-separated) is always put to the person; null if
 * it is not a control file. `named`: the workspace files hooks and MCP servers name, relative the same way.
 */
export function controlReason(rel: string, named: ReadonlySet<string>): string | null {
  const git = gitControlReason(rel);
  if (git) return git;
  if (MILK.test(rel))
    return (
      `${rel} is in .milk/, this workspace's settings, agents and commands for milk: a change to it is asked about ` +
      'in every mode'
    );
  if (SKILLS.test(rel))
    return (
      `${rel} is in .agents/skills/, this workspace's Agent Skills, whose instructions and scripts milk offers the ` +
      'model: a change to it is asked about in every mode'
    );
  if (named.has(rel))
    return (
      `${rel} is run by milk itself (a hook or an MCP server's command names it): a change to it is asked about in ` +
      'every mode'
    );
  return null;
}

/** Package managers whose subcommands run the project's own scripts (package.json's, a build script). */
const RUNS_SCRIPTS: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: new Set(['run', 'run-script', 'test', 't', 'start', 'restart', 'stop', 'exec', 'install', 'i', 'ci', 'rebuild']),
  pnpm: new Set(['run', 'test', 'start', 'exec', 'install', 'i', 'dlx']),
  yarn: new Set(['run', 'test', 'start', 'exec', 'install', 'dlx']),
  bun: new Set(['run', 'test', 'x', 'install']),
  cargo: new Set(['run', 'test', 'build', 'bench', 'check']),
  go: new Set(['run', 'test', 'generate']),
  uv: new Set(['run']),
  poetry: new Set(['run']),
};
/** Programs that run the project's code whatever their arguments (its Makefile, its build files, a package). */
const ALWAYS = new Set(['npx', 'pnpx', 'bunx', 'make', 'gmake', 'just', 'rake', 'gradlew', 'mvnw', 'gradle', 'mvn']);
/** Interpreters: a script among their words is the workspace's code (`python -m pkg` too). */
const INTERPRETERS = /^(node|deno|bun|tsx|ts-node|python[0-9.]*|ruby|perl|php|bash|sh|dash|zsh)$/;

/**
 * Whether a command runs code from the workspace indirectly — code the agent can edit, where milk's guard of the files
 * a command names does not reach: `npm run`, `npx`, `make`, `just`, `./gradlew`, `cargo run`, `python -m`, an
 * interpreter given a script. `words`: the command's (commandWords), or a program's argv.
 */
export function runsWorkspaceCode(words: readonly string[]): boolean {
  // After assignments (`FOO=1 make`) and the wrappers that run what follows.
  const rest = words.filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  while (rest.length > 1 && ['env', 'exec', 'command', 'nice', 'nohup', 'time'].includes(rest[0])) rest.shift();
  const [first, ...args] = rest;
  if (!first) return false;
  const name = first.slice(first.lastIndexOf('/') + 1);
  if (ALWAYS.has(name)) return true;
  const sub = args.find((a) => !a.startsWith('-'));
  if (sub !== undefined && RUNS_SCRIPTS[name]?.has(sub)) return true;
  if (!INTERPRETERS.test(name)) return false;
  if (args.includes('-m')) return true;
  // `bash -c '…'`: its script's own words were read into `words` after the -c.
  const c = args.indexOf('-c');
  if (c >= 0) return runsWorkspaceCode(args.slice(c + 1));
  return args.some((a) => !a.startsWith('-') && !a.startsWith('/'));
}

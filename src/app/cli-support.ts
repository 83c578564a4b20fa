// What the command line's parts share: usage errors, the flag parsers, and
// where a run's data lives (data dir, workspace, session). No commands here.

import { EFFORTS, type Effort } from '../settings/effort';
import { APPROVAL_MODES } from '../settings/approval';
import { ApprovalMode } from '../protocol/approvals';
import { PROVIDER_NAMES } from '../providers/kinds';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkSessionName, checkWorktreeName, pickHome, resolveDataDir, sessionIdForWorkspace } from '../config/paths';
import { checkFlagValue } from '../config/config';
import { type FieldFlags, fieldFlags } from '../config/fields';

export class UsageError extends Error {}

export const NO_HOME =
  'no home directory (HOME is empty or relative, and the account has none); set MILK_HOME or --data-dir';

function passwdHome(): string | null {
  try {
    return os.userInfo().homedir;
  } catch {
    return null;
  }
}

/**
 * Where this run's data lives and which session it is: the flags, else the
 * environment and the directory. The data dir is null when there is no home
 * to put it in: never a `.milk` in the workspace.
 */
export function locate(opts: MainOptions): { dataDir: string | null; workspace: string; sessionId: string } {
  const workspace = fs.realpathSync(process.cwd());
  return {
    dataDir: resolveDataDir(opts.dataDir, process.env, pickHome(process.env.HOME, passwdHome)),
    workspace,
    sessionId: opts.session ?? sessionIdForWorkspace(workspace),
  };
}

/** The data dir, for commands that cannot do without one. */
export function requireDataDir(dataDir: string | null): string {
  if (dataDir === null) throw new UsageError(NO_HOME);
  return dataDir;
}

/**
 * A flag's value that cannot be taken. Commander's own error, loaded only when
 * one is thrown: the start of an interactive milk never loads commander.
 */
function invalid(message: string): Error {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { InvalidArgumentError } = require('commander') as typeof import('commander');
  return new InvalidArgumentError(message);
}

export function parseSession(value: string): string {
  const problem = checkSessionName(value);
  if (problem) throw invalid(problem + '.');
  return value;
}

export function parseWorktree(value: string): string {
  const problem = checkWorktreeName(value);
  if (problem) throw invalid(`${problem}.`);
  return value;
}

export function parseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw invalid('expected an http:// or https:// URL.');
  }
  return value;
}

export function parsePositive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw invalid('expected a whole number from 1.');
  return n;
}

export function parseNonEmpty(value: string): string {
  if (!value.trim()) throw invalid('must not be empty.');
  return value;
}

/**
 * The flags of an interactive milk, as data: buildProgram makes commander's
 * options of them (help, errors), and quickParse reads an argv made only of
 * them without loading commander at all.
 */
export interface FlagSpec {
  readonly flags: string;
  readonly key: keyof MainOptions;
  readonly description: string;
  readonly parse?: (value: string) => unknown;
  readonly choices?: readonly string[];
  /** It may be given more than once: its values in a list. */
  readonly repeats?: boolean;
}

const OWN_FLAGS: readonly FlagSpec[] = [
  {
    flags: '--data-dir <dir>',
    key: 'dataDir',
    description: 'where milk keeps history and sessions (default: $MILK_HOME or ~/.milk)',
    parse: parseNonEmpty,
  },
  {
    flags: '--session <name>',
    key: 'session',
    description: 'use a named session instead of one derived from the directory',
    parse: parseSession,
  },
  {
    flags: '--provider <name>',
    key: 'provider',
    description: 'the model provider (default: config, environment, else offline)',
    choices: PROVIDER_NAMES,
  },
  { flags: '-m, --model <name>', key: 'model', description: 'the model to ask', parse: parseNonEmpty },
  {
    flags: '--effort <level>',
    key: 'effort',
    description: "reasoning effort to ask for: minimal, low, medium or high (default: the model's own)",
    choices: EFFORTS,
  },
  { flags: '--base-url <url>', key: 'baseUrl', description: 'the provider endpoint', parse: parseUrl },
  {
    flags: '--script <file>',
    key: 'script',
    description: 'replay a JSON script of deltas, delays and errors (the script provider)',
    parse: parseNonEmpty,
  },
  {
    flags: '--approval <mode>',
    key: 'approval',
    description: 'what tool calls may do unasked: read-only, ask (default), plan, auto-edit or full-auto',
    choices: APPROVAL_MODES,
  },
  {
    flags: '--sandbox <on|off>',
    key: 'sandbox',
    description:
      'run commands in bubblewrap: the workspace writable, the rest read-only, no network unless allowed (default: on)',
    choices: ['on', 'off'],
  },
  {
    flags: '--append-system-prompt <text>',
    key: 'appendSystemPrompt',
    description: 'text added to the end of the system prompt (after appendSystemPrompt in config.json)',
    parse: parseNonEmpty,
  },
  { flags: '-c, --continue', key: 'continue', description: "resume the session's last conversation" },
  { flags: '-r, --resume [id]', key: 'resume', description: 'resume a conversation: pick one, or give its id' },
  {
    flags: '--add-dir <dir>',
    key: 'addDir',
    description:
      'a directory the file tools and @ may read and edit besides the workspace, writable in the sandbox ' +
      '(again for more)',
    parse: parseNonEmpty,
    repeats: true,
  },
  {
    flags: '--fork',
    key: 'fork',
    description: 'with --continue or --resume: go on in a copy of the conversation, leaving it as it was',
  },
  { flags: '--vi', key: 'vi', description: "the composer in vi mode (readline's set -o vi; config editingMode)" },
  {
    flags: '--worktree <name>',
    key: 'worktree',
    description:
      'start in a git worktree of this repository (made under the data dir on branch milk/NAME, or taken again); ' +
      "its history and trust are the repository's",
    parse: parseWorktree,
  },
];

/** milk's own flags, then those that set a config key for one run (config/fields.ts), checked by its rule. */
export const MAIN_FLAGS: readonly FlagSpec[] = [
  ...OWN_FLAGS,
  ...fieldFlags().map(({ key, option, flags, description, number }) => ({
    flags,
    key: option as keyof MainOptions,
    description,
    parse: (value: string) => {
      try {
        return checkFlagValue(key, value, number);
      } catch (err) {
        throw invalid(`${(err as Error).message}.`);
      }
    },
  })),
];

/** Commander's own two flags, as main.ts declares them. */
export const VERSION_FLAG = { flags: '-V, --version', description: 'print the version' } as const;
export const HELP_FLAG = { flags: '-h, --help', description: 'show this help' } as const;

/** The flags as a Markdown table, for docs/configuration.md (scripts/docs-tables.js; a unit test keeps it current). */
export function flagTableMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = ['| flag | meaning |', '| --- | --- |'];
  for (const f of [...MAIN_FLAGS, VERSION_FLAG, HELP_FLAG]) {
    const spec = f as FlagSpec;
    // Choices the description or the flag already names are not said twice.
    const named = (c: string) => new RegExp(`(^|[\\s,:<|(])${c}([\\s,;>|)]|$)`).test(`${f.flags} ${f.description}`);
    const choices =
      spec.choices && spec.choices.some((c) => !named(c))
        ? `; one of ${spec.choices.map((c) => `\`${c}\``).join(', ')}`
        : '';
    rows.push(`| \`${cell(f.flags)}\` | ${cell(f.description + choices)} |`);
  }
  return rows.join('\n');
}

/**
 * The options of an argv made only of MAIN_FLAGS in their plainest form (`--model m`, `-c`), every value
 * valid; null for anything else (a subcommand, --help, `--x=y`, `-r`, a bad value), which commander reads
 * and reports as it always has. Commander costs about a tenth of an interactive start to load.
 */
export function quickParse(args: readonly string[]): MainOptions | null {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const spec = MAIN_FLAGS.find((f) =>
      f.flags.split(/[ ,]+/).some((name) => name.startsWith('-') && name === args[i]),
    );
    if (!spec || spec.key === 'resume') return null;
    if (!spec.flags.includes('<')) {
      out[spec.key] = true;
      continue;
    }
    const value = args[++i];
    if (value === undefined || value.startsWith('-')) return null;
    if (spec.choices && !spec.choices.includes(value)) return null;
    let parsed: unknown;
    try {
      parsed = spec.parse ? spec.parse(value) : value;
    } catch {
      return null;
    }
    const had = out[spec.key];
    out[spec.key] = spec.repeats ? [...(Array.isArray(had) ? had : []), parsed] : parsed;
  }
  return out as MainOptions;
}

export interface MainOptions extends FieldFlags {
  dataDir?: string;
  session?: string;
  provider?: string;
  model?: string;
  effort?: Effort;
  baseUrl?: string;
  script?: string;
  continue?: boolean;
  resume?: string | boolean;
  fork?: boolean;
  /** --vi: the composer in vi mode (config `editingMode`'s "vi" for one run). */
  vi?: boolean;
  /** --worktree NAME: milk starts in that worktree of the repository (app/worktrees.ts). */
  worktree?: string;
  addDir?: string[];
  approval?: ApprovalMode;
  sandbox?: 'on' | 'off';
  appendSystemPrompt?: string;
}

/**
 * --add-dir's directories as real, absolute paths (relative ones from `cwd`, `~/` for the home folder); a usage error
 * names one that is no directory.
 */
export function resolveDirs(dirs: readonly string[] | undefined, cwd: string): string[] {
  return (dirs ?? []).map((d) => {
    const given = d === '~' || d.startsWith('~/') ? path.join(os.homedir(), d.slice(1)) : d;
    let real: string;
    try {
      real = fs.realpathSync(path.resolve(cwd, given));
    } catch {
      throw new UsageError(`--add-dir ${d}: no such directory`);
    }
    if (!fs.statSync(real).isDirectory()) throw new UsageError(`--add-dir ${d}: not a directory`);
    return real;
  });
}

/** --fork makes sense only with a conversation to copy. */

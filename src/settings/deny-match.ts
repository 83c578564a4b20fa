// What a deny rule (settings/deny.ts) stops. Where an allow rule matches
// narrowly (a simple command that starts with its words), a deny rule matches
// widely: wherever a command could start in what the shell runs — after `;`,
// `&&`, a pipe, `$(`, a quote (`sh -c "rm …"`), a wrapper (`sudo`, `env`,
// `xargs`, `timeout 5`, `find -exec`) — with quotes and backslashes taken away
// as the shell would (`r''m`, `\rm`) and the command's folder dropped
// (`/bin/rm`). A command whose name is computed (`$cmd`) cannot be checked, so
// a command rule denies it. Paths match the glob or lie in a folder that does.
// Pure.

import { globMatcher } from '../kernel/glob-match';
import type { DenyRule } from './deny';
import { WRAPPERS } from './rules';

/**
 * What a call is judged by: its tool, the text its rules are matched against (its `ruleText`: shell's command,
 * web_fetch's host), the workspace paths it names.
 */
export interface DeniedCall {
  readonly tool: string;
  readonly text?: string;
  /** Relative to the workspace, `/`-separated. */
  readonly paths?: readonly string[];
  /** A command as a shell parser read it (tools/shell-parse.ts): given when a command deny rule is in force. */
  readonly shell?: ShellReading;
}

/** A word of a command: its text once the shell has taken quotes and escapes away, or null when computed as it runs. */
export type ShellWord = string | null;

/** Every simple command a command runs (nested ones too), or why it cannot be read as shell. */
export type ShellReading = { readonly commands: ReadonlyArray<readonly ShellWord[]> } | { readonly unreadable: string };

/** Options after which find and its kin run a command. */
const EXEC_OPTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir', '-x', '-X', '--exec', '--exec-batch']);
const SEPARATORS = /\$\(|[;&|()`\n\r{}<>]/;

/** The first rule of `deny` that stops this call, or null. */
export function denyingRule(deny: readonly DenyRule[], call: DeniedCall): DenyRule | null {
  return deny.find((rule) => denies(rule, call)) ?? null;
}

function denies(rule: DenyRule, call: DeniedCall): boolean {
  if ('path' in rule) return (call.paths ?? []).some((p) => pathDenied(rule.path, p));
  if (rule.tool !== call.tool) return false;
  if ('domain' in rule) return call.text !== undefined && hostDenied(rule.domain, call.text);
  if (rule.prefix === undefined) return true;
  // Read by the parser where it was (a command rule is in force): the textual match below is its fallback.
  if (call.shell !== undefined) return readDenied(rule.prefix, call.shell) !== null;
  return call.text !== undefined && commandDenied(rule.prefix, call.text);
}

/** Why `rule` stops `call` where its words alone do not say: a name that cannot be known, a command not read. */
export function denialDetail(rule: DenyRule, call: DeniedCall): string | null {
  if (!('prefix' in rule) || rule.prefix === undefined || call.shell === undefined) return null;
  const v = readDenied(rule.prefix, call.shell);
  if (v === 'unknowable') return "the command's name cannot be known before it runs";
  if (v !== null && v !== 'match') return `it cannot be read as shell (${v.unreadable}), so no rule can be checked`;
  return null;
}

/**
 * How a parsed command meets a command rule: 'match', 'unknowable' (a command whose name is computed, globbed, or
 * run from a script that is not literal: a deny rule stops it), the reason it could not be read, or null.
 */
function readDenied(prefix: string, reading: ShellReading): 'match' | 'unknowable' | { unreadable: string } | null {
  if ('unreadable' in reading) return reading;
  const want = words(prefix);
  if (want.length === 0) return null;
  let unknowable = false;
  for (const command of reading.commands) {
    const { starts: at, unknown } = shellStarts(command);
    if (at.some((s) => s[0] !== null && matchAt(s as string[], want))) return 'match';
    unknowable ||= unknown;
  }
  return unknowable ? 'unknowable' : null;
}

/**
 * Where a command may start in a parsed simple command: its name (after assignments), and every word after a
 * wrapper (`sudo`, `env`, `xargs`, `sh -c`, `find -exec`); `unknown` when the name, or the first word a wrapper could
 * run, is computed.
 */
function shellStarts(command: readonly ShellWord[]): { starts: Array<readonly ShellWord[]>; unknown: boolean } {
  const starts: Array<readonly ShellWord[]> = [];
  let i = 0;
  while (i < command.length && command[i] !== null && /^[A-Za-z_][A-Za-z0-9_]*=/.test(command[i] as string)) i++;
  if (i >= command.length) return { starts, unknown: false };
  let unknown = command[i] === null;
  starts.push(command.slice(i));
  let wrapped = false;
  let first = false;
  for (let j = i; j < command.length; j++) {
    const w = command[j];
    if (wrapped) {
      starts.push(command.slice(j));
      // The first word a wrapper may run: its options and their numbers, and env's assignments, come before it.
      if (first && (w === null || !/^(-|\d+$|[A-Za-z_][A-Za-z0-9_]*=)/.test(w))) {
        unknown ||= w === null;
        first = false;
      }
    }
    if (w !== null && (WRAPPERS.has(commandName(w)) || EXEC_OPTIONS.has(w))) wrapped = first = true;
  }
  return { starts, unknown };
}

/** `host` is `domain` or one of its subdomains, both in canonical form (canonicalHost: 0x7f000001 is 127.0.0.1). */
export function hostDenied(domain: string, host: string): boolean {
  const d = canonicalHost(domain);
  const h = canonicalHost(host);
  return h === d || h.endsWith(`.${d}`);
}

/**
 * A host as rules and answers compare it: as a URL writes it (an IPv4 address however spelled as 127.0.0.1, IPv6
 * compressed), lower case, without IPv6's brackets or a trailing dot; as it is, so cleaned, when it is no host.
 */
export function canonicalHost(host: string): string {
  const bare = host.trim().replace(/^\[|\]$/g, '');
  let written = bare;
  try {
    written = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname;
  } catch {
    // not a host a URL can hold: compared as it is
  }
  return written
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

/** A workspace path (relative) matches `glob`, or lies in a folder that does. */
export function pathDenied(glob: string, rel: string): boolean {
  const match = globMatcher(glob.replace(/\/+$/, ''));
  const parts = rel
    .replace(/^\.\/+/, '')
    .split('/')
    .filter(Boolean);
  for (let i = parts.length; i > 0; i--) if (match(parts.slice(0, i).join('/'))) return true;
  return false;
}

/** Whether `command` runs something starting with the words of `prefix` anywhere the shell could start one. */
export function commandDenied(prefix: string, command: string): boolean {
  const want = words(prefix);
  if (want.length === 0) return false;
  // Quotes as separators (the text of `sh -c "…"` is a command) and quotes taken away (`r''m` is rm).
  const views = [command.replace(/["']/g, ' ; '), command.replace(/\\(.)/gs, '$1').replace(/["']/g, '')];
  return views.some((view) =>
    view.split(SEPARATORS).some((segment) => starts(words(segment)).some((at) => matchAt(at, want))),
  );
}

/** Where in a simple command's words a command may start: its first word after assignments, and after a wrapper. */
function starts(have: readonly string[]): Array<readonly string[]> {
  const out: Array<readonly string[]> = [];
  let i = 0;
  while (i < have.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(have[i])) i++;
  if (i >= have.length) return out;
  out.push(have.slice(i));
  let wrapped = false;
  for (let j = i; j < have.length; j++) {
    if (wrapped) out.push(have.slice(j));
    else if (WRAPPERS.has(commandName(have[j])) || EXEC_OPTIONS.has(have[j]) || have[j] === 'eval') wrapped = true;
  }
  return out;
}

function matchAt(at: readonly string[], want: readonly string[]): boolean {
  const name = commandName(at[0]);
  // A command computed when it runs (`$cmd`, `${x}`): nothing can tell what it is.
  if (name.startsWith('$')) return true;
  if (name !== commandName(want[0])) return false;
  return want.slice(1).every((w, k) => at[k + 1] === w);
}

/** A command word as the shell finds it: escapes away, its folder dropped. */
function commandName(word: string): string {
  const bare = word.replace(/\\/g, '');
  return bare.split('/').pop() ?? bare;
}

function words(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean);
}

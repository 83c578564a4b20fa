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
}

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
  return call.text !== undefined && commandDenied(rule.prefix, call.text);
}

/** `host` is `domain` or one of its subdomains (case aside, a trailing dot aside). */
export function hostDenied(domain: string, host: string): boolean {
  const d = domain.toLowerCase().replace(/\.$/, '');
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === d || h.endsWith(`.${d}`);
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

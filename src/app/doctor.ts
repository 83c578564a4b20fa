// `milk doctor` and /doctor: what milk found on this machine and what it does
// without each part — the sandbox, ripgrep, git, a clipboard tool, the
// terminal (inside milk, as it answered), the config file, the provider — one
// line each with the fix. Finding out is I/O (doctorChecks); the lines are
// made by a pure function (doctorLines).

import { PROVIDERS, PROVIDER_NAMES, isProviderName } from '../providers/kinds';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactUrl } from '../kernel/redact';
import { maxOf } from '../kernel/arrays';

export interface Check {
  readonly name: string;
  /** ok: works; warn: milk does without it; fail: something a person should fix. */
  readonly state: 'ok' | 'warn' | 'fail';
  readonly says: string;
  readonly fix?: string;
}

/** What the terminal answered milk, known only inside it (/doctor). */
export interface TerminalFacts {
  /** kitty's protocol, xterm's modifyOtherKeys, or neither (Shift+Enter is then Enter). */
  readonly keyboard: string;
  /** Its answer about synchronized output (DEC 2026). */
  readonly sync: 'known' | 'unknown' | 'not answered';
}

export interface DoctorInput {
  readonly env: NodeJS.ProcessEnv;
  readonly configFile: string | null;
  /** Whether the config file is there (none yet: milk runs on its defaults). */
  readonly configExists: boolean;
  readonly configProblems: readonly string[];
  readonly provider: { readonly name: string; readonly model: string; readonly baseUrl: string; readonly key?: string };
  readonly terminal: TerminalFacts | null;
  readonly sandbox: () => Promise<{ ok: true } | { ok: false; why: string }>;
}

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

/** One line per check: its mark, its name, what was found and, where there is one, the fix. */
export function doctorLines(checks: readonly Check[]): string[] {
  const width = maxOf(
    checks.map((c) => c.name.length),
    0,
  );
  return checks.map((c) => `${MARK[c.state]} ${c.name.padEnd(width)}  ${c.says}${c.fix ? ` — ${c.fix}` : ''}`);
}

/** The first line a program prints for --version; null when it is not on PATH or fails. */
function versionOf(bin: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(bin, ['--version'], { env, timeout: 3000 }, (err, stdout) =>
      resolve(err ? null : (stdout.split('\n')[0]?.trim() ?? '')),
    );
  });
}

function onPath(bin: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, bin), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

async function sandboxCheck(d: DoctorInput): Promise<Check> {
  const version = await versionOf('bwrap', d.env);
  if (version === null)
    return {
      name: 'sandbox',
      state: 'warn',
      says: 'bwrap not found: every command asks before it runs with your full rights',
      fix: 'install bubblewrap (Debian, Ubuntu: apt-get install bubblewrap)',
    };
  const probe = await d.sandbox();
  return probe.ok
    ? { name: 'sandbox', state: 'ok', says: `${version} confines commands: the workspace writable, no network` }
    : {
        name: 'sandbox',
        state: 'warn',
        says: `${version} is there but cannot confine here (${probe.why}): commands ask before running unconfined`,
        fix: 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1), or --sandbox off',
      };
}

async function toolChecks(env: NodeJS.ProcessEnv): Promise<Check[]> {
  const [rg, git] = await Promise.all([versionOf('rg', env), versionOf('git', env)]);
  const clipboard = ['wl-paste', 'xclip', 'xsel', 'pbpaste', 'powershell.exe'].find((b) => onPath(b, env));
  return [
    rg
      ? { name: 'ripgrep', state: 'ok', says: `${rg}: glob and grep use it` }
      : {
          name: 'ripgrep',
          state: 'warn',
          says: "not found: glob and grep use milk's own search (the same answers, slower on large trees)",
          fix: 'install ripgrep (apt-get install ripgrep)',
        },
    git
      ? { name: 'git', state: 'ok', says: `${git}: the branch in the system prompt, .gitignore honoured` }
      : { name: 'git', state: 'warn', says: 'not found: the model is told no branch', fix: 'install git' },
    clipboard
      ? { name: 'clipboard', state: 'ok', says: `${clipboard} found (/copy writes through OSC 52 as well)` }
      : {
          name: 'clipboard',
          state: 'warn',
          says: 'no clipboard tool: /copy writes through OSC 52 and to a file in the data dir',
          fix: 'wl-clipboard (Wayland) or xclip (X11)',
        },
  ];
}

const SYNC_SAID = {
  known: 'the terminal knows it (frames appear whole)',
  unknown: 'the terminal does not know it (frames may tear while an answer streams)',
  'not answered': 'not answered (frames are sent in it anyway; terminals without it ignore it)',
} as const;

function terminalCheck(t: TerminalFacts | null): Check {
  if (!t)
    return {
      name: 'terminal',
      state: 'ok',
      says: 'the keyboard protocol, OSC 52 and synchronized output are known only inside milk: /doctor there',
    };
  const keys =
    t.keyboard === 'kitty'
      ? "kitty's keyboard protocol (Shift+Enter is a newline)"
      : t.keyboard === 'modifyOtherKeys'
        ? "xterm's modifyOtherKeys (Shift+Enter is a newline where the terminal sends it)"
        : 'neither keyboard protocol answered (Shift+Enter is Enter: Alt+Enter or Ctrl+J for a newline)';
  return {
    name: 'terminal',
    state: t.keyboard === 'kitty' || t.keyboard === 'modifyOtherKeys' ? 'ok' : 'warn',
    says:
      `${keys}; synchronized output (DEC 2026): ${SYNC_SAID[t.sync]}; /copy through OSC 52, which no terminal ` +
      'confirms without handing over the clipboard (under tmux: set -g set-clipboard on)',
  };
}

function configCheck(d: DoctorInput): Check {
  if (d.configFile === null) return { name: 'config', state: 'warn', says: 'no data dir: nothing is kept' };
  if (!d.configExists) return { name: 'config', state: 'ok', says: `${d.configFile}: none yet: the defaults` };
  if (d.configProblems.length === 0) return { name: 'config', state: 'ok', says: `${d.configFile}: valid` };
  return {
    name: 'config',
    state: 'fail',
    says: `${d.configFile}: ${d.configProblems.join('; ')}`,
    fix: 'the rest of it is used; correct these keys (docs/configuration.md)',
  };
}

/** Whether the provider's server answers: its model list asked for, three seconds at most. */
async function providerCheck(p: DoctorInput['provider']): Promise<Check> {
  const kind = isProviderName(p.name) ? PROVIDERS[p.name] : undefined;
  if (!kind?.http) {
    const keys = PROVIDER_NAMES.map((n) => PROVIDERS[n].http?.keyVar).filter((v) => v !== undefined);
    const vars = [...new Set(keys)].join(' / ');
    return {
      name: 'provider',
      state: kind ? 'warn' : 'fail',
      says: kind?.unchecked ?? `"${p.name}" is not a provider milk knows (${PROVIDER_NAMES.join(', ')})`,
      fix: `/provider in milk connects one step by step; or --provider openai --base-url URL --model NAME, or ${vars}`,
    };
  }
  const where = `${p.name} at ${redactUrl(p.baseUrl)}`;
  const url = `${p.baseUrl.replace(/\/+$/, '')}${kind.http.modelsPath}`;
  const headers = kind.http.headers(p.key);
  const answer = await statusOf(url, headers);
  if (typeof answer === 'string')
    return {
      name: 'provider',
      state: 'fail',
      says: `${where} cannot be reached (${answer})`,
      fix: "is the server running, and the URL right? (milk's own requests honour HTTPS_PROXY; this check does not)",
    };
  if (answer === 401 || answer === 403)
    return { name: 'provider', state: 'fail', says: `${where} refuses the key (HTTP ${answer})`, fix: 'check the key' };
  return { name: 'provider', state: 'ok', says: `${where} answers (HTTP ${answer}); model ${p.model}` };
}

/** The HTTP status a GET of `url` gets, or why none came (an error code, a timeout). */
function statusOf(url: string, headers: Record<string, string>): Promise<number | string> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve('not a URL');
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const client = require(target.protocol === 'https:' ? 'node:https' : 'node:http') as typeof import('node:http');
    const req = client.get(target, { headers, timeout: 3000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'no answer in 3 s' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

export async function doctorChecks(d: DoctorInput): Promise<Check[]> {
  const [sandbox, tools, provider] = await Promise.all([sandboxCheck(d), toolChecks(d.env), providerCheck(d.provider)]);
  return [sandbox, ...tools, terminalCheck(d.terminal), configCheck(d), provider];
}

// Whether a hook or an MCP server that runs a workspace file may run it as it is now: each file it names is compared
// with the SHA-256 the person trusted (config/trust.ts, kept in the data dir, never the workspace). A file changed
// since, or never trusted, runs only after the person says yes to it seeing the diff (the full screen asks; milk run,
// with no one to ask, does not run it and says why). With `--sandbox off` this is what keeps the agent's edit of a
// hook's script from running with milk's rights: the sandbox's read-only binds are the first wall, this the second.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { TrustStore } from '../config/trust';
import { dataLayout } from '../kernel/data-dir';
import { ensureDir, writeAtomic } from '../io/files';
import { showControls } from '../tools/visible';
import { type RunCommand, namedFiles } from './control-files';

/** A file larger than this is compared by its hash alone: no copy is kept, and no diff shown. */
const MAX_COPY_BYTES = 256 * 1024;
/** Lines of a diff shown in the question, at most. */
const MAX_DIFF_LINES = 60;

/** Asks the person a yes/no question (the full screen's own question view); true: yes. */
export type Ask = (intro: string, question: string) => Promise<boolean>;

export interface Vouching {
  /** Whom to ask; null: no one (milk run), and a changed file is not run. */
  ask: Ask | null;
  /** Null: it may run; else why it does not. `what`: the hook or server, as milk names it. */
  check(command: RunCommand, what: string): Promise<string | null>;
  /** Trusts every file these commands name, as they are now (the person trusted the workspace's settings). */
  trustAll(commands: readonly RunCommand[]): Promise<void>;
}

interface Seen {
  rel: string;
  sha: string;
  bytes: Buffer;
}

export function vouching(workspace: string, dataDir: string | null, warn: (text: string) => void): Vouching {
  const store = new TrustStore(dataDir);
  // Trusted or refused this session (a store that cannot be written still holds for the session).
  const said = new Map<string, boolean>();
  let queue: Promise<unknown> = Promise.resolve();
  const v: Vouching = {
    ask: null,
    check: (command, what) => {
      // One question at a time: hooks fire together, and each must see the others' answers.
      const next = queue.then(() => judge(command, what));
      queue = next.catch(() => undefined);
      return next;
    },
    trustAll: async (commands) => keep(await seen(workspace, commands)),
  };
  const keep = (files: readonly Seen[]): void => {
    for (const f of files) said.set(`${f.rel}\0${f.sha}`, true);
    const failed = store.trustFiles(workspace, Object.fromEntries(files.map((f) => [f.rel, f.sha])));
    if (failed) warn(failed);
    if (dataDir) for (const f of files) keepCopy(dataDir, f);
  };
  const judge = async (command: RunCommand, what: string): Promise<string | null> => {
    const trusted = store.files(workspace);
    const files = await seen(workspace, [command]);
    const open = files.filter((f) => trusted[f.rel] !== f.sha && said.get(`${f.rel}\0${f.sha}`) !== true);
    if (open.length === 0) return null;
    const names = open.map((f) => f.rel).join(', ');
    const why = `${names} changed since you trusted it, or was never trusted; not run`;
    if (open.some((f) => said.get(`${f.rel}\0${f.sha}`) === false)) return `${why} (you said no)`;
    if (!v.ask) return `${why} (milk trust, or a yes in the full screen, trusts it)`;
    const intro = open.map((f) => change(dataDir, f, trusted[f.rel])).join('\n');
    const yes = await v.ask(`${what} runs a workspace file:\n${intro}`, `Run ${what} with ${names} as it is now?`);
    if (yes) keep(open);
    else for (const f of open) said.set(`${f.rel}\0${f.sha}`, false);
    return yes ? null : `${why} (you said no)`;
  };
  return v;
}

/** The files the commands name, as they are now. */
async function seen(workspace: string, commands: readonly RunCommand[]): Promise<Seen[]> {
  const root = await fs.promises.realpath(workspace);
  const files = await namedFiles(workspace, commands);
  const out: Seen[] = [];
  for (const file of files) {
    try {
      const bytes = await fs.promises.readFile(file);
      const sha = hash().createHash('sha256').update(bytes).digest('hex');
      out.push({ rel: path.relative(root, file).split(path.sep).join('/'), sha, bytes });
    } catch {
      // Gone meanwhile: the command fails as it would have.
    }
  }
  return out;
}

// node:crypto, loaded at the first check: start-up never pays for it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hash = (): typeof import('node:crypto') => require('node:crypto') as typeof import('node:crypto');

function copyOf(dataDir: string, sha: string): string {
  return path.join(dataLayout(dataDir).trusted, sha);
}

function keepCopy(dataDir: string, f: Seen): void {
  if (f.bytes.length > MAX_COPY_BYTES) return;
  try {
    ensureDir(dataLayout(dataDir).trusted);
    // Kept as text: it is only ever shown, as a diff.
    writeAtomic(copyOf(dataDir, f.sha), f.bytes.toString('utf8'));
  } catch {
    // Without the copy, the next change is shown whole rather than as a diff.
  }
}

/** How a file differs from the copy trusted (a diff), or the file whole when none was. */
function change(dataDir: string | null, f: Seen, before: string | undefined): string {
  const now = f.bytes.length > MAX_COPY_BYTES ? null : f.bytes.toString('utf8');
  let old: string | null = null;
  try {
    if (dataDir && before) old = fs.readFileSync(copyOf(dataDir, before), 'utf8');
  } catch {
    old = null;
  }
  if (now === null)
    return `  ${f.rel}: ${before ? 'changed' : 'not trusted yet'} (${f.bytes.length} bytes, too large to show)`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createTwoFilesPatch } = require('diff') as typeof import('diff');
  const body =
    old === null
      ? now
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `+${l}`)
      : createTwoFilesPatch(f.rel, f.rel, old, now)
          .split('\n')
          .filter((l) => !/^(Index: |={5,}|--- |\+\+\+ |\\ No newline)/.test(l) && l !== '');
  const shown = body.slice(0, MAX_DIFF_LINES).map((l) => `    ${showControls(l)}`);
  if (body.length > MAX_DIFF_LINES) shown.push(`    … ${body.length - MAX_DIFF_LINES} more lines`);
  const head = before
    ? old === null
      ? 'changed (the trusted copy is gone: shown whole)'
      : 'changed since you trusted it'
    : 'not trusted yet';
  return [`  ${f.rel}: ${head}`, ...shown].join('\n');
}

// git as the workspace's snapshots (snapshots.ts) run it: on their private
// store (its own GIT_DIR, index and config) with the workspace as the work
// tree, none of the person's git settings applied (their GIT_* variables,
// global and system config: hooks, filters), paths taken as paths, what it
// prints read up to a cap.

import { type ChildProcess, spawn } from 'node:child_process';

/** What git prints is read up to this much (a diff for /diff); past it, cut. */
export const MAX_OUTPUT = 16 * 1024 * 1024;

/** How git is run: without the work tree (and its index), with another index, with this on its stdin. */
export interface GitRun {
  workTree?: boolean;
  index?: string;
  stdin?: string | Buffer;
  /** Another work tree (a repository nested in the workspace, listed as a tree of its own). */
  root?: string;
}

export interface Ran {
  code: number;
  out: Buffer;
  err: string;
}

export interface StoreGitOptions {
  /** The private git dir. */
  store: string;
  workspace: string;
  /** This process's index in the store. */
  index: string;
  /** The git to run (tests); `git` on PATH by default. */
  git?: string;
}

export class StoreGit {
  constructor(private readonly o: StoreGitOptions) {}

  /** Runs git; its output, or an error naming the command and git's first line of complaint. */
  async must(args: string[], how: GitRun = {}): Promise<string> {
    const r = await this.git(args, how);
    if (r.code !== 0) throw new Error(`git ${args[0]}: ${r.err.trim().split('\n')[0] || `exit ${r.code}`}`);
    return r.out.toString('utf8');
  }

  /** Runs git; what it printed, as bytes (paths are bytes: a name need not be UTF-8), or an error as must's. */
  async bytes(args: string[], how: GitRun = {}): Promise<Buffer> {
    const r = await this.git(args, how);
    if (r.code !== 0) throw new Error(`git ${args[0]}: ${r.err.trim().split('\n')[0] || `exit ${r.code}`}`);
    return r.out;
  }

  /** Runs git: how it ended, what it printed (up to the cap) and the start of what it complained. */
  git(args: string[], how: GitRun = {}): Promise<Ran> {
    const env = this.env();
    if (how.index) env.GIT_INDEX_FILE = how.index;
    if (how.root) env.GIT_WORK_TREE = how.root;
    if (how.workTree === false) {
      delete env.GIT_WORK_TREE;
      delete env.GIT_INDEX_FILE;
    }
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(this.o.git ?? 'git', args, {
          cwd: how.root ?? this.o.workspace,
          env,
          stdio: [how.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        });
      } catch (err) {
        return reject(err as Error);
      }
      const out: Buffer[] = [];
      let size = 0;
      let err = '';
      child.stdout?.on('data', (d: Buffer) => {
        if (size < MAX_OUTPUT) out.push(d);
        size += d.length;
      });
      child.stderr?.on('data', (d: Buffer) => {
        if (err.length < 8192) err += d.toString('utf8');
      });
      child.on('error', reject);
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(how.stdin);
      child.on('close', (code) => resolve({ code: code ?? 1, out: Buffer.concat(out).subarray(0, MAX_OUTPUT), err }));
    });
  }

  private env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    // Nothing of the person's git setting applies: not their GIT_DIR, not their config's hooks or filters.
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
    return {
      ...env,
      GIT_DIR: this.o.store,
      GIT_WORK_TREE: this.o.workspace,
      GIT_INDEX_FILE: this.o.index,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'milk',
      GIT_AUTHOR_EMAIL: 'milk@localhost',
      GIT_COMMITTER_NAME: 'milk',
      GIT_COMMITTER_EMAIL: 'milk@localhost',
      GIT_TERMINAL_PROMPT: '0',
      // A path is a path: never a pattern (a file named `*.ts` or `:x` is that file).
      GIT_LITERAL_PATHSPECS: '1',
      LC_ALL: 'C',
    };
  }
}

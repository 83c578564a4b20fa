// A review's change, from git (agent/review.ts says what it is and makes the prompt): the uncommitted changes against
// HEAD and the files git does not track yet, a branch against its merge base with BASE (the upstream's, else main's
// or master's), or one commit. git runs without a shell, in the workspace, bounded in time and output, and with the
// repository's own code-running settings off (an external diff, a textconv, an fsmonitor, a signature check's gpg: a
// cloned repository's .git/config must not run anything by being reviewed).

import { execFile } from 'node:child_process';
import { type ReviewTarget, targetWords } from './review';

/** git's empty tree: what a repository without a commit yet is compared with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const GIT_TIMEOUT_MS = 30_000;
/** Bytes of git's output read at most (the prompt takes a part of it: review.ts' MAX_DIFF_CHARS). */
const MAX_OUTPUT = 32 * 1024 * 1024;
/** Untracked files named in the prompt at most. */
const MAX_UNTRACKED = 200;

// log.showSignature would run gpg.program, which the repository's config may name.
const SAFE = [
  '-c',
  'core.fsmonitor=false',
  '-c',
  'diff.external=',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'log.showSignature=false',
];
const DIFF = ['--no-ext-diff', '--no-textconv', '--no-color'];

export interface ReviewChange {
  /** What is reviewed, in words. */
  readonly what: string;
  readonly diff: string;
  readonly untracked: readonly string[];
}

/** Runs git; its stdout, or null when it failed (a revision not there, not a repository). */
function git(workspace: string, args: readonly string[], signal?: AbortSignal): Promise<string | null> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...SAFE, ...args],
      { cwd: workspace, timeout: GIT_TIMEOUT_MS, maxBuffer: MAX_OUTPUT, signal, encoding: 'utf8' },
      (err, stdout) => {
        if (!err) return resolve(stdout);
        const e = err as NodeJS.ErrnoException & { killed?: boolean };
        if (e.code === 'ENOENT') return reject(new Error('git is not on PATH: /review needs it'));
        if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
          return reject(new Error(`git's diff is over ${MAX_OUTPUT / 1024 / 1024} MB: review a smaller range`));
        if (e.killed || e.name === 'AbortError') return reject(new Error('git did not answer in time'));
        resolve(null);
      },
    );
  });
}

/** The change `target` names in the workspace's repository; throws what is wrong in a sentence. */
export async function reviewChange(
  workspace: string,
  target: ReviewTarget,
  signal?: AbortSignal,
): Promise<ReviewChange> {
  if ((await git(workspace, ['rev-parse', '--show-toplevel'], signal)) === null)
    throw new Error('not a git repository: a review compares with git');
  if (target.kind === 'uncommitted') return uncommitted(workspace, signal);
  if (target.kind === 'commit') {
    const sha = (await git(workspace, ['rev-parse', '--verify', '-q', `${target.rev}^{commit}`], signal))?.trim();
    if (!sha) throw new Error(`no commit ${target.rev} here`);
    const diff = (await git(workspace, ['show', ...DIFF, '--format=medium', sha, '--'], signal)) ?? '';
    return { what: targetWords(target), diff, untracked: [] };
  }
  const base = target.base ?? (await defaultBase(workspace, signal));
  if (!base) throw new Error('no base to compare with: no upstream, main or master here (name one: /review BASE..)');
  const head = (await git(workspace, ['rev-parse', '--verify', '-q', `${target.head}^{commit}`], signal))?.trim();
  if (!head) throw new Error(`no commit ${target.head} here`);
  const from = (await git(workspace, ['merge-base', base, head], signal))?.trim();
  if (!from) throw new Error(`no common history between ${base} and ${target.head}`);
  const diff = (await git(workspace, ['diff', ...DIFF, from, head, '--'], signal)) ?? '';
  if (!diff.trim()) throw new Error(`nothing to review: ${target.head} has no changes against ${base}`);
  return { what: `${targetWords(target, base)} (from their merge base ${from.slice(0, 12)})`, diff, untracked: [] };
}

async function uncommitted(workspace: string, signal?: AbortSignal): Promise<ReviewChange> {
  const head = (await git(workspace, ['rev-parse', '--verify', '-q', 'HEAD'], signal)) !== null;
  const diff = (await git(workspace, ['diff', ...DIFF, head ? 'HEAD' : EMPTY_TREE, '--'], signal)) ?? '';
  const listed = (await git(workspace, ['ls-files', '--others', '--exclude-standard', '-z'], signal)) ?? '';
  const untracked = listed.split('\0').filter(Boolean);
  if (!diff.trim() && untracked.length === 0) throw new Error('nothing to review: no uncommitted changes');
  const shown = untracked.slice(0, MAX_UNTRACKED);
  if (untracked.length > shown.length) shown.push(`and ${untracked.length - shown.length} more`);
  return { what: targetWords({ kind: 'uncommitted' }), diff, untracked: shown };
}

/** The upstream's name, else main or master where there is one. */
async function defaultBase(workspace: string, signal?: AbortSignal): Promise<string | null> {
  const upstream = await git(workspace, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}'], signal);
  if (upstream?.trim()) return upstream.trim();
  for (const name of ['main', 'master'])
    if ((await git(workspace, ['rev-parse', '--verify', '-q', `refs/heads/${name}`], signal)) !== null) return name;
  return null;
}

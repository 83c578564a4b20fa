// grep without ripgrep: the files walk.ts lists, searched line by line with
// a JavaScript RegExp in a worker thread. A worker because the pattern comes
// from the model, and a backtracking pattern such as (a+)+$ can spin for
// ever: on the main thread it would freeze the screen past any Ctrl-C, in a
// worker it is terminated (on Ctrl-C, at the end of the output, or after
// MAX_JS_GREP_MS).

import { Worker } from 'node:worker_threads';
import type { FileHits } from './search-results';
import type { GrepQuery } from './ripgrep';
import { MAX_GREP_FILE_BYTES } from './ripgrep';

/** How long milk's own search may run before it is stopped with what it found. */
export const MAX_JS_GREP_MS = 30_000;

interface Job {
  root: string;
  files: string[];
  pattern: string;
  flags: string;
  context: number;
  maxBytes: number;
  want: GrepQuery['want'];
}

/**
 * The worker's whole program. It runs from its source text (eval), so it
 * uses nothing from outside its own body but Node's modules.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
function searchFiles(): void {
  const fs = require('node:fs') as typeof import('node:fs');
  const path = require('node:path') as typeof import('node:path');
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const job = workerData as Job;
  const re = new RegExp(job.pattern, job.flags);
  for (const rel of job.files) {
    let buf: Buffer;
    try {
      const file = path.join(job.root, rel);
      const st = fs.statSync(file);
      if (!st.isFile() || st.size > job.maxBytes) continue;
      buf = fs.readFileSync(file);
    } catch {
      continue;
    }
    if (buf.includes(0)) continue;
    const lines = buf.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const shown = new Uint8Array(lines.length);
    let matches = 0;
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i])) continue;
      matches++;
      if (job.want === 'count') continue;
      shown[i] = 2;
      if (job.want === 'first') break;
      for (let j = Math.max(0, i - job.context); j <= Math.min(lines.length - 1, i + job.context); j++)
        if (shown[j] === 0) shown[j] = 1;
    }
    if (matches === 0) continue;
    if (job.want === 'count') {
      parentPort!.postMessage({ path: rel, lines: [], matches });
      continue;
    }
    const out: { n: number; text: string; match: boolean; at: number }[] = [];
    let at = 0;
    for (let i = 0; i < lines.length; i++) {
      if (shown[i]) out.push({ n: i + 1, text: lines[i], match: shown[i] === 2, at });
      at += Buffer.byteLength(lines[i]) + 1;
    }
    parentPort!.postMessage({ path: rel, lines: out });
  }
  parentPort!.postMessage(null);
}
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The flags for a pattern: Unicode when the pattern is valid so, else without (ripgrep accepts `\-`, a Unicode RegExp
 * does not).
 */
export function regexFlags(pattern: string, ignoreCase: boolean): string {
  const i = ignoreCase ? 'i' : '';
  try {
    new RegExp(pattern, `u${i}`);
    return `u${i}`;
  } catch {
    new RegExp(pattern, i); // Throws the message the model gets.
    return i;
  }
}

/**
 * Searches `files` (relative to `root`, in order), handing each file's hits
 * to `take` until it returns false. Resolves with whether it ran out of time.
 */
export function jsGrep(
  root: string,
  files: string[],
  q: GrepQuery,
  take: (hits: FileHits) => boolean,
  signal?: AbortSignal,
  limitMs = MAX_JS_GREP_MS,
): Promise<boolean> {
  const job: Job = {
    root,
    files,
    pattern: q.pattern,
    flags: regexFlags(q.pattern, q.ignoreCase),
    context: q.context,
    maxBytes: MAX_GREP_FILE_BYTES,
    want: q.want,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(`(${searchFiles.toString()})()`, { eval: true, workerData: job });
    let settled = false;
    const end = (timedOut: boolean, err?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (err) reject(err);
      else resolve(timedOut);
    };
    const onAbort = (): void => end(false);
    const timer = setTimeout(() => end(true), limitMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) end(false);
    worker.on('message', (hits: FileHits | null) => {
      if (settled) return;
      if (hits === null || !take(hits)) end(false);
    });
    worker.on('error', (err) => end(false, err));
    worker.on('exit', () => end(false));
  });
}

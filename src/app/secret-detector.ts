// A maintained detector beside milk's own shapes: secretlint's recommended preset, which knows shapes milk's rules do
// not (and misses some they catch, so both run). It runs in a worker thread: loading it costs ~45 ms of a thread and
// ~10 MB, and a rule's regular expression over a large tool result, or one built to be slow, must never hold the
// screen. The worker is started when the person begins typing (the full screen's warm-ups) or when milk run starts;
// a request waits for it, so nothing leaves before it has looked. secretlint is ESM-only: the worker requires it
// (Node 20.19 and later load ESM through require); where it cannot load, milk's own shapes still mask, and it is
// said.

import type { Worker } from 'node:worker_threads';
import type { Detect, Detected } from '../turn/secrets';

/** How long one text may take the detector; past it the worker is ended and started again for the next. */
export const DETECT_MS = 5000;
/** Texts whose findings are kept, so a conversation's earlier messages are not scanned again on every request. */
const KNOWN_TEXTS = 4096;

interface Job {
  readonly core: string;
  readonly preset: string;
  /** The profiler the core marks every rule's run with: silenced before the core loads (see detectorMain). */
  readonly profiler: string;
}

type FromWorker =
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly why: string }
  | { readonly kind: 'found'; readonly id: number; readonly found: ReadonlyArray<readonly [number, number, string]> };

/* eslint-disable @typescript-eslint/no-require-imports */
/** The worker's program, run from its source text: it uses only its locals and `require`. */
function detectorMain(): void {
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const job = workerData as Job;
  let lint: (o: unknown) => Promise<{ messages: Array<{ ruleId: string; range: [number, number] }> }>;
  let rule: unknown;
  try {
    // secretlint 12's profiler is always on: two performance marks per rule per text, kept in an array it scans at
    // every mark and in Node's performance timeline, so each text took longer than the last and the thread's memory
    // only grew (a 1,000-turn soak: +85 MB, and a scan at turn 300 ten times the first). Fixed upstream after the
    // last release for Node 20 (secretlint#1633, #1673); here its mark does nothing.
    (require(job.profiler) as { secretLintProfiler: { mark: () => void } }).secretLintProfiler.mark = () => undefined;
    lint = (require(job.core) as { lintSource: typeof lint }).lintSource;
    rule = (require(job.preset) as { creator: unknown }).creator;
  } catch (err) {
    parentPort!.postMessage({ kind: 'failed', why: String((err as Error)?.message ?? err).slice(0, 200) });
    return;
  }
  const options = { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule }] } };
  parentPort!.on('message', (m: { id: number; text: string }) => {
    lint({ source: { filePath: '/milk-request', content: m.text, contentType: 'text' }, options }).then(
      (r) => {
        const found = r.messages.map((x) => [x.range[0], x.range[1], x.ruleId]);
        parentPort!.postMessage({ kind: 'found', id: m.id, found });
      },
      () => parentPort!.postMessage({ kind: 'found', id: m.id, found: [] }),
    );
  });
  parentPort!.postMessage({ kind: 'ready' });
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** A text's SHA-256 (node:crypto, loaded with the detector's first text rather than at start-up). */
function digest(text: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(text).digest('base64');
}

/** A secretlint rule's id as a placeholder's kind: `@secretlint/secretlint-rule-github` is `github`. */
export function slugOf(ruleId: string): string {
  const slug = ruleId
    .replace(/^@secretlint\/secretlint-rule-/, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'secret';
}

export class SecretDetector {
  private worker: Worker | null = null;
  private ready: Promise<boolean> | null = null;
  private next = 0;
  /** Texts being looked at: while there are any, the worker holds the process (milk run may wait on nothing else). */
  private asking = 0;
  private readonly waiting = new Map<number, (found: readonly Detected[] | null) => void>();
  private readonly known = new Map<string, readonly Detected[]>();
  /** Why the detector is not running, once it could not load. */
  failed: string | null = null;

  /** @param warn told once when the detector cannot load, or a text took it too long. */
  constructor(private readonly warn: (text: string) => void) {}

  /** Starts the worker, once; the first request waits for it. */
  start(): void {
    if (this.ready || this.failed) return;
    const core = require.resolve('@secretlint/core');
    const profiler = require.resolve('@secretlint/profiler', { paths: [core] });
    const job: Job = { core, preset: require.resolve(PRESET), profiler };
    // An environment of its own, empty: secretlint logs through `debug`, and a DEBUG set for something else would
    // write over the screen.
    // Loaded here, not at start-up: the detector starts with the first keystroke.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    let worker: Worker;
    try {
      worker = new Worker(`(${detectorMain.toString()})()`, { eval: true, workerData: job, env: {} });
    } catch (err) {
      // No thread could be had (a resource limit): milk goes on with its own shapes, as when secretlint cannot load.
      this.ready = Promise.resolve(this.fail(`it could not start (${(err as Error).message.slice(0, 120)})`));
      return;
    }
    this.worker = worker;
    this.ready = new Promise((resolve) => {
      worker.on('message', (m: FromWorker) => {
        if (m.kind === 'ready') resolve(true);
        else if (m.kind === 'failed') resolve(this.fail(`it could not be loaded (${m.why})`));
        else this.answer(m.id, m.found);
      });
      worker.on('error', (err) => resolve(this.fail(`it stopped (${err.message.slice(0, 120)})`)));
      worker.on('exit', () => resolve(this.fail('it stopped')));
      // After the listeners, which hold it again: an idle worker never keeps milk from exiting (one asked holds it).
      worker.unref();
    });
  }

  /** The secrets the preset finds in `text` (none when it could not run), as the request's mask takes them. */
  readonly detect: Detect = async (text) => {
    // Kept by the text's hash: 4,096 tool results of up to 16 KB each held as keys would be 64 MB for a long session.
    const key = digest(text);
    const known = this.known.get(key);
    if (known) return known;
    this.start();
    const worker = this.worker;
    this.asking++;
    worker?.ref();
    let found: readonly Detected[] | null = null;
    try {
      if ((await this.ready) && !this.failed && this.worker) found = await this.ask(this.worker, text);
    } finally {
      if (--this.asking === 0) worker?.unref();
    }
    if (found === null) return [];
    if (this.known.size >= KNOWN_TEXTS) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, found);
    return found;
  };

  /** Ends the worker (milk is leaving). */
  close(): void {
    this.worker?.removeAllListeners();
    void this.worker?.terminate();
    this.worker = null;
  }

  private ask(worker: Worker, text: string): Promise<readonly Detected[] | null> {
    const id = this.next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        this.restart(`a text took it longer than ${DETECT_MS / 1000} s; milk's own rules masked that one`);
        resolve(null);
      }, DETECT_MS);
      timer.unref();
      this.waiting.set(id, (found) => {
        clearTimeout(timer);
        resolve(found);
      });
      worker.postMessage({ id, text });
    });
  }

  private answer(id: number, found: ReadonlyArray<readonly [number, number, string]>): void {
    const done = this.waiting.get(id);
    this.waiting.delete(id);
    done?.(
      found.map(([start, end, rule]) => ({ start, end, slug: slugOf(rule), name: `${slugOf(rule)} (secretlint)` })),
    );
  }

  /** A worker that spun is ended; the next text starts another. */
  private restart(why: string): void {
    this.warn(`secret detector: ${why}`);
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    worker?.removeAllListeners();
    void worker?.terminate();
    for (const done of this.waiting.values()) done(null);
    this.waiting.clear();
  }

  private fail(why: string): false {
    if (this.failed) return false;
    this.failed = why;
    this.warn(`secret detector: ${why}; milk's own rules still mask what is sent`);
    for (const done of this.waiting.values()) done(null);
    this.waiting.clear();
    return false;
  }
}

const PRESET = '@secretlint/secretlint-rule-preset-recommend';

// A change to a file as hunks, taken or left out one by one, as `git add -p`
// offers them: the changed lines with three lines of context, changes closer
// than that joined into one hunk. The line diff itself comes from the diff
// package (the caller runs it); this groups it, shows each hunk, applies the
// ones taken to the file as it was, and says what was done. Pure.

export interface Hunk {
  /** Where it starts and ends in the old lines (0-based, end excluded), context included. */
  readonly from: number;
  readonly to: number;
  /** What those lines become when it is taken. */
  readonly lines: readonly string[];
  /** As shown: `@@ -a,b +c,d @@`, then the lines with ' ', '-' or '+'. */
  readonly text: string;
}

/** One run of the line diff: lines kept, removed or added. */
export interface DiffRun {
  readonly added?: boolean;
  readonly removed?: boolean;
  readonly value: readonly string[];
}

interface Change {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

const CONTEXT = 3;

/** The hunks of a change from lines `a` to lines `b`, given their line diff. */
export function hunksOf(a: readonly string[], b: readonly string[], runs: readonly DiffRun[]): Hunk[] {
  const changes: Change[] = [];
  let i = 0;
  let j = 0;
  for (const run of runs) {
    const n = run.value.length;
    if (!run.added && !run.removed) {
      i += n;
      j += n;
      continue;
    }
    const last = changes[changes.length - 1];
    const c = last && last.aEnd === i && last.bEnd === j ? last : { aStart: i, aEnd: i, bStart: j, bEnd: j };
    if (c !== last) changes.push(c);
    if (run.removed) c.aEnd = i += n;
    else c.bEnd = j += n;
  }
  const groups: Change[][] = [];
  for (const c of changes) {
    const g = groups[groups.length - 1];
    if (g && c.aStart - g[g.length - 1].aEnd <= 2 * CONTEXT) g.push(c);
    else groups.push([c]);
  }
  return groups.map((g) => hunk(a, b, g));
}

function hunk(a: readonly string[], b: readonly string[], g: readonly Change[]): Hunk {
  const first = g[0];
  const last = g[g.length - 1];
  const from = Math.max(0, first.aStart - CONTEXT);
  // The empty string after a final newline is no line of the file: context stops before it.
  const lines = a.length > 0 && a[a.length - 1] === '' ? a.length - 1 : a.length;
  const to = Math.max(last.aEnd, Math.min(lines, last.aEnd + CONTEXT));
  const bFrom = first.bStart - (first.aStart - from);
  const bTo = last.bEnd + (to - last.aEnd);
  const shown: string[] = [];
  let at = from;
  for (const c of g) {
    for (; at < c.aStart; at++) shown.push(' ' + a[at]);
    for (let k = c.aStart; k < c.aEnd; k++) shown.push('-' + a[k]);
    for (let k = c.bStart; k < c.bEnd; k++) shown.push('+' + b[k]);
    at = c.aEnd;
  }
  for (; at < to; at++) shown.push(' ' + a[at]);
  const header = `@@ -${from + 1},${to - from} +${bFrom + 1},${bTo - bFrom} @@`;
  return { from, to, lines: b.slice(bFrom, bTo), text: [header, ...shown].join('\n') };
}

/** The old lines with the hunks taken (`taken[k]` for hunk k) applied, the others left as they were. */
export function applyHunks(a: readonly string[], hunks: readonly Hunk[], taken: readonly boolean[]): string[] {
  const out: string[] = [];
  let at = 0;
  hunks.forEach((h, k) => {
    for (; at < h.from; at++) out.push(a[at]);
    if (taken[k]) for (const line of h.lines) out.push(line);
    else for (let i = h.from; i < h.to; i++) out.push(a[i]);
    at = h.to;
  });
  for (; at < a.length; at++) out.push(a[at]);
  return out;
}

/** What the model is told of the hunks: which were applied and which were not, by number and old lines. */
export function hunkReport(file: string, hunks: readonly Hunk[], taken: readonly boolean[]): string {
  const name = (k: number): string => `${k + 1} (old lines ${hunks[k].from + 1}-${hunks[k].to})`;
  const applied = hunks.map((_, k) => k).filter((k) => taken[k]);
  const refused = hunks.map((_, k) => k).filter((k) => !taken[k]);
  const list = (ks: number[]): string => ks.map(name).join(', ');
  return (
    `The person took this change hunk by hunk: of its ${hunks.length} hunks, ${file} got ${list(applied)}; ` +
    (refused.length === 1
      ? `hunk ${list(refused)} was refused and is not in the file.`
      : `hunks ${list(refused)} were refused and are not in the file.`)
  );
}

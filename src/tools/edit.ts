// edit_file's core: exact replacements in a file's text. Each edit's
// old_string must occur exactly once (or replace_all says every occurrence
// is meant); the edits of one call apply in order, each to the text the one
// before it left, and all or none: one that cannot apply changes nothing
// and the model is told why, with the lines nearest to what it meant. Pure.

export interface Edit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export type EditResult = { ok: true; text: string; replaced: number } | { ok: false; error: string };

/** Non-overlapping occurrences of `needle` in `hay`, counted up to `stop`. */
function occurrences(hay: string, needle: string, stop = Infinity): number[] {
  const at: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1 && at.length < stop; i = hay.indexOf(needle, i + needle.length))
    at.push(i);
  return at;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const b = s.slice(i, i + 2);
    m.set(b, (m.get(b) ?? 0) + 1);
  }
  return m;
}

/** How alike two lines are (Dice's coefficient over character pairs, blanks ignored at the ends): 0 to 1. */
export function likeness(a: string, b: string): number {
  const x = a.trim();
  const y = b.trim();
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const bx = bigrams(x);
  let shared = 0;
  for (const [pair, n] of bigrams(y)) shared += Math.min(n, bx.get(pair) ?? 0);
  return (2 * shared) / (x.length - 1 + y.length - 1);
}

/** Lines scanned for the nearest match: a huge file is not compared line by line in full. */
const MAX_SCAN_LINES = 20_000;

/** The lines of `text` nearest to the first line of `wanted`, numbered, for a message to the model. */
export function nearestLines(text: string, wanted: string, count = 3): string {
  const first = wanted.split('\n').find((l) => l.trim()) ?? '';
  const lines = text.split('\n').slice(0, MAX_SCAN_LINES);
  const scored = lines
    .map((line, i) => ({ n: i + 1, line, score: likeness(first, line) }))
    .filter((s) => s.score >= 0.5);
  scored.sort((a, b) => b.score - a.score || a.n - b.n);
  const best = scored.slice(0, count);
  if (best.length === 0) return 'no line of the file is like its first line';
  return `the nearest lines to its first line:\n${best.map((s) => `${s.n}\t${s.line}`).join('\n')}`;
}

/** Applies `edits` to `text` in order, all or none. */
export function applyEdits(text: string, edits: readonly Edit[]): EditResult {
  if (edits.length === 0) return { ok: false, error: 'no edits given' };
  let out = text;
  let replaced = 0;
  for (const [k, e] of edits.entries()) {
    const which = edits.length > 1 ? `edit ${k + 1}: ` : '';
    if (typeof e.old_string !== 'string' || typeof e.new_string !== 'string')
      return { ok: false, error: `${which}old_string and new_string must be strings` };
    if (e.old_string === '')
      return { ok: false, error: `${which}old_string is empty; to write a whole file use write_file` };
    if (e.old_string === e.new_string)
      return { ok: false, error: `${which}old_string and new_string are the same; nothing would change` };
    const found = occurrences(out, e.old_string, e.replace_all ? Infinity : 2);
    if (found.length === 0) {
      return {
        ok: false,
        error:
          `${which}old_string was not found in the file (it must match exactly, blanks and indentation ` +
          `included); ${nearestLines(out, e.old_string)}`,
      };
    }
    if (found.length > 1 && !e.replace_all) {
      const all = occurrences(out, e.old_string);
      return {
        ok: false,
        error:
          `${which}old_string occurs ${all.length} times (lines ${all
            .slice(0, 10)
            .map((i) => lineOf(out, i))
            .join(
              ', ',
            )}${all.length > 10 ? ', …' : ''}); give more of the text around it so that it matches once, or set ` +
          `replace_all`,
      };
    }
    out = e.replace_all
      ? out.split(e.old_string).join(e.new_string)
      : out.slice(0, found[0]) + e.new_string + out.slice(found[0] + e.old_string.length);
    replaced += found.length;
  }
  return { ok: true, text: out, replaced };
}

// A code review (/review, milk run --review): what is reviewed (the uncommitted changes, a branch against its base, one
// commit), the prompt the model is given with the change, and its findings read back from its answer: a JSON list of
// {file, line, severity, title, body}, each field checked (the model's answer is not trusted to be well formed),
// listed by file and line, and counted against a threshold. Pure: git's side is review-git.ts.

export type Severity = 'low' | 'medium' | 'high';
export const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high'];

export type ReviewTarget =
  /** What `git diff HEAD` shows, and the files git does not track yet. */
  | { readonly kind: 'uncommitted' }
  /** The branch against `base` (from their merge base); null: the upstream's, else main's or master's. */
  | { readonly kind: 'branch'; readonly base: string | null; readonly head: string }
  | { readonly kind: 'commit'; readonly rev: string };

export interface Finding {
  readonly file: string;
  /** 1-based; 0 when the finding is about the file as a whole. */
  readonly line: number;
  readonly severity: Severity;
  readonly title: string;
  readonly body: string;
}

/**
 * A revision as a person types one: not an option (a leading `-`), no blank or control character, none of git's
 * forbidden `:?*[\`, no `..` inside; git judges the rest.
 */
function isRev(s: string): boolean {
  if (s === '' || s.startsWith('-') || s.includes('..') || /[:?*[\\]/.test(s)) return false;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c <= 0x20 || c === 0x7f) return false;
  }
  return true;
}

/** `/review`'s or --review's argument: nothing, `BASE..` (`..`: the default base), `BASE..HEAD`, or a commit. */
export function reviewTarget(arg: string): ReviewTarget | { problem: string } {
  const a = arg.trim();
  if (a === '') return { kind: 'uncommitted' };
  const at = a.indexOf('..');
  if (at >= 0) {
    const base = a.slice(0, at);
    const head = a.slice(at + 2).replace(/^\./, '') || 'HEAD';
    if ((base && !isRev(base)) || !isRev(head))
      return { problem: `not a range: ${a.slice(0, 80)} (BASE.., BASE..HEAD, or .. for the default base)` };
    return { kind: 'branch', base: base || null, head };
  }
  if (!isRev(a)) return { problem: `not a commit: ${a.slice(0, 80)}` };
  return { kind: 'commit', rev: a };
}

/** What a target is, in words, once git has said which base it is against. */
export function targetWords(target: ReviewTarget, base?: string): string {
  if (target.kind === 'uncommitted') return 'the uncommitted changes (staged, unstaged and untracked)';
  if (target.kind === 'commit') return `commit ${target.rev}`;
  return `${target.head === 'HEAD' ? 'this branch' : target.head} against ${base ?? target.base ?? 'its base'}`;
}

/** The largest diff put in the prompt; past it the model is told to read the rest of the files itself. */
export const MAX_DIFF_CHARS = 200_000;

/** The review's prompt: what to look for, the change, and the form of the findings. */
export function reviewPrompt(what: string, diff: string, untracked: readonly string[] = []): string {
  const cut = diff.length > MAX_DIFF_CHARS;
  const shown = cut ? diff.slice(0, MAX_DIFF_CHARS) : diff;
  return [
    `Review ${what}. Read the code around the change with read_file, glob and grep where it helps; change nothing.`,
    'Look for bugs, security problems, broken error handling, races, missing tests for new behaviour, and code ' +
      'that does not do what its names and comments say. Leave out style nits a formatter would fix.',
    'Answer with a short summary, then the findings as one fenced ```json block holding a list (an empty list when ' +
      'there is nothing to report) of objects {"file": path relative to the workspace, "line": the line in the new ' +
      'file (0 for the whole file), "severity": "low" | "medium" | "high", "title": one line, "body": why it is ' +
      'wrong and what to do}.',
    untracked.length ? `Files git does not track yet (read them): ${untracked.join(', ')}` : '',
    cut
      ? `The diff below is cut at ${MAX_DIFF_CHARS.toLocaleString('en-US')} characters: read the rest of the files.`
      : '',
    fenced(shown),
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** The diff in a fence longer than any run of backticks inside it, so that a diff of Markdown cannot end it early. */
function fenced(diff: string): string {
  let longest = 0;
  for (const run of diff.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}diff\n${diff}\n${fence}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A severity as a model may write it, in milk's three words. */
function severityOf(v: unknown): Severity | null {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (s === 'low' || s === 'minor' || s === 'info' || s === 'nit') return 'low';
  if (s === 'medium' || s === 'moderate' || s === 'warning') return 'medium';
  if (s === 'high' || s === 'critical' || s === 'major' || s === 'error' || s === 'blocker') return 'high';
  return null;
}

const text = (v: unknown, max: number): string => (typeof v === 'string' ? v.trim().slice(0, max) : '');

function findingOf(v: unknown): Finding | null {
  if (!isObject(v)) return null;
  const file = text(v.file ?? v.path, 500);
  const title = text(v.title, 300);
  const severity = severityOf(v.severity);
  if (!file || !title || !severity) return null;
  const line = typeof v.line === 'number' && Number.isInteger(v.line) && v.line > 0 ? v.line : 0;
  return { file, line, severity, title, body: text(v.body ?? v.description, 4000) };
}

/**
 * The findings in an answer: its last ```json block (or the whole answer, when that is the JSON), a list of findings;
 * those not well formed are counted, not guessed at. No such list at all: the problem, said.
 */
export function findingsOf(
  answer: string,
): { findings: Finding[]; dropped: number; summary: string } | { problem: string } {
  const blocks = [...answer.matchAll(/```json[^\n]*\n([\s\S]*?)```/g)];
  const last = blocks.at(-1);
  const json = last ? last[1] : answer.trim();
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    return { problem: 'the review has no list of findings (a ```json block) milk could read' };
  }
  if (isObject(list) && Array.isArray(list.findings)) list = list.findings;
  if (!Array.isArray(list)) return { problem: "the review's findings are not a JSON list" };
  const findings: Finding[] = [];
  for (const v of list) {
    const f = findingOf(v);
    if (f) findings.push(f);
  }
  const summary = last ? (answer.slice(0, last.index) + answer.slice((last.index ?? 0) + last[0].length)).trim() : '';
  return { findings: sorted(findings), dropped: list.length - findings.length, summary };
}

/** By file, then line; the most severe first within a line. */
function sorted(findings: Finding[]): Finding[] {
  const rank = (s: Severity): number => SEVERITIES.indexOf(s);
  return [...findings].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || rank(b.severity) - rank(a.severity),
  );
}

/** Those at or above `threshold`. */
export function atOrAbove(findings: readonly Finding[], threshold: Severity): Finding[] {
  const min = SEVERITIES.indexOf(threshold);
  return findings.filter((f) => SEVERITIES.indexOf(f.severity) >= min);
}

/** The findings as a list a person reads: `file:line  severity  title`, the body indented under it. */
export function findingLines(findings: readonly Finding[], dropped = 0): string[] {
  const counts = SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .reverse()
    .map(([s, n]) => `${n} ${s}`);
  const head =
    findings.length === 0
      ? 'review: no findings'
      : `review: ${findings.length} finding${findings.length === 1 ? '' : 's'} (${counts.join(', ')})`;
  const lines = [head + (dropped ? `; ${dropped} not well formed, left out` : '')];
  for (const f of findings) {
    lines.push(`${f.file}${f.line ? `:${f.line}` : ''}  ${f.severity}  ${f.title}`);
    for (const l of f.body.split('\n')) if (l.trim()) lines.push(`    ${l}`);
  }
  return lines;
}

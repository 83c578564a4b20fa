// What a change to a file would do, shown before anyone is asked about it: edit_file's and write_file's previews (a
// numbered diff, capped in size and time), the change as hunks a question may take one by one, and edits applied to
// a text as they would be.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Edit, applyEdits } from './edit';
import type { Bounds, FileChange, Preview } from './tool';
import { Hunk, hunksOf } from './hunks';
import { confineWrite } from './confine';
import { MAX_READ_BYTES, editable, notChanged, readHead } from './file-read';

/** Line diffs past this many edits are not offered hunk by hunk (the diff runs before the question). */
export const MAX_HUNK_EDITS = 5000;

/** A change from `before` to `after` as hunks; none when the diff is too large to make before the question. */
export function changeHunks(before: string, after: string): Hunk[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { diffArrays } = require('diff') as typeof import('diff');
  const a = before.split('\n');
  const b = after.split('\n');
  const runs = diffArrays(a, b, { maxEditLength: MAX_HUNK_EDITS, timeout: MAX_DIFF_MS });
  return runs ? hunksOf(a, b, runs) : [];
}

/**
 * A change in lines, for its block's header: `+3 −1`; past the diff's bounds, the line counts before and after.
 */
export function changeTally(before: string, after: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { diffArrays } = require('diff') as typeof import('diff');
  const runs = diffArrays(before.split('\n'), after.split('\n'), {
    maxEditLength: MAX_DIFF_EDITS,
    timeout: MAX_DIFF_MS,
  });
  if (!runs) return `${lineCount(before)} lines, now ${lineCount(after)}`;
  let added = 0;
  let removed = 0;
  for (const r of runs) {
    if (r.added) added += r.count ?? r.value.length;
    else if (r.removed) removed += r.count ?? r.value.length;
  }
  return `+${added} \u2212${removed}`;
}

/**
 * What a call would make of an existing UTF-8 file (edit_file's edits applied, or write_file's content), whole and as
 * hunks; null for a new file, one that cannot be edited, or edits that would fail.
 */
export async function changeOf(
  workspace: string,
  p: string,
  make: (text: string) => string | null,
  bounds: Bounds = {},
): Promise<FileChange | null> {
  let text: string;
  try {
    ({ text } = await editable(workspace, p, bounds));
  } catch {
    return null;
  }
  const after = make(text);
  if (after === null || after === text) return null;
  return { path: p, before: text, after, hunks: changeHunks(text, after) };
}

/** edit_file's edits applied to `text`, or null when they would fail. */
export function edited(text: string, edits: readonly Edit[]): string | null {
  const r = applyEdits(text, edits);
  return r.ok ? r.text : null;
}

/** What an edit_file call would change, as a diff, shown before the person approves it; or why it will be refused. */
export async function previewEdit(
  workspace: string,
  p: string,
  edits: readonly Edit[],
  bounds: Bounds = {},
): Promise<Preview> {
  let current: { text: string };
  try {
    current = await editable(workspace, p, bounds);
  } catch (err) {
    return { fails: (err as Error).message };
  }
  const result = applyEdits(current.text, edits);
  if (!result.ok) return { fails: notChanged(p, result.error) };
  return diffPreview(p, current.text, result.text);
}

/**
 * What a write_file call would change, as a unified diff against the file as
 * it is now (or the whole new file), shown before the person approves it.
 * A write that will be refused says why instead.
 */
/** A diff stops past this many line edits or this long: it runs on the main thread, before the question. */
export const MAX_DIFF_EDITS = 20_000;

export const MAX_DIFF_MS = 250;

export function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export async function previewWrite(
  workspace: string,
  p: string,
  content: string,
  bounds: Bounds = {},
): Promise<Preview> {
  let file: string;
  try {
    file = await confineWrite(workspace, p, bounds);
  } catch (err) {
    return { fails: (err as Error).message };
  }
  let before = '';
  try {
    const { bytes, size } = await readHead(
      workspace,
      path.relative(await fs.promises.realpath(workspace), file),
      MAX_READ_BYTES,
      bounds,
    );
    before =
      bytes.toString('utf8') + (size > MAX_READ_BYTES ? `\n[truncated at ${MAX_READ_BYTES} bytes of ${size}]` : '');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return `cannot show the change: ${(err as Error).message}`;
  }
  return diffPreview(p, before, content);
}

/**
 * A unified diff of `before` to `after`, bounded (past the bound: everything that will be written, in numbers and
 * whole).
 */
export function diffPreview(p: string, before: string, content: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { structuredPatch } = require('diff') as typeof import('diff');
  // Bounded: a diff of a large rewrite grows with the product of the sizes and would hold the screen
  // for seconds before the question appears; past the bound the change is said in numbers instead.
  const patch = structuredPatch(p, p, before, content, '', '', {
    context: 3,
    maxEditLength: MAX_DIFF_EDITS,
    timeout: MAX_DIFF_MS,
  });
  if (!patch) {
    // No diff, but still everything that will be written, to read before the question is answered.
    const kept = content.endsWith('\n') ? content.slice(0, -1) : content;
    const all = kept.split('\n');
    const width = String(all.length).length;
    const added = all.map((l, i) => numberedDiffLine(i + 1, width, `+${l}`));
    return [
      `too large to show as a diff: ${lineCount(before)} lines replaced by ${lineCount(content)}; what will be ` +
        `written:`,
      ...added,
    ].join('\n');
  }
  const last = patch.hunks.at(-1);
  const width = last ? String(Math.max(last.oldStart + last.oldLines, last.newStart + last.newLines)).length : 1;
  const lines: string[] = [];
  for (const h of patch.hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    let old = h.oldStart;
    let now = h.newStart;
    // A removed line is numbered as it was, an added or kept one as it will be.
    for (const l of h.lines) {
      if (l.startsWith('\\')) continue;
      lines.push(numberedDiffLine(l[0] === '-' ? old : now, width, l));
      if (l[0] !== '+') old++;
      if (l[0] !== '-') now++;
    }
  }
  // Whole: everything that will be written is there to see before the question (the diff itself is bounded above).
  return lines.length === 0 ? 'no change' : lines.join('\n');
}

/** `  12 +text`: a diff line with its number in the file, its sign after it (tui/views.ts colours by the sign). */
export function numberedDiffLine(n: number, width: number, line: string): string {
  return `${String(n).padStart(width)} ${line}`;
}

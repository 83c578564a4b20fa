// What the coordinator reads from an input and says back, as pure functions:
// a `!` command's text, what a rewind did to the files, what a deletion from
// history did (in numbers, never the text).

import type { RestoreReport } from '../session/checkpoints';

/** The command of a line that starts with `!` (empty for a lone `!`); null for any other input. */
export function ownCommand(text: string): string | null {
  return text.startsWith('!') ? text.slice(1).trim() : null;
}

/** What a rewind did to the files, in a line or a few. */
export function restoreNote(r: RestoreReport): string {
  const parts: string[] = [];
  if (r.restored.length) parts.push(`put back: ${r.restored.join(', ')}`);
  if (r.removed.length) parts.push(`removed (milk had made them): ${r.removed.join(', ')}`);
  if (r.changed.length) parts.push(`left as they are, changed since milk wrote them: ${r.changed.join(', ')}`);
  if (r.failed.length) parts.push(`could not be put back: ${r.failed.join(', ')}`);
  if (r.kept?.length) parts.push(`kept: ${r.kept.join(', ')} (there before the turn, not stored)`);
  for (const note of r.notes ?? []) parts.push(note);
  return parts.length ? parts.join('\n') : 'no file to put back';
}

/** What a deletion from history did, in numbers (never the text). */
export function forgotten(removed: { entries: number; files: number }): string {
  if (removed.entries === 0) return 'not found in history';
  const entries = `${removed.entries} ${removed.entries === 1 ? 'entry' : 'entries'}`;
  return `deleted from history: ${entries} in ${removed.files} ${removed.files === 1 ? 'file' : 'files'}`;
}

// What milk leaves in the terminal's scrollback when it quits (config
// `exitTranscript`): the conversation as plain lines with a colour for each
// kind — inputs, answers, tool calls one line each, notes and errors — never
// a border or the status bar, so the terminal's own scrollback and find have
// it after milk's full screen is gone. Bounded to the last MAX_EXIT_LINES,
// with a line saying where the whole conversation is. Pure.

import type { EntryKind } from './transcript-entry';

export type ExitTranscript = 'all' | 'last' | 'none';
export const EXIT_TRANSCRIPTS: readonly ExitTranscript[] = ['all', 'last', 'none'];

/** Lines written at most: a terminal's scrollback is often a few thousand lines, and writing costs the exit. */
export const MAX_EXIT_LINES = 3000;

const SGR: Partial<Record<EntryKind | 'gap', [string, string]>> = {
  user: ['\x1b[1m', '\x1b[22m'],
  tool: ['\x1b[2m', '\x1b[22m'],
  call: ['\x1b[2m', '\x1b[22m'],
  note: ['\x1b[2m', '\x1b[22m'],
  error: ['\x1b[31m', '\x1b[39m'],
};

/** The text to write: `lines` from the transcript (already made inert), the last MAX_EXIT_LINES of them. */
export function scrollbackText(
  lines: ReadonlyArray<{ kind: EntryKind | 'gap'; text: string }>,
  o: { color: boolean; whole: string | null; max?: number },
): string {
  if (lines.length === 0) return '';
  const max = o.max ?? MAX_EXIT_LINES;
  const shown = lines.slice(-max);
  const out: string[] = [];
  if (lines.length > shown.length) {
    const where = o.whole ? `: the whole conversation is in ${o.whole}` : '';
    out.push(paint('note', `… ${lines.length - shown.length} earlier lines${where}`, o.color), '');
  }
  let first = true;
  for (const l of shown) {
    // An input's first line carries the prompt mark, as on the screen.
    const text = l.kind === 'user' && first ? `› ${l.text}` : l.kind === 'user' ? `  ${l.text}` : l.text;
    first = l.kind !== 'user';
    out.push(paint(l.kind, text, o.color));
  }
  return `${out.join('\n')}\n\n`;
}

function paint(kind: EntryKind | 'gap', text: string, color: boolean): string {
  const sgr = color ? SGR[kind] : undefined;
  return sgr && text ? `${sgr[0]}${text}${sgr[1]}` : text;
}

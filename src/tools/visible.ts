// What a person approves must be what will run: a command is shown with
// every character that could hide something made visible. Control
// characters become ^X or <U+XXXX>, bidirectional overrides and zero-width
// characters are named, long runs of blanks are counted, and a very long
// command keeps its head and its tail. Pure.

// C0 controls but newline, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/g;
// Characters that reorder or hide text: bidi embeddings, overrides and isolates, zero-width marks.
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/** Runs of blanks at least this long are shown as a count. */
const BLANK_RUN = 4;

function caret(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code === 0x09) return '^I';
  if (code < 0x20) return '^' + String.fromCharCode(code + 0x40);
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** The text with nothing hidden: controls and invisible characters named, long blank runs counted. */
export function visible(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(/[ ]{4,}/g, (run) => (run.length >= BLANK_RUN ? ` [${run.length} spaces] ` : run))
    .replace(CONTROL, caret)
    .replace(INVISIBLE, (ch) => `<U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);
}

/** Text whose layout matters (a diff): tabs expanded, controls and invisible characters named, blanks kept. */
export function showControls(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(/\t/g, '    ')
    .replace(CONTROL, caret)
    .replace(INVISIBLE, (ch) => `<U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);
}

/** One line: newlines shown as ⏎, for the status bar. */
export function oneLine(text: string): string {
  return visible(text).replace(/\n/g, ' ⏎ ');
}

/**
 * One line describing a call, for the status bar: its tool and what it is judged by (tools/tool.ts `subject`), nothing
 * hidden, newlines marked.
 */
export function describeCall(tool: string, subject: string): string {
  return subject ? `${tool}: ${oneLine(subject)}` : tool;
}

/**
 * The whole call for the transcript, before it is approved: every character
 * visible and none left out, however long (a `curl … | sh` in the middle of
 * a long command must be there to see; the transcript scrolls).
 */
export function callDetail(tool: string, subject: string): string {
  return subject ? `${tool}: ${visible(subject)}` : tool;
}

// What a person approves must be what will run: a command is shown with
// every character that could hide something made visible. Control
// characters become ^X or <U+XXXX>, bidirectional overrides, zero-width
// characters and blanks that are not ASCII spaces are named, long runs of
// blanks of any kind are counted, and a very long command keeps its head and
// its tail. Pure.

// C0 controls but newline, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/g;
// Characters that reorder or hide text: bidi embeddings, overrides and isolates, zero-width marks, and the blanks that
// are not ASCII spaces (no-break, ideographic, braille and Hangul fillers, the typographic spaces).
const INVISIBLE =
  /[\u0085\u00a0\u115f\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u2069\u2800\u3000\u3164\uffa0\ufeff]/g;
/**
 * Runs of blanks (ASCII or not, mixed) at least this long are shown as a count: thousands of them on each side of
 * `; touch X` would push it off the screen.
 */
const BLANK_RUN =
  /[ \u0085\u00a0\u115f\u1160\u1680\u180e\u2000-\u200b\u2028\u2029\u202f\u205f\u2800\u3000\u3164\uffa0\ufeff]{4,}/g;

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
    .replace(BLANK_RUN, (run) => ` [${run.length} ${/^ +$/.test(run) ? 'spaces' : 'blanks'}] `)
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

/** A tool as its block's header names it. */
interface Headed {
  readonly name: string;
  readonly verbs?: readonly [string, string];
}

/**
 * A call's block header while it is asked about and runs: its verb and the whole subject (`Run npm test`), or its
 * name and subject; the first line of its detail (turn/calls/prepare.ts).
 */
export function callHeading(tool: Headed, subject: string): string {
  if (!tool.verbs) return callDetail(tool.name, subject);
  return subject ? `${tool.verbs[0]} ${visible(subject)}` : tool.verbs[0];
}

/**
 * The header's first line once the call has ended (`Ran npm test`), to which its status is added; null for a tool
 * with no verbs, whose header says "done" or "failed" instead.
 */
export function doneHeading(tool: Headed, subject: string): string | null {
  if (!tool.verbs) return null;
  const first = visible(subject).split('\n')[0];
  return first ? `${tool.verbs[1]} ${first}` : tool.verbs[1];
}

// The one door to the screen. Text is made safe to show here: terminal
// control sequences (cursor moves, OSC titles and clipboard writes, bells) are
// removed, other control characters dropped, tabs expanded, lone surrogates
// replaced, and bidirectional overrides and isolates named (<U+202E>), as the
// approval view names them: one could make text read otherwise than it is.
// What comes out is `Inert`, a type nothing else makes; the transcript, the
// status bar and the views take only that, so no path (a stream, a resumed
// log, an MCP server's words, milk's own notes) reaches the screen without
// passing here. Blessed tag escaping belongs to the views. Pure.

const SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[@-Z\\-_]|[ -/]*[0-~])|\x9b[0-?]*[ -/]*[@-~]|\x9d[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Embeddings, overrides and isolates; the marks (U+200E, U+200F) that right-to-left text needs stay. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/g;

export const TRANSCRIPT_TAB = '    ';

declare const inert: unique symbol;

/** Text that can do nothing to a terminal but be shown: only sanitize() makes it (kernel/stream-sanitizer.ts by it). */
export type Inert = string & { readonly [inert]: true };

/** Nothing to show. */
export const EMPTY = '' as Inert;

export function sanitize(text: string): Inert {
  return text
    .replace(/\r\n/g, '\n')
    .replace(SEQUENCE, '')
    .replace(/\t/g, TRANSCRIPT_TAB)
    .replace(CONTROL, '')
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(BIDI_CONTROL, (ch) => `<U+${ch.charCodeAt(0).toString(16).toUpperCase()}>`) as Inert;
}

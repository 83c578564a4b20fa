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

/** Whatever sanitize would change starts with one of these: text without any (nearly all) is inert as it is. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;

/** Whether text is inert as it is (sanitize would leave it unchanged). */
export function isInert(text: string): text is Inert {
  return !UNSAFE.test(text);
}

export function sanitize(text: string): Inert {
  if (!UNSAFE.test(text)) return text as Inert;
  return text
    .replace(/\r\n/g, '\n')
    .replace(SEQUENCE, '')
    .replace(/\t/g, TRANSCRIPT_TAB)
    .replace(CONTROL, '')
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(BIDI_CONTROL, (ch) => `<U+${ch.charCodeAt(0).toString(16).toUpperCase()}>`) as Inert;
}

// What keeps text inert, so that a view's words need no second pass: milk's own literals (made safe once, where they
// are written), and inert text cut, joined and padded.

const ownParts = new WeakMap<TemplateStringsArray, readonly Inert[]>();

/**
 * milk's own words, with inert text or numbers in them: own`${count} of ${total} · ${name}`. The literal parts are
 * sanitized the first time their place in the code runs and kept; the holes are inert already.
 */
export function own(strings: TemplateStringsArray, ...holes: ReadonlyArray<Inert | number>): Inert {
  let parts = ownParts.get(strings);
  if (!parts) ownParts.set(strings, (parts = strings.map(sanitize)));
  let out: string = parts[0];
  for (let i = 0; i < holes.length; i++) out += holes[i] + parts[i + 1];
  return out as Inert;
}

/** The lines of inert text. */
export function linesOf(text: Inert): Inert[] {
  return text.split('\n') as Inert[];
}

/** Inert text `n` times over (none for n ≤ 0). */
export function repeatInert(text: Inert, n: number): Inert {
  return (n > 0 ? text.repeat(n) : '') as Inert;
}

/** `n` spaces (none for n ≤ 0). */
export function spaces(n: number): Inert {
  return (n > 0 ? ' '.repeat(n) : '') as Inert;
}

/** Inert parts joined by an inert separator. */
export function joinInert(parts: readonly Inert[], separator: Inert): Inert {
  return parts.join(separator) as Inert;
}

/** Part of inert text: only its ends can be half of a surrogate pair, made whole again by sanitize when they are. */
export function sliceInert(text: Inert, from: number, to?: number): Inert {
  const part = text.slice(from, to);
  const first = part.charCodeAt(0);
  const last = part.charCodeAt(part.length - 1);
  const halved = (first >= 0xdc00 && first <= 0xdfff) || (last >= 0xd800 && last <= 0xdbff);
  return halved ? sanitize(part) : (part as Inert);
}

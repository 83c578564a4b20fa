// Where a stream of Markdown may be cut into parts that render alone exactly
// as they do together, found line by line without a parser: a line that
// begins at column 0 after a blank line begins a new top-level block, unless
// a fenced code block is open (the fences are followed here) or it is a list
// item (which may continue the list before the blank line). Nothing else can
// carry a block across a blank line and a line at column 0 (html is off).
// Found in a fraction of the time markdown-it's block rules take; where the
// text holds what a line scan cannot follow (a fence opened inside a list
// item, a carriage return), it answers null and the parser decides
// (blockCuts: markdown-it's block rules, no inline parse). Pure.

import { blockParser } from './parsers';
import { blockStarts } from './render';

/** A list item's marker: it may continue a list across the blank line before it. */
const LIST_ITEM = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
/** A fence that opens at column 0: its marker, and for backticks an info string without one. */
const OPENER = /^(`{3,}|~{3,})(.*)$/;
/** A fence opening one to three columns in, as it does inside a list item: which container it is in takes a parser. */
const INDENTED_OPENER = /^ {1,3}(?:`{3,}|~{3,})/;
const BLANK = /^[ \t]*$/;

function closes(line: string, fence: string): boolean {
  let at = 0;
  while (at < 3 && line.charCodeAt(at) === 32) at++;
  let run = 0;
  while (line[at + run] === fence[0]) run++;
  return run >= fence.length && BLANK.test(line.slice(at + run));
}

/**
 * Offsets in `text` (ascending, each the start of a newline-ended line) where
 * a top-level block begins and the text may be cut, or null when the scan
 * cannot tell. `text` must itself start at a block's start, outside any fence.
 */
export function safeCuts(text: string): number[] | null {
  if (text.includes('\r')) return null;
  const cuts: number[] = [];
  let fence = '';
  let blank = false;
  for (let at = 0; at < text.length;) {
    const end = text.indexOf('\n', at);
    // A line still arriving may yet become a list item or a fence: it is not looked at until it ends.
    if (end === -1) break;
    const line = text.slice(at, end);
    if (fence) {
      if (closes(line, fence)) fence = '';
    } else {
      const c = line.charCodeAt(0);
      if (blank && at > 0 && line.length > 0 && c !== 32 && c !== 9 && !LIST_ITEM.test(line)) cuts.push(at);
      if (c === 96 || c === 126) {
        const m = OPENER.exec(line);
        if (m && !(m[1][0] === '`' && m[2].includes('`'))) fence = m[1];
      } else if (c === 32 && INDENTED_OPENER.test(line)) {
        return null;
      }
    }
    blank = !fence && BLANK.test(line);
    at = end + 1;
  }
  return cuts;
}

/**
 * Where top-level blocks after the first begin in `text`, each a place the
 * text may be cut: by a line scan, or where it cannot tell, by markdown-it's
 * block rules (no inline parse).
 */
export function blockCuts(text: string): number[] {
  const quick = safeCuts(text);
  if (quick) return quick;
  const tokens = blockParser().parse(text, {});
  const cuts: number[] = [];
  let line = 0;
  let at = 0;
  for (const k of blockStarts(tokens).slice(1)) {
    const start = tokens[k].map?.[0];
    if (start === undefined) continue;
    for (; line < start; line++) {
      const nl = text.indexOf('\n', at);
      if (nl === -1) return cuts;
      at = nl + 1;
    }
    cuts.push(at);
  }
  return cuts;
}

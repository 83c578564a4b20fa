// A model's stream made inert chunk by chunk: an escape sequence cut between two chunks waits for the rest instead of
// leaking as text. Pure.

import { type Inert, sanitize } from '../protocol/inert';

// An escape sequence may be cut between two stream chunks; the unfinished tail
// (at most this long) waits for the next chunk instead of leaking as text.
const MAX_HELD = 256;
const UNFINISHED =
  // eslint-disable-next-line no-control-regex
  /(?:\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[PX^_][^\x1b]*\x1b?|[ -/]*)?|\x9b[0-?]*[ -/]*|\x9d[^\x07\x1b\x9c]*|[\ud800-\udbff])$/;

/** Sanitizes a stream chunk by chunk, holding back an unfinished escape sequence. */
export class StreamSanitizer {
  private held = '';

  push(chunk: string): Inert {
    const text = this.held + chunk;
    const m = UNFINISHED.exec(text);
    if (m && m[0].length > 0 && m[0].length <= MAX_HELD) {
      this.held = m[0];
      return sanitize(text.slice(0, text.length - m[0].length));
    }
    this.held = '';
    return sanitize(text);
  }

  /** The stream ended: what was held back is dropped if it is still a fragment. */
  end(): Inert {
    const rest = this.held;
    this.held = '';
    return sanitize(rest.replace(UNFINISHED, ''));
  }
}

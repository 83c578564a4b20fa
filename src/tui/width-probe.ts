// Asks the terminal how wide it draws the emoji sequences terminals disagree
// on: each probe is drawn on the bottom row and followed by a cursor
// position request, and the column in each answer is its width. No answer in
// time (a terminal that ignores the request) leaves the assumed widths.

import type { EmojiWidths } from '../editor/width';

const PROBES = [
  '\u{1F469}\u200d\u{1F469}\u200d\u{1F467}',
  '\u{1F44D}\u{1F3FD}',
  '\u2764\ufe0f',
  '\u{1F1EF}\u{1F1F5}',
] as const;
const WAIT_MS = 500;

/** The widths the answers show; what they do not settle stays as it was. Pure. */
export function widthsFrom(advances: readonly number[], base: EmojiWidths): EmojiWidths {
  const [zwj, modifier, vs16, flag] = advances;
  return {
    zwj: zwj === 2 ? 'cluster' : zwj === 6 ? 'sum' : base.zwj,
    modifier: modifier === 2 ? 'cluster' : modifier === 4 ? 'sum' : base.modifier,
    vs16: vs16 === 1 || vs16 === 2 ? vs16 : base.vs16,
    flag: flag === 1 || flag === 2 || flag === 4 ? flag : base.flag,
  };
}

export class WidthProbe {
  private readonly advances: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private done = true;

  /** `assumed`: the widths in use until the answers come; what they do not settle stays so. */
  constructor(
    private readonly assumed: EmojiWidths,
    private readonly onResult: (widths: EmojiWidths | null) => void,
  ) {}

  /** Draws the probes on `row` (1-based, at least 2) and asks where the cursor ended. */
  start(write: (data: string) => void, row: number): void {
    this.done = false;
    const r = Math.max(2, row);
    write(PROBES.map((p) => `\x1b[${r};1H\x1b[2K${p}\x1b[6n`).join('') + `\x1b[${r};1H\x1b[2K`);
    this.timer = setTimeout(() => this.finish(null), WAIT_MS);
    this.timer.unref();
  }

  /** A cursor position report arrived; true when it was one of ours. */
  answer(col: number): boolean {
    if (this.done) return false;
    this.advances.push(col - 1);
    if (this.advances.length === PROBES.length) this.finish(widthsFrom(this.advances, this.assumed));
    return true;
  }

  stop(): void {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private finish(widths: EmojiWidths | null): void {
    if (this.done) return;
    this.stop();
    this.onResult(widths);
  }
}

// Pastes that come as keystrokes: a terminal without bracketed paste (or a
// tool that types) sends a pasted text as plain characters, its newlines as
// Enter. A person cannot type past an Enter within one read of the terminal,
// nor press Enter and go on typing within a few milliseconds; a paste does
// both. Such a burst is held and handed on as one paste, so an Enter inside
// it is a newline instead of sending half a message (Codex's paste-burst
// rule). Typed text is never held: it is echoed as it comes, and only an
// Enter right after fast text waits, BURST_WAIT_MS at most, to see whether
// more follows. Pure: the caller gives each read's time and runs the timer.

import type { InputAction } from './input';

/** How long an Enter that ended fast text waits for more, and how long a burst stays open after its last bytes. */
export const BURST_WAIT_MS = 30;

type Joining = Extract<InputAction, { kind: 'text' | 'key' }>;

function isEnter(a: InputAction): boolean {
  return a.kind === 'key' && (a.key === 'enter' || a.key === 'C-j');
}

/** What a paste can hold: text, Enter and Tab (a tab in pasted code is not a completion). */
function joins(a: InputAction): a is Joining {
  return a.kind === 'text' || isEnter(a) || (a.kind === 'key' && a.key === 'tab');
}

function asText(a: Joining): string {
  if (a.kind === 'text') return a.text;
  return a.key === 'tab' ? '\t' : '\n';
}

export class PasteBurst {
  /** A burst being gathered, handed on as one paste when it ends. */
  private held: string | null = null;
  /** Enters that ended fast text: a paste's newlines if text follows at once, else keys. */
  private pending: Joining[] = [];
  /** When the held burst or the pending Enters last grew. */
  private lastAt = -Infinity;
  /** When text last came. */
  private lastTextAt = -Infinity;

  /** One read's actions, arrived at `now`; returns what goes on now. */
  feed(actions: readonly InputAction[], now: number): InputAction[] {
    const out: InputAction[] = [];
    let i = 0;
    while (i < actions.length) {
      if (!joins(actions[i])) {
        this.end(out);
        out.push(actions[i++]);
        continue;
      }
      let j = i;
      while (j < actions.length && joins(actions[j])) j++;
      this.run(actions.slice(i, j) as Joining[], now, out);
      i = j;
    }
    return out;
  }

  /** Milliseconds until tick() has something to do, or null. */
  due(now: number): number | null {
    if (this.held === null && this.pending.length === 0) return null;
    return Math.max(0, this.lastAt + BURST_WAIT_MS - now);
  }

  /** The timer: a burst or an Enter that waited long enough with nothing after it goes on. */
  tick(now: number): InputAction[] {
    const out: InputAction[] = [];
    if (this.due(now) === 0) this.end(out);
    return out;
  }

  /** A run of text, Enters and Tabs within one read. */
  private run(run: readonly Joining[], now: number, out: InputAction[]): void {
    const soon = now - this.lastAt <= BURST_WAIT_MS;
    const hasText = run.some((a) => a.kind === 'text');
    if (this.held !== null && soon) return this.hold(this.held + run.map(asText).join(''), now);
    if (this.pending.length > 0 && soon && hasText)
      return this.hold(this.pending.map(asText).join('') + run.map(asText).join(''), now);
    this.end(out);
    const enter = run.findIndex(isEnter);
    const textBefore =
      run.slice(0, Math.max(0, enter)).some((a) => a.kind === 'text') || now - this.lastTextAt <= BURST_WAIT_MS;
    if (enter !== -1 && textBefore && run.slice(enter).some((a) => a.kind === 'text'))
      return this.hold(run.map(asText).join(''), now);
    let tail = run.length;
    while (tail > 0 && isEnter(run[tail - 1])) tail--;
    for (const a of run.slice(0, tail)) out.push(a);
    if (hasText) this.lastTextAt = now;
    // Enters right after fast text wait to see whether more comes.
    if (tail < run.length && textBefore) {
      this.pending = run.slice(tail);
      this.lastAt = now;
    } else {
      for (const a of run.slice(tail)) out.push(a);
    }
  }

  private hold(text: string, now: number): void {
    this.held = text;
    this.pending = [];
    this.lastAt = now;
    this.lastTextAt = now;
  }

  /** Whatever waits goes on: the burst as one paste, or the Enters as keys. */
  private end(out: InputAction[]): void {
    if (this.held !== null) out.push({ kind: 'paste', text: this.held });
    for (const a of this.pending) out.push(a);
    this.held = null;
    this.pending = [];
  }
}

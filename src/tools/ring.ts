// The output a background command keeps: the newest `cap` characters of what
// it printed (older ones dropped, counted), each reader's place in it by the
// total written so far, and its last line for a listing. Pure.

export class Ring {
  private kept = '';
  /** Characters written since the start, dropped ones included. */
  private written = 0;

  constructor(private readonly cap: number) {}

  get total(): number {
    return this.written;
  }

  append(text: string): void {
    if (!text) return;
    this.written += text.length;
    const joined = this.kept + text;
    // Cut in one go when well past the cap, so a chatty command costs a copy now and then, not at every chunk.
    this.kept = joined.length > this.cap * 2 ? joined.slice(joined.length - this.cap) : joined;
  }

  /**
   * What was written after `from` (a total an earlier read returned), at most `max` characters of its end; how many
   * it misses (dropped from the ring, or past `max`), and the total to read from next time.
   */
  since(from: number, max: number): { text: string; missed: number; next: number } {
    const start = this.written - this.kept.length;
    const begin = Math.max(from, start, this.written - max);
    return { text: this.kept.slice(begin - start), missed: begin - Math.min(from, begin), next: this.written };
  }

  /** The last line with anything on it, for a listing ('' for none). */
  lastLine(): string {
    const lines = this.kept.slice(-4096).split(/\r?\n|\r/);
    for (let i = lines.length - 1; i >= 0; i--) if (lines[i].trim()) return lines[i];
    return '';
  }
}

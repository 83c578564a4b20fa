// The part of a streamed answer not yet frozen (markdown/stream.ts), as it came. Pure.

/**
 * Text not yet frozen, kept in the pieces it came in and joined only as far
 * as a window needs: appending each chunk to one string would make a rope
 * that every search flattens, copying the whole backlog of a burst once a
 * window (a megabyte, sixty times over).
 */
export class Backlog {
  private head = '';
  private parts: string[] = [];
  private partsLength = 0;

  get length(): number {
    return this.head.length + this.partsLength;
  }

  push(text: string): void {
    this.parts.push(text);
    this.partsLength += text.length;
  }

  /** The backlog's first `n` characters at least (all of it if shorter), as one string to search. */
  front(n: number): string {
    if (this.head.length >= n || this.parts.length === 0) return this.head;
    let take = 0;
    for (let got = this.head.length; take < this.parts.length && got < n; take++) got += this.parts[take].length;
    const taken = this.parts.splice(0, take);
    for (const part of taken) this.partsLength -= part.length;
    this.head += taken.join('');
    return this.head;
  }

  all(): string {
    return this.front(Infinity);
  }

  /** Drops the first `n` characters, all of them inside what front() last returned. */
  drop(n: number): void {
    this.head = this.head.slice(n);
  }

  set(text: string): void {
    this.head = text;
    this.parts = [];
    this.partsLength = 0;
  }
}

// Where the transcript's view is: the rows hidden below it (0 follows the bottom), and the serials that name its
// rows while it grows: a row's serial, the rows ever added at the bottom less the rows below it, stays the same as
// rows arrive below, so a selection or copy mode's cursor keeps to its text; rows moving anywhere else (a new width,
// an entry above laid out again) start a new epoch, in which old serials lapse. Pure.

export interface SavedView {
  readonly below: number;
  readonly grown: number;
}

export class ViewPosition {
  /** Rows hidden below the view; 0 follows the bottom. */
  private hidden = 0;
  /** Rows added at the bottom, ever (less any taken away there). */
  private grown = 0;
  private epochCount = 0;

  get below(): number {
    return this.hidden;
  }

  get following(): boolean {
    return this.hidden === 0;
  }

  /** Serials are good while this stays the same. */
  get epoch(): number {
    return this.epochCount;
  }

  /** The serial of the row `fromBottom` rows above the bottom one. */
  serialOf(fromBottom: number): number {
    return this.grown - fromBottom;
  }

  /** How many rows are below the row with this serial. */
  fromBottom(serial: number): number {
    return this.grown - serial;
  }

  /** Rows changed by `delta`: at the bottom the transcript grew there; anywhere else the rows above moved. */
  moved(atBottom: boolean, delta: number): void {
    if (atBottom) this.grown += delta;
    else this.epochCount++;
  }

  /** Someone reading back keeps their place while new rows arrive below. */
  keepStill(added: number): void {
    if (this.hidden > 0) this.hidden += added;
  }

  /** Every row was laid out again (`count` of them now): serials lapse, and the view stays within the rows. */
  relaidOut(count: number): void {
    this.epochCount++;
    this.hidden = Math.min(this.hidden, Math.max(0, count - 1));
  }

  /** The transcript was emptied. */
  cleared(): void {
    this.hidden = 0;
    this.epochCount++;
  }

  /** Scrolled by `delta` rows (negative: back in time), within `count` rows and a view `height` tall. */
  scroll(delta: number, count: number, height: number): void {
    const max = Math.max(0, count - height);
    this.hidden = Math.min(max, Math.max(0, this.hidden - delta));
  }

  toBottom(): void {
    this.hidden = 0;
  }

  /** The row `fromBottom` brought into a view `height` tall, moved only when it is out of it (then to its middle). */
  show(fromBottom: number, count: number, height: number): void {
    if (fromBottom >= this.hidden && fromBottom < this.hidden + height) return;
    const max = Math.max(0, count - height);
    this.hidden = Math.min(max, Math.max(0, fromBottom - Math.floor(height / 2)));
  }

  save(): SavedView {
    return { below: this.hidden, grown: this.grown };
  }

  /** Back where `saved` was (the rows that arrived below since counted), within `count` rows and a view `height`. */
  restore(saved: SavedView, count: number, height: number): void {
    const max = Math.max(0, count - Math.max(1, height));
    this.hidden = saved.below === 0 ? 0 : Math.min(max, saved.below + this.grown - saved.grown);
  }
}

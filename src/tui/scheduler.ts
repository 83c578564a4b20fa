// Coalesces render requests into at most one paint per frame. Everything asks
// for a render; only this calls paint. The first request after a quiet spell
// paints on the next tick, so a keystroke is never held for a whole frame.

export class RenderScheduler {
  private pending = false;
  private lastPaint = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly paint: () => void, private readonly frameMs = 16) {}

  request(): void {
    if (this.pending || this.stopped) return;
    this.pending = true;
    const wait = Math.max(0, this.lastPaint + this.frameMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pending = false;
      if (this.stopped) return;
      this.lastPaint = Date.now();
      this.paint();
    }, wait);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

// Paints one frame: lays the composer out (it grows with its content up to a
// third of the screen, then scrolls to the cursor), hands the transcript box
// only its visible rows, draws the status bar, and puts the terminal cursor
// where the next character will land. Owns the view-only state that needs
// (the composer's scroll top, the transcript's height and scroll requests)
// and blessed's internals; reads everything else from its sources.

import type { Bus } from '../kernel/bus';
import type { EmojiWidths } from '../editor/width';
import type { Screen } from './screen';
import type { StatusModel } from './status-model';
import type { TranscriptModel } from './transcript-model';
import { TranscriptMarks, composerView, transcriptRows } from './views';
import { statusRow } from './status-row';
import { coloured, renderMarkdown } from '../markdown/render';
import type { GridRow } from '../kernel/rows';
import type { PaintContext, ViewPaint } from '../composer/views/view';
import type { Frame } from '../composer/coordinator-types';
import type { HistoryMode } from '../settings/store';
import type { KeyNames } from '../composer/views/registry';

export interface PaintSources {
  transcript: TranscriptModel;
  /** How the terminal draws emoji sequences (the settings'). */
  emoji: () => EmojiWidths;
  status: StatusModel;
  /** What the composer and the views over it show in one frame (the coordinator's), asked for once per paint. */
  frame: () => Frame;
  /** The keys as bound, which the views' titles name. */
  keys: KeyNames;
  /** The history Up/Down walk, which the search's overlay names. */
  historyMode: () => HistoryMode;
  /** What stands above the composer when no view paints there (the model's checklist), if anything. */
  panel?: () => ViewPaint | null;
  /** What the transcript lights up: a selection, copy mode's cursor, a search's matches. */
  marks?: () => TranscriptMarks | null;
}

/** The overlay's rows at most: a title and eight matches. */
const OVERLAY_ROWS = 9;

/** How often a frame takes a window of a burst of an answer (see paint). */
const BURST_FRAME_MS = 30;

/** Rows the mouse wheel scrolls per notch. */
const WHEEL_ROWS = 3;

export class Painter {
  private composerTop = 0;
  /** When a frame last took a window of a burst. */
  private burstAt = 0;
  /** The frame that takes the burst's next window, once due. */
  private burstTimer: NodeJS.Timeout | null = null;
  private cursor = { row: 0, col: 0 };
  private transcriptHeight = 10;
  /** The transcript as the last frame showed it. */
  private shown = { rows: 0, following: false, width: 0, height: 0 };

  constructor(
    private readonly ui: Screen,
    private readonly bus: Bus,
    private readonly sources: PaintSources,
  ) {
    const { transcript } = sources;
    transcript.setWidth(ui.transcript.size().width);
    transcript.setHeight(ui.transcript.size().height);
    bus.on('transcript.scroll', ({ pages }) => {
      transcript.scroll(pages * Math.max(1, this.transcriptHeight - 1), this.transcriptHeight);
      bus.requestRender();
    });
    bus.on('input.wheel', ({ dir }) => {
      transcript.scroll(dir === 'up' ? -WHEEL_ROWS : WHEEL_ROWS, this.transcriptHeight);
      bus.requestRender();
    });
    ui.screen.on('render', () => {
      const box = ui.composer.box;
      const program = ui.screen.program as typeof ui.screen.program & {
        _write(text: string): unknown;
        cursorHidden: boolean;
      };
      program.cup((box.atop as number) + 1 + this.cursor.row, (box.aleft as number) + 1 + this.cursor.col);
      // Shown when something hid it (blessed at start, or taking the terminal back): DECTCEM alone, once.
      if (program.cursorHidden) program._write('\x1b[?25h');
      program.cursorHidden = false;
    });
  }

  /**
   * An answer growing at the bottom moves every row of the transcript up: the
   * terminal is told to scroll its region by the rows added (and blessed's
   * record of the screen shifts with it), so a frame writes only the new rows
   * instead of the whole transcript again. Whatever else changed is still
   * found by the cell-by-cell comparison, so a wrong guess costs bytes, never
   * a wrong screen.
   */
  private scrollRegion(transcriptShown: boolean, size: { width: number; height: number }): void {
    const model = this.sources.transcript;
    const now = { rows: model.rowCount, following: model.following && transcriptShown, ...size };
    const before = this.shown;
    this.shown = now;
    if (!now.following || !before.following || now.width !== before.width || now.height !== before.height) return;
    // Rows are drawn from the top until the box is full; only then does a new row push the others up.
    const shift = Math.max(0, now.rows - now.height) - Math.max(0, before.rows - now.height);
    if (shift <= 0 || shift >= now.height) return;
    const top = this.ui.transcript.box.top as number;
    this.ui.screen.deleteLine(shift, top, top, top + now.height - 1);
  }

  /** The last Markdown a view asked for, as rows: a plan open over several frames is parsed once per width. */
  private rendered: { src: string; width: number; rows: GridRow[] } | null = null;

  private markdown(src: string, width: number, emoji: EmojiWidths): GridRow[] {
    const r = this.rendered;
    if (r && r.src === src && r.width === width) return r.rows;
    const rows = renderMarkdown(src, width, emoji).map((row): GridRow => coloured(row));
    this.rendered = { src, width, rows };
    return rows;
  }

  /** The overlay's paint and rows: the topmost view's, else the panel's. Before the transcript is measured: a panel, or
   * a question, takes its rows from it. */
  private overlaid(viewed: ViewPaint | null): { overlay: ViewPaint | null; shown: number } {
    const panel = viewed ? null : (this.sources.panel?.() ?? null);
    const overlay = viewed ?? panel;
    const pushes = panel !== null || viewed?.pushes === true;
    return { overlay, shown: this.ui.setOverlayRows(Math.min(OVERLAY_ROWS, overlay ? overlay.wanted : 0), pushes) };
  }

  paint(): void {
    const { ui, sources } = this;
    // A burst of an answer is rendered a window a frame, in frames at least BURST_FRAME_MS apart:
    // a key's frame in between paints what is there at once, instead of waiting for another window.
    const now = Date.now();
    const render = now - this.burstAt >= BURST_FRAME_MS;
    sources.transcript.beginFrame(render);
    if (render) this.burstAt = now;
    const frame = sources.frame();
    const emoji = sources.emoji();
    const width = ui.composer.size().width;
    const view = composerView(
      frame.editor,
      width,
      ui.maxComposerRows(),
      this.composerTop,
      emoji,
      frame.highlight ?? undefined,
    );
    ui.setComposerRows(view.contentRows);
    this.composerTop = view.top;
    ui.setComposerMarker(composerMarker(view.top, view.contentRows - view.top - view.rows.length));
    ui.composer.setRows(view.rows);
    this.cursor = { row: view.cursorRow, col: view.cursorCol };

    const { transcript: inPlace } = frame.paints;
    const { overlay, shown } = this.overlaid(frame.paints.overlay);
    const t = ui.transcript.size();
    sources.transcript.setWidth(t.width);
    sources.transcript.setHeight(t.height);
    this.transcriptHeight = t.height;
    const at = (width: number, height: number): PaintContext => ({
      width,
      height,
      emoji,
      keys: sources.keys,
      now: Date.now(),
      historyMode: sources.historyMode(),
      markdown: (src, w) => this.markdown(src, w, emoji),
    });
    this.scrollRegion(inPlace === null, t);
    ui.transcript.setRows(
      inPlace
        ? inPlace.rows(at(t.width, t.height))
        : transcriptRows(sources.transcript, t.height, sources.marks?.(), emoji),
    );
    // Rows laid out for this view (an answer's part reached: its guessed rows became real ones) moved nothing on
    // screen.
    this.shown.rows = sources.transcript.rowCount;
    if (overlay && shown > 0) ui.overlay.setRows(overlay.rows(at(ui.overlay.size().width, shown)));
    ui.status.setRows([statusRow(sources.status.snapshot(Date.now(), frame), ui.status.size().width, emoji)]);
    ui.screen.render();
    // The frames go on until the burst is all shown, each when the next window is due: not sooner,
    // or half of them would paint only to find no window allowed yet.
    if (sources.transcript.pending && !this.burstTimer) {
      this.burstTimer = setTimeout(
        () => {
          this.burstTimer = null;
          this.bus.requestRender();
        },
        Math.max(0, this.burstAt + BURST_FRAME_MS - Date.now()),
      );
      this.burstTimer.unref();
    }
  }
}

/** What the composer's border says when its text is taller than the rows shown: the lines above and below them. */
export function composerMarker(above: number, below: number): string | null {
  const parts: string[] = [];
  if (above > 0) parts.push(`↑ ${above} more above`);
  if (below > 0) parts.push(`↓ ${below} more below`);
  return parts.length ? ` ${parts.join(' · ')} ` : null;
}

// Ctrl-Z and Ctrl+L, as in every full-screen program. Suspending hands the
// terminal back first (alternate screen left, raw mode, paste and mouse
// modes off, cursor shown), then stops; SIGCONT (fg) takes it again and
// repaints everything. An external SIGTSTP takes the same path. Ctrl+L
// repaints every cell, whatever the terminal holds now.

import type { Widgets } from 'blessed';
import type { TerminalInput } from './terminal';

export interface JobControl {
  suspend(): void;
  redraw(): void;
  /** Rewrites one screen row (0-based) whatever the terminal holds there now. */
  redrawRow(y: number): void;
  uninstall(): void;
}

/** Blessed has these (its own spawn uses them) but its typings leave them out. */
type Screen = Widgets.Screen & { enter(): void; leave(): void; lines: Array<{ dirty?: boolean }>; olines: Array<Array<[number, string]>> };

export function installJobControl(o: { screen: Widgets.Screen; terminal: TerminalInput; paint: () => void }): JobControl {
  const screen = o.screen as Screen;
  let stopped = false;
  const redraw = (): void => {
    // realloc marks every cell dirty: the next paint rewrites the whole screen.
    screen.realloc();
    o.paint();
  };
  const redrawRow = (y: number): void => {
    // A cell blessed believes holds nothing is written again at the next draw.
    for (const cell of screen.olines[y] ?? []) cell[1] = '';
    if (screen.lines[y]) screen.lines[y].dirty = true;
    o.paint();
  };
  const suspend = (): void => {
    if (stopped) return;
    stopped = true;
    o.terminal.restore();
    screen.leave();
    // SIGSTOP, not SIGTSTP: milk handles SIGTSTP itself, and this must stop whatever it is.
    process.kill(process.pid, 'SIGSTOP');
  };
  const resume = (): void => {
    if (!stopped) return;
    stopped = false;
    screen.enter();
    o.terminal.start();
    redraw();
  };
  process.on('SIGTSTP', suspend);
  process.on('SIGCONT', resume);
  return {
    suspend,
    redraw,
    redrawRow,
    uninstall() {
      process.off('SIGTSTP', suspend);
      process.off('SIGCONT', resume);
    },
  };
}

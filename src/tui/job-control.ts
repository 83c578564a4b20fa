// Ctrl-Z and Ctrl+L, as in every full-screen program. Suspending hands the
// terminal back first (alternate screen left, raw mode, paste and mouse
// modes off, cursor shown), then stops; once fg continues milk it takes the
// terminal again, before anything else can write, and repaints everything.
// A stop from outside that milk could not catch (SIGSTOP) gets a repaint at SIGCONT. An external SIGTSTP takes the same
// path. Ctrl+L repaints every cell, whatever the terminal holds now.

import type { Widgets } from 'blessed';
import type { TerminalInput } from './terminal';

export interface JobControl {
  suspend(): void;
  /** Gives the terminal back while `run` runs (an external editor), then takes it again and repaints. */
  handOver(run: () => void): void;
  redraw(): void;
  /** Rewrites one screen row (0-based) whatever the terminal holds there now. */
  redrawRow(y: number): void;
  uninstall(): void;
}

/** Blessed has these (its own spawn uses them) but its typings leave them out. */
type Screen = Widgets.Screen & {
  enter(): void;
  leave(): void;
  lines: Array<{ dirty?: boolean }>;
  olines: Array<Array<[number, string]>>;
};

/** Row `y` written whole at the next paint. */
function redrawRow(screen: Screen, y: number, paint: () => void): void {
  // A cell blessed believes holds nothing is written again at the next draw.
  for (const cell of screen.olines[y] ?? []) cell[1] = '';
  if (screen.lines[y]) screen.lines[y].dirty = true;
  paint();
}

export function installJobControl(o: {
  screen: Widgets.Screen;
  terminal: TerminalInput;
  paint: () => void;
}): JobControl {
  const screen = o.screen as Screen;
  let stopped = false;
  /** The SIGCONT that follows a stop of milk's own: already taken care of. */
  let ownStop = false;
  const redraw = (): void => {
    // realloc marks every cell dirty: the next paint rewrites the whole screen.
    screen.realloc();
    o.paint();
  };
  const resume = (): void => {
    if (!stopped) return;
    stopped = false;
    screen.enter();
    // The alternate screen first (blessed holds its writes until the next tick), then the input modes, then the frame.
    screen.program.flush();
    o.terminal.start();
    redraw();
  };
  const suspend = (): void => {
    if (stopped) return;
    stopped = true;
    o.terminal.restore();
    screen.leave();
    screen.program.flush();
    // SIGSTOP, not SIGTSTP: milk handles SIGTSTP itself, and this must stop whatever it is.
    process.kill(process.pid, 'SIGSTOP');
    // A signal a process sends itself is delivered before kill returns: this runs once fg has continued milk,
    // before any paint that fell due meanwhile (SIGCONT's handler would come after them, onto the shell's screen).
    resume();
    ownStop = true;
  };
  const handOver = (run: () => void): void => {
    if (stopped) return run();
    stopped = true;
    o.terminal.restore();
    screen.leave();
    screen.program.flush();
    try {
      run();
    } finally {
      resume();
    }
  };
  const continued = (): void => {
    if (ownStop) ownStop = false;
    else redraw();
  };
  process.on('SIGTSTP', suspend);
  process.on('SIGCONT', continued);
  return {
    suspend,
    handOver,
    redraw,
    redrawRow: (y) => redrawRow(screen, y, o.paint),
    uninstall() {
      process.off('SIGTSTP', suspend);
      process.off('SIGCONT', continued);
    },
  };
}

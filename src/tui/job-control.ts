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
  /** Gives the terminal to `run` (an editor) until it settles, then takes it back; nothing is painted meanwhile. */
  handOver(run: () => Promise<void>): Promise<void>;
  /** The terminal is another program's now (handOver): painting waits. */
  isHandedOver(): boolean;
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

/** The terminal as the shell had it: input modes back, the alternate screen left. */
function leaveScreen(screen: Screen, terminal: TerminalInput): void {
  terminal.restore();
  screen.leave();
  screen.program.flush();
}

interface JobControlOptions {
  screen: Widgets.Screen;
  terminal: TerminalInput;
  paint: () => void;
}

export function installJobControl(o: JobControlOptions): JobControl {
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
  const leave = (): void => {
    stopped = true;
    leaveScreen(screen, o.terminal);
  };
  const suspend = (): void => {
    if (stopped) return;
    leave();
    // SIGSTOP, not SIGTSTP: milk handles SIGTSTP itself, and this must stop whatever it is.
    process.kill(process.pid, 'SIGSTOP');
    // A signal a process sends itself is delivered before kill returns: this runs once fg has continued milk,
    // before any paint that fell due meanwhile (SIGCONT's handler would come after them, onto the shell's screen).
    resume();
    ownStop = true;
  };
  let handedOver = false;
  const handOver = async (run: () => Promise<void>): Promise<void> => {
    if (stopped) return run();
    handedOver = true;
    leave();
    try {
      await run();
    } finally {
      handedOver = false;
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
    isHandedOver: () => handedOver,
    redraw,
    redrawRow: (y) => redrawRow(screen, y, o.paint),
    uninstall() {
      process.off('SIGTSTP', suspend);
      process.off('SIGCONT', continued);
    },
  };
}

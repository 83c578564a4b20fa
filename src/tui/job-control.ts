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
  uninstall(): void;
}

/** Blessed has these (its own spawn uses them) but its typings leave them out. */
type Screen = Widgets.Screen & { enter(): void; leave(): void };

export function installJobControl(o: { screen: Widgets.Screen; terminal: TerminalInput; paint: () => void }): JobControl {
  const screen = o.screen as Screen;
  let stopped = false;
  const redraw = (): void => {
    // realloc marks every cell dirty: the next paint rewrites the whole screen.
    screen.realloc();
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
    uninstall() {
      process.off('SIGTSTP', suspend);
      process.off('SIGCONT', resume);
    },
  };
}

// Builds the blessed screen and its three areas (transcript, composer, status
// bar), patches blessed's width table with milk's own, and has blessed compile
// terminal capabilities when first used. Blessed gets a dead
// input stream: keys come through milk's own decoder (see input.ts).

// The module object itself, not an interop copy: patching its charWidth must reach blessed.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import unicode = require('neo-blessed/lib/unicode');
import { PassThrough } from 'node:stream';
// The module object itself: blessed calls execFileSync through it (withoutTmuxProbe).
// eslint-disable-next-line @typescript-eslint/no-require-imports
import childProcess = require('node:child_process');
import type { Widgets } from 'blessed';
import { EmojiWidths, codePointWidth } from '../editor/width';
import { createGrid, Grid, Look, themeAttrs } from './grid';
import type { Background } from '../settings/theme';
import type { RoleColours } from '../settings/palette';
import { installDraw } from './draw';

// Only the two widgets milk draws with: blessed's index loads all forty (an image decoder among them).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ScreenWidget = require('neo-blessed/lib/widgets/screen') as new (
  options: Widgets.IScreenOptions,
) => Widgets.Screen;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const BoxWidget = require('neo-blessed/lib/widgets/box') as new (options: Widgets.BoxOptions) => Widgets.BoxElement;
const blessed = {
  screen: (options: Widgets.IScreenOptions): Widgets.Screen => new ScreenWidget(options),
  box: (options: Widgets.BoxOptions): Widgets.BoxElement => new BoxWidget(options),
};

type CapCompiler = (this: unknown, info: unknown, key: string, cap: unknown) => unknown;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Tput = require('neo-blessed/lib/tput') as { prototype: { _compile: CapCompiler } };

let patched = false;

/**
 * Blessed compiles every string capability the terminal defines (168 for
 * xterm-256color) into a function with new Function, which no compile cache
 * helps, on each start: about 10 ms, for a few dozen that milk uses. Each is
 * compiled on first use instead. One that does not compile writes nothing
 * rather than stopping milk.
 */
function compileCapsLazily(): void {
  const eager = Tput.prototype._compile;
  Tput.prototype._compile = function (this: unknown, info: unknown, key: string, cap: unknown): unknown {
    // Files named by the terminfo entry are read when compiled: that stays as blessed does it.
    if (typeof cap !== 'string' || cap === '' || key === 'init_file' || key === 'reset_file')
      return eager.call(this, info, key, cap);
    // The Tput the capability belongs to, for when it is first called (by whatever `this`).
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const tput = this;
    let compiled: ((...args: unknown[]) => unknown) | null = null;
    return function (this: unknown, ...args: unknown[]): unknown {
      if (!compiled) {
        try {
          compiled = eager.call(tput, info, key, cap) as (...args: unknown[]) => unknown;
        } catch {
          compiled = () => '';
        }
      }
      return compiled.apply(this, args);
    };
  };
}

/** Blessed thinks emoji are one cell wide; borders then shift. Teach it ours. */
export function patchBlessedWidths(): void {
  if (patched) return;
  patched = true;
  compileCapsLazily();
  const original = unicode.charWidth;
  (unicode as { charWidth: typeof unicode.charWidth }).charWidth = (str: string | number, i?: number): number => {
    const cp = typeof str === 'number' ? str : unicode.codePointAt(str, i ?? 0);
    if (cp === 0x09) return original(str, i);
    return codePointWidth(cp);
  };
}

export interface ScreenOptions {
  output: NodeJS.WriteStream;
  /** The terminal type blessed should assume. */
  term?: string;
  /** False under NO_COLOR: attributes only, no colour anywhere. */
  color?: boolean;
  /** How the terminal draws emoji sequences (the settings' answer from the width probe). */
  emoji: () => EmojiWidths;
  /** The background the palette is first made for (the terminal's answer may change it: setPalette). */
  background?: Background;
  /** The person's own colours over it (config `theme`). */
  colors?: RoleColours;
  /** False for a terminal that does not draw italic (underline stands in). */
  italic?: boolean;
  /** Whether links are painted as OSC 8 hyperlinks (the settings' answer), read at each paint. */
  hyperlinks?: () => boolean;
}

export interface Screen {
  readonly screen: Widgets.Screen;
  readonly transcript: Grid;
  readonly composer: Grid;
  readonly status: Grid;
  /** The search overlay, over the transcript's bottom rows, right above the composer. */
  readonly overlay: Grid;
  /** Sets the composer's height in content rows; the transcript takes the rest. */
  setComposerRows(rows: number): void;
  maxComposerRows(): number;
  /** Text on the composer's top border (how many lines are above or below the rows shown), or null for none. */
  setComposerMarker(text: string | null): void;
  /** Takes the palette made for this background, with these colours; the next paint draws every row in it. */
  setPalette(background: Background, colors: RoleColours): void;
  /**
   * Shows the overlay `rows` high (0 hides it); it never takes more than the transcript has. Returns the height given.
   * `pushes`: the transcript ends above it (a panel kept up), rather than going on under it (a search's matches).
   */
  setOverlayRows(rows: number, pushes?: boolean): number;
  destroy(): void;
}

/** Blessed can't parse ncurses-6 terminfo for screen/tmux and drops to 8 colours. */
export function blessedTerm(term: string | undefined): string {
  if (!term || /^(screen|tmux)/.test(term) || term === 'dumb') return 'xterm-256color';
  return term;
}

/**
 * Inside tmux, blessed's program runs `tmux -V` as it is made (about 10 ms of start-up, a process), for its version,
 * which only its all-motion mouse mode reads and milk never asks for. While the screen is made that one call is
 * answered without a process; the version is asked of tmux if it is ever read.
 */
function withoutTmuxProbe(make: () => Widgets.Screen): Widgets.Screen {
  if (!process.env.TMUX) return make();
  const real = childProcess.execFileSync;
  const isProbe = (file: unknown, args: unknown): boolean =>
    file === 'tmux' && Array.isArray(args) && args.length === 1 && args[0] === '-V';
  const skip = ((file: string, args: readonly string[], opts: unknown) =>
    isProbe(file, args) ? '' : real(file, args, opts as object)) as typeof real;
  childProcess.execFileSync = skip;
  let screen: Widgets.Screen;
  try {
    screen = make();
  } finally {
    childProcess.execFileSync = real;
  }
  let version: number | null = null;
  Object.defineProperty(screen.program, 'tmuxVersion', {
    configurable: true,
    get: () => {
      if (version !== null) return version;
      try {
        const said = /^tmux ([\d.]+)/i.exec(real('tmux', ['-V'], { encoding: 'utf8' }).trim());
        version = said ? Number(said[1]) : 2;
      } catch {
        version = 2;
      }
      return version;
    },
  });
  return screen;
}

/** Blessed's screen on milk's own input (a PassThrough: milk reads the terminal itself). */
function blessedScreen(options: ScreenOptions): Widgets.Screen {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  return withoutTmuxProbe(() =>
    blessed.screen({
      input: input as unknown as NodeJS.ReadStream,
      output: options.output,
      terminal: blessedTerm(options.term ?? process.env.TERM),
      fullUnicode: true,
      // Every terminal milk targets speaks UTF-8; ACS line drawing breaks under tmux and screen.
      forceUnicode: true,
      smartCSR: true,
      autoPadding: false,
      warnings: false,
      title: 'milk',
      dockBorders: false,
    }),
  );
}

/** DEC private mode 2026, synchronized output: the begin and end of a frame. */
export const BEGIN_SYNC = '\x1b[?2026h';
export const END_SYNC = '\x1b[?2026l';

/**
 * Whole frames. Blessed holds everything it writes in one tick (a paint, the
 * scroll region's shift, the clear and repaint of a resize, the cursor's
 * place) and writes it at the next; that one write goes inside the DEC 2026
 * brackets, so a terminal that knows them never shows half a frame, and one
 * that does not ignores them. Holding it stays blessed's: milk's own direct
 * writes (the width probe, the keyboard queries) keep their order before it.
 * (The screen's first write is scheduled before milk can wrap blessed's
 * flush, so the write itself is wrapped.)
 */
function syncFrames(screen: Widgets.Screen): void {
  const program = screen.program as unknown as { _owrite(text: string): unknown };
  // Every write blessed makes goes through here: its tick's flush (one per frame), and the few it makes at once.
  const write = program._owrite.bind(program);
  program._owrite = (text: string): unknown => write(BEGIN_SYNC + text + END_SYNC);
}

/**
 * The palette for the terminal's colours (`look`, read at each paint, and how to take another: `theme`),
 * and the composer border's style in it.
 */
function palette(
  screen: Widgets.Screen,
  options: ScreenOptions,
): { border: object; look: () => Look; theme: (background: Background, colors: RoleColours) => void } {
  // Draw box characters as UTF-8, not through the DEC line-drawing set: the
  // same on every terminal, and copy-paste and tmux capture show real lines.
  const tput = (screen as unknown as { tput: { brokenACS: boolean; colors: number } }).tput;
  tput.brokenACS = true;
  const attrsFor = (background: Background, own: RoleColours) =>
    themeAttrs({
      colors: tput.colors,
      noColor: options.color === false,
      background,
      italic: options.italic !== false,
      own,
    });
  let attrs = attrsFor(options.background ?? 'dark', options.colors ?? {});
  const hyperlinks = options.hyperlinks ?? (() => true);
  const look = (): Look => ({ attrs, hyperlinks: hyperlinks() });
  const theme = (background: Background, own: RoleColours): void => void (attrs = attrsFor(background, own));
  // Bright black (8) exists from 16 colours up; below, the border takes the terminal's own colour.
  return { border: options.color === false || tput.colors < 16 ? {} : { border: { fg: 8 } }, look, theme };
}

/** Sets the text on a box's top border, touching blessed only when it changes. */
function borderMarker(box: Widgets.BoxElement): (text: string | null) => void {
  let marker: string | null = null;
  return (text) => {
    if (text === marker) return;
    marker = text;
    if (text === null) box.removeLabel();
    else box.setLabel({ text, side: 'right' });
  };
}

/**
 * The overlay `at.rows` high right above the composer, at most the transcript's height less one row, so some of the
 * conversation always shows; over the transcript's bottom rows, or (`pushes`: a panel kept up while the conversation
 * goes on) in their place, the transcript ending above it.
 */
function placeOverlay(
  overlay: Widgets.BoxElement,
  transcript: Widgets.BoxElement,
  composer: Widgets.BoxElement,
  at: { rows: number; pushes: boolean },
): void {
  const o = Math.min(at.rows, (transcript.height as number) - 1);
  if (o <= 0) {
    overlay.hide();
    return;
  }
  if (at.pushes) transcript.height = (transcript.height as number) - o;
  overlay.top = (composer.top as number) - o;
  overlay.height = o;
  overlay.show();
}

export function createScreen(options: ScreenOptions): Screen {
  patchBlessedWidths();
  const screen = blessedScreen(options);
  syncFrames(screen);
  installDraw(screen, (ch) => unicode.charWidth(ch));
  const { border, look, theme } = palette(screen, options);
  let composerRows = 1;
  const grid = (box: Widgets.BoxElement): Grid => createGrid(box, options.emoji, look);
  const transcript = grid(blessed.box({ parent: screen, top: 0, left: 0, width: '100%', height: 1 }));
  const composer = grid(
    blessed.box({ parent: screen, left: 0, width: '100%', height: 3, border: { type: 'line' }, style: border }),
  );
  const status = grid(blessed.box({ parent: screen, left: 0, width: '100%', height: 1 }));
  // Created last, so it is drawn over the transcript.
  const overlay = grid(blessed.box({ parent: screen, left: 0, width: '100%', height: 1, hidden: true }));
  const overlayAt = { rows: 0, pushes: false };
  const place = (): void => {
    const rows = screen.height as number;
    const c = Math.min(composerRows, maxComposerRows()) + 2;
    status.box.top = rows - 1;
    composer.box.top = Math.max(0, rows - 1 - c);
    composer.box.height = c;
    transcript.box.height = Math.max(1, rows - 1 - c);
    placeOverlay(overlay.box, transcript.box, composer.box, overlayAt);
  };
  const maxComposerRows = (): number => Math.max(1, Math.floor((screen.height as number) / 3) - 2);
  screen.on('resize', place);
  place();

  return {
    screen,
    transcript,
    composer,
    status,
    overlay,
    setOverlayRows(rows: number, pushes = false) {
      if (rows !== overlayAt.rows || pushes !== overlayAt.pushes) {
        overlayAt.rows = rows;
        overlayAt.pushes = pushes;
        place();
      }
      return overlay.box.hidden ? 0 : (overlay.box.height as number);
    },
    setComposerRows(rows: number) {
      if (rows === composerRows) return;
      composerRows = rows;
      place();
    },
    maxComposerRows,
    setComposerMarker: borderMarker(composer.box),
    setPalette: theme,
    destroy() {
      screen.destroy();
    },
  };
}

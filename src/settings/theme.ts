// Which palette milk draws with, and whether links are hyperlinks: the
// person's choice (config `theme` and `hyperlinks`, /theme) over what the
// terminal says of itself (its answer to OSC 11, else COLORFGBG; TERM and
// friends for hyperlinks). Pure.

export type ThemeChoice = 'auto' | 'dark' | 'light';
/** Which background a palette is made to read on. */
export type Background = 'dark' | 'light';
export type HyperlinkChoice = 'auto' | 'on' | 'off';

export const THEME_CHOICES: readonly ThemeChoice[] = ['auto', 'dark', 'light'];

export function isThemeChoice(value: string): value is ThemeChoice {
  return (THEME_CHOICES as readonly string[]).includes(value);
}

/** OSC 11's query: the terminal answers with its background colour. */
export const BACKGROUND_QUERY = '\x1b]11;?\x1b\\';

/**
 * The colour in an answer to OSC 11 (`rgb:RRRR/GGGG/BBBB`, each 1 to 4 hex
 * digits; xterm also sends `rgba:` with a fourth), as fractions of full, or
 * null for anything else.
 */
export function parseColor(spec: string): [number, number, number] | null {
  const m = /^rgba?:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})(?:\/[0-9a-f]{1,4})?$/i.exec(spec.trim());
  if (!m) return null;
  const part = (hex: string): number => parseInt(hex, 16) / (16 ** hex.length - 1);
  return [part(m[1]), part(m[2]), part(m[3])];
}

/** Light when the colour's luminance (Rec. 709, on linear light) is past the middle grey people see as middle. */
export function backgroundOf([r, g, b]: readonly [number, number, number]): Background {
  const linear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  // 0.18 linear is the perceptual middle (L* 50).
  return y > 0.18 ? 'light' : 'dark';
}

/**
 * COLORFGBG (rxvt, Konsole, some others): "fg;bg" or "fg;default;bg", the
 * last field an ANSI colour number. 7 and 9 to 15 are light; 0 to 6 and 8
 * dark. Null when unset or unreadable.
 */
export function backgroundOfColorFgBg(value: string | undefined): Background | null {
  const last = value?.split(';').pop();
  if (last === undefined || !/^\d+$/.test(last)) return null;
  const n = Number(last);
  if (n > 15) return null;
  return n === 7 || n >= 9 ? 'light' : 'dark';
}

/** The palette to draw with: the choice, else what the terminal said, else dark (most terminals). */
export function paletteFor(choice: ThemeChoice, detected: Background | null): Background {
  return choice === 'auto' ? (detected ?? 'dark') : choice;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A terminal that shows what it does not know as text, or knows no more
 * than a VT100: the Linux console, a dumb terminal, a vt*, Emacs's term.
 */
function plainTerminal(env: Env): boolean {
  const term = env.TERM ?? '';
  return term === 'linux' || term === 'dumb' || term.startsWith('vt') || Boolean(env.INSIDE_EMACS);
}

/**
 * Whether the terminal may be sent OSC 8 hyperlinks. `auto`: every terminal
 * but those known to show the sequence as text or to drop it (the plain
 * ones above, GNU screen, Apple's Terminal).
 */
export function hyperlinksFor(choice: HyperlinkChoice, env: Env): boolean {
  if (choice !== 'auto') return choice === 'on';
  if (plainTerminal(env) || ((env.TERM ?? '').startsWith('screen') && !env.TMUX)) return false;
  return env.TERM_PROGRAM !== 'Apple_Terminal';
}

/** Whether the terminal may be asked OSC 11: not one that would print the question. */
export function mayAskBackground(env: Env): boolean {
  return !plainTerminal(env);
}

/**
 * Whether the terminal draws SGR 3 as italic. Blessed's terminfo reader
 * predates the italic capability, so the name decides: the Linux console
 * shows it as a colour, and tmux under TERM=screen as reverse video (it
 * draws italic under tmux-256color); nearly every other terminal has it.
 */
export function italicFor(env: Env): boolean {
  return !plainTerminal(env) && !(env.TERM ?? '').startsWith('screen');
}

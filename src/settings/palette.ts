// The person's own colours (config `theme` as `{"base": …, "colors": {ROLE: COLOR}}`) and milk's built-in palettes:
// a role is one of the styles the screen draws with (kernel/rows.ts' Style), a colour a name, a number of the
// 256-colour ramp, `#rrggbb` (the ramp's nearest) or `default` (the terminal's own), with `FG on BG` for a role
// drawn on a background. What is wrong is said naming what is known. NO_COLOR still wins (tui/grid.ts). Pure.

import type { Style } from '../kernel/rows';
import { type ThemeChoice, isThemeChoice } from './theme';

/** Every role, in the order the docs list them: a record over Style, so that a style left out does not compile. */
const ROLE_ORDER: Readonly<Record<Style, true>> = {
  normal: true,
  dim: true,
  bold: true,
  italic: true,
  strike: true,
  user: true,
  error: true,
  warning: true,
  highlight: true,
  paste: true,
  status: true,
  statusStrong: true,
  force: true,
  match: true,
  current: true,
  heading: true,
  heading2: true,
  heading3: true,
  link: true,
  quote: true,
  code: true,
  codeBlock: true,
  codeKeyword: true,
  codeString: true,
  codeComment: true,
  codeNumber: true,
  codeTitle: true,
  codeType: true,
  diffAdd: true,
  diffDel: true,
};

export const ROLES = Object.keys(ROLE_ORDER) as readonly Style[];

/** The terminal's own colour (blessed's "default"). */
export const DEFAULT_COLOUR = 0x1ff;

export interface RoleColour {
  readonly fg: number;
  /** Absent: the role's background as the base palette has it. */
  readonly bg?: number;
}

export type RoleColours = Partial<Record<Style, RoleColour>>;

/** A palette to draw with: its name (what /theme shows), the background it is made for, its own colours. */
export interface Theme {
  readonly name: string;
  readonly base: ThemeChoice;
  readonly colors: RoleColours;
}

const NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

export const COLOUR_WORDS =
  'a name (black, red, green, yellow, blue, magenta, cyan, white, gray, bright-red…), a number from 0 to 255, ' +
  '#rrggbb or default, and "FG on BG" for a background';

/** A colour's number on the 256-colour ramp (DEFAULT_COLOUR for the terminal's own); null when it is not one. */
export function colourNumber(word: string): number | null {
  const w = word.trim().toLowerCase();
  if (w === 'default') return DEFAULT_COLOUR;
  if (w === 'gray' || w === 'grey') return 8;
  const bright = /^bright-(\w+)$/.exec(w);
  if (bright && NAMES.includes(bright[1])) return 8 + NAMES.indexOf(bright[1]);
  if (NAMES.includes(w)) return NAMES.indexOf(w);
  if (/^\d{1,3}$/.test(w)) return Number(w) <= 255 ? Number(w) : null;
  const hex = /^#([0-9a-f]{6}|[0-9a-f]{3})$/.exec(w);
  if (!hex) return null;
  const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
  return nearest256(parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16));
}

/** The cube's or the grey ramp's nearest (16 to 255: the first 16 are whatever the terminal's theme makes them). */
function nearest256(r: number, g: number, b: number): number {
  const steps = [0, 95, 135, 175, 215, 255];
  const step = (c: number): number =>
    steps.reduce((best, s, i) => (Math.abs(s - c) < Math.abs(steps[best] - c) ? i : best), 0);
  const [ri, gi, bi] = [step(r), step(g), step(b)];
  const cube = 16 + 36 * ri + 6 * gi + bi;
  const far = (x: number, y: number, z: number): number => (x - r) ** 2 + (y - g) ** 2 + (z - b) ** 2;
  const grey = Math.max(0, Math.min(23, Math.round(((r + g + b) / 3 - 8) / 10)));
  const level = 8 + grey * 10;
  return far(level, level, level) < far(steps[ri], steps[gi], steps[bi]) ? 232 + grey : cube;
}

/** `FG` or `FG on BG`; what is wrong otherwise. */
export function roleColour(text: string): RoleColour | null {
  const [fgWord, bgWord, ...rest] = text.split(/\s+on\s+/i);
  if (rest.length > 0 || fgWord === undefined) return null;
  const fg = colourNumber(fgWord);
  const bg = bgWord === undefined ? undefined : colourNumber(bgWord);
  if (fg === null || bg === null) return null;
  return bg === undefined ? { fg } : { fg, bg };
}

type ThemeSource = { base?: string; colors?: Record<string, string> };

/** milk's own palettes, as a person would write them in config.json. */
const BUILT_IN: Readonly<Record<string, ThemeSource>> = {
  'solarized-dark': {
    base: 'dark',
    colors: {
      dim: '#586e75',
      user: '#2aa198',
      error: '#dc322f',
      warning: '#b58900 on #073642',
      status: '#93a1a1 on #073642',
      statusStrong: '#eee8d5 on #073642',
      heading: '#268bd2',
      heading2: '#268bd2',
      heading3: '#268bd2',
      link: '#268bd2',
      code: '#b58900',
      codeKeyword: '#859900',
      codeString: '#2aa198',
      codeComment: '#586e75',
      codeNumber: '#d33682',
      codeTitle: '#268bd2',
      codeType: '#b58900',
      diffAdd: '#859900',
      diffDel: '#dc322f',
      paste: '#6c71c4',
    },
  },
  'solarized-light': {
    base: 'light',
    colors: {
      dim: '#93a1a1',
      user: '#268bd2',
      error: '#dc322f',
      warning: '#cb4b16 on #eee8d5',
      status: '#586e75 on #eee8d5',
      statusStrong: '#073642 on #eee8d5',
      heading: '#268bd2',
      heading2: '#268bd2',
      heading3: '#268bd2',
      link: '#268bd2',
      code: '#cb4b16',
      codeKeyword: '#859900',
      codeString: '#2aa198',
      codeComment: '#93a1a1',
      codeNumber: '#d33682',
      codeTitle: '#268bd2',
      codeType: '#b58900',
      diffAdd: '#859900',
      diffDel: '#dc322f',
      paste: '#6c71c4',
    },
  },
  'gruvbox-dark': {
    base: 'dark',
    colors: {
      dim: '#928374',
      user: '#8ec07c',
      error: '#fb4934',
      warning: '#fabd2f on #3c3836',
      status: '#ebdbb2 on #3c3836',
      statusStrong: '#fbf1c7 on #3c3836',
      heading: '#fabd2f',
      heading2: '#fabd2f',
      heading3: '#fabd2f',
      link: '#83a598',
      code: '#fe8019',
      codeKeyword: '#fb4934',
      codeString: '#b8bb26',
      codeComment: '#928374',
      codeNumber: '#d3869b',
      codeTitle: '#83a598',
      codeType: '#fabd2f',
      diffAdd: '#b8bb26',
      diffDel: '#fb4934',
      paste: '#d3869b',
    },
  },
  'high-contrast': {
    base: 'dark',
    colors: {
      normal: 'bright-white',
      dim: 'white',
      user: 'bright-cyan',
      error: 'bright-red',
      warning: 'black on bright-yellow',
      status: 'bright-white on black',
      statusStrong: 'bright-white on black',
      heading: 'bright-yellow',
      heading2: 'bright-yellow',
      heading3: 'bright-yellow',
      link: 'bright-blue',
      code: 'bright-yellow',
      codeComment: 'white',
      diffAdd: 'bright-green',
      diffDel: 'bright-red',
    },
  },
};

export const BUILT_IN_NAMES: readonly string[] = Object.keys(BUILT_IN);

/** The palettes /theme offers: auto, dark, light, the built-in ones, and the config's own (when it is one). */
export function themeList(own: Theme | null): Theme[] {
  const plain = (['auto', 'dark', 'light'] as const).map((base) => ({ name: base, base, colors: {} }));
  const built = BUILT_IN_NAMES.map((name) => readTheme(name) as Theme);
  return [...plain, ...built, ...(own ? [own] : [])];
}

/**
 * config.json's `theme`: `auto`, `dark`, `light` or a built-in palette's name, or `{"base": …, "colors": {ROLE:
 * COLOR}}`; a Theme, or one line saying what is wrong (naming the known roles or colours).
 */
export function readTheme(value: unknown): Theme | { error: string } {
  if (typeof value === 'string') {
    if (isThemeChoice(value)) return { name: value, base: value, colors: {} };
    const built = BUILT_IN[value];
    if (!built) return { error: `theme must be auto, dark, light, ${BUILT_IN_NAMES.join(', ')} or {"base", "colors"}` };
    return fromSource(value, built);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'theme must be a name or {"base": "auto|dark|light", "colors": {ROLE: COLOR}}' };
  const extra = Object.keys(value).filter((k) => k !== 'base' && k !== 'colors');
  if (extra.length) return { error: `theme takes base and colors, not ${extra.join(', ')}` };
  return fromSource('your own', value as ThemeSource);
}

function fromSource(name: string, source: ThemeSource): Theme | { error: string } {
  const base = source.base ?? 'auto';
  if (typeof base !== 'string' || !isThemeChoice(base)) return { error: 'theme.base must be auto, dark or light' };
  const given = source.colors ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    return { error: 'theme.colors must be an object of ROLE: COLOR' };
  const colors: RoleColours = {};
  for (const [role, colour] of Object.entries(given)) {
    if (!(ROLES as readonly string[]).includes(role))
      return { error: `theme.colors: no role "${role.slice(0, 40)}" (the roles: ${ROLES.join(', ')})` };
    const read = typeof colour === 'string' ? roleColour(colour) : null;
    if (!read) return { error: `theme.colors.${role}: not a colour (${COLOUR_WORDS})` };
    colors[role as Style] = read;
  }
  return { name, base, colors };
}

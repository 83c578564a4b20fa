// The theme picker: /theme with no name opens it over the transcript with every palette milk has (auto, dark,
// light, the built-in ones, config.json's own), and the screen takes each as the selection moves onto it, so the
// person sees it before choosing. Enter keeps the one selected for this session; Esc puts back the one there was.

import type { CommandName, KeyNames } from './registry';
import { type Inert, sanitize } from '../../protocol/inert';
import { GridRow, fit } from '../../kernel/rows';
import type { Theme } from '../../settings/palette';
import type { ComposerInput, Effect } from '../state';
import { Handled, PaintContext, View, ViewPaint, consume, viewSpec } from './view';

export const THEMES_SPEC = viewSpec({
  mode: 'themes',
  letters: true,
  commands: {
    'themes.choose': { description: 'Keep the palette shown for this session' },
    'themes.next': { description: 'Show the next palette' },
    'themes.prev': { description: 'Show the previous palette' },
    'themes.cancel': { description: 'Close the list; the palette goes back to the one there was' },
  },
  keys: [
    { keys: ['enter'], command: 'themes.choose' },
    { keys: ['down', 'C-n', 'j'], command: 'themes.next' },
    { keys: ['up', 'C-p', 'k'], command: 'themes.prev' },
    { keys: ['escape', 'C-g', 'C-c', 'q'], command: 'themes.cancel' },
  ],
});

export class ThemePickerView implements View {
  readonly mode = 'themes' as const;

  constructor(
    readonly themes: readonly Theme[],
    /** The palette there was when it opened. */
    readonly was: Theme,
    readonly selected: number,
    /** What is drawn now and why (the background drawn for, the terminal's), above the list. */
    readonly about: string,
  ) {}

  /** Opened on the palette in use (or the first, when it is none of the list's). */
  static open(themes: readonly Theme[], current: Theme, about: string): ThemePickerView {
    const at = themes.findIndex((t) => t.name === current.name);
    return new ThemePickerView(themes, current, at < 0 ? 0 : at, about);
  }

  keyMode(): 'themes' {
    return 'themes';
  }

  handle(input: ComposerInput): Handled {
    if (input.kind !== 'command') return consume(this);
    const n = this.themes.length;
    const show = (theme: Theme, note?: string): Effect[] => [{ type: 'setTheme', theme, ...(note ? { note } : {}) }];
    switch (input.name) {
      case 'themes.next':
      case 'themes.prev': {
        const selected = (this.selected + (input.name === 'themes.next' ? 1 : -1) + n) % n;
        const next = new ThemePickerView(this.themes, this.was, selected, this.about);
        return consume(next, { effects: show(this.themes[selected]) });
      }
      case 'themes.choose': {
        const theme = this.themes[this.selected];
        return consume(null, {
          effects: show(theme, `theme: ${theme.name} for this session (config.json's theme at the next start)`),
        });
      }
      case 'themes.cancel':
        return consume(null, { effects: show(this.was, `theme: ${this.was.name} (unchanged)`) });
      default:
        return consume(this);
    }
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const k = (command: CommandName): string => keys.key('themes', command);
    const legend =
      `${k('themes.prev')}/${k('themes.next')}: show another · ${k('themes.choose')}: keep it · ` +
      `${k('themes.cancel')}: back to ${this.was.name}`;
    return { prompt: sanitize(`theme: ${this.themes[this.selected]?.name ?? ''}`), legend: sanitize(legend) };
  }

  paint(): ViewPaint {
    return { area: 'transcript', wanted: Infinity, rows: (at) => themeRows(this, at) };
  }
}

/** The list, then a sample of the roles people notice, drawn in the palette shown. */
export function themeRows(p: ThemePickerView, { width, emoji }: PaintContext): GridRow[] {
  const line = (text: string, style: GridRow[number]['style'] = 'normal'): GridRow => [
    { text: fit(sanitize(text), width, emoji), style },
  ];
  const rows: GridRow[] = [
    line(p.about, 'bold'),
    line('Palettes, each shown as you move onto it (● the one there was)'),
    [],
  ];
  p.themes.forEach((t, i) => {
    const on = i === p.selected;
    const base = t.base === t.name ? '' : ` (${t.base} base)`;
    rows.push(
      line(`${on ? '›' : ' '}${t.name === p.was.name ? '●' : ' '} ${t.name}${base}`, on ? 'highlight' : 'normal'),
    );
  });
  rows.push([], line('A sample:', 'dim'));
  rows.push(line('# A heading', 'heading'), line('› your input', 'user'));
  rows.push([
    { text: sanitize('Some '), style: 'normal' },
    { text: sanitize('`code`'), style: 'code' },
    { text: sanitize(', a '), style: 'normal' },
    { text: sanitize('link'), style: 'link' },
    { text: sanitize(' and '), style: 'normal' },
    { text: sanitize('dim words'), style: 'dim' },
  ]);
  rows.push(line('+ an added line', 'diffAdd'), line('- a removed line', 'diffDel'), line('an error', 'error'));
  return rows;
}

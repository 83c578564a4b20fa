// How the screen follows the settings: the palette and links as the config
// asks and the terminal allows, the terminal's emoji widths once the probe
// answers, and a repaint (or a relayout) whenever a setting changes.

import type { Bus } from '../kernel/bus';
import { Background, HyperlinkChoice, backgroundOfColorFgBg, hyperlinksFor } from '../settings/theme';
import { type RoleColours, readTheme } from '../settings/palette';
import type { Settings } from '../settings/store';
import type { installJobControl } from './job-control';
import type { Screen } from './screen';
import type { TranscriptModel } from './transcript-model';
import { WidthProbe } from './width-probe';

type JobControl = ReturnType<typeof installJobControl>;

/** The palette and links as the config asks and the environment allows; returns what the first paint draws with. */
export function lookAndFeel(
  settings: Settings,
  options: { theme?: unknown; hyperlinks?: HyperlinkChoice },
  env: Readonly<Record<string, string | undefined>>,
): { background: Background; colors: RoleColours } {
  // config.json's theme was checked as it was read: one that is not a palette here is auto.
  const read = readTheme(options.theme ?? 'auto');
  if (!('error' in read)) settings.setTheme(read);
  // The person's own palette (an object), which /theme offers beside milk's.
  if (!('error' in read) && typeof options.theme === 'object') settings.configTheme = read;
  // Until the terminal answers OSC 11 (or if it never does), COLORFGBG is the best word on it.
  settings.setBackground(backgroundOfColorFgBg(env.COLORFGBG));
  settings.setHyperlinks(hyperlinksFor(options.hyperlinks ?? 'auto', env));
  return { background: settings.palette, colors: settings.theme.colors };
}

/**
 * What the screen does when a setting changes, subscribed once: every change repaints; a new palette
 * (/theme, the terminal's answer) is drawn with; new emoji widths (the probe's answer) lay out and draw everything
 * again.
 */
export function followSettings(
  settings: Settings,
  ui: Screen,
  bus: Bus,
  transcript: TranscriptModel,
  jobs: JobControl,
): void {
  settings.onChange((change) => {
    if (change === 'palette') ui.setPalette(settings.palette, settings.theme.colors);
    if (change === 'emoji') {
      transcript.setEmoji(settings.emoji);
      return jobs.redraw();
    }
    bus.requestRender();
  });
}

/**
 * How wide this terminal draws emoji sequences: asked once, kept in the settings, then everything is laid out and drawn
 * that way.
 */
export function widthProbe(settings: Settings, jobs: JobControl, row: number): WidthProbe {
  return new WidthProbe(settings.emoji, (widths) => {
    // Widths as assumed: only the row the probes were drawn on needs writing again.
    if (!widths || JSON.stringify(widths) === JSON.stringify(settings.emoji))
      return jobs.redrawRow(Math.max(2, row) - 1);
    settings.setEmoji(widths);
  });
}

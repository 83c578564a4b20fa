// What a decoded input does on the full screen: the terminal's answers go to the width probe, the palette and the
// attention; every other input is routed by the views' modes (a chord's first key waits) to the coordinator.

import { Bus } from '../kernel/bus';
import { TurnCoordinator } from '../composer/coordinator';
import { Keymap } from '../tui/keymap';
import { routeChord } from '../tui/router';
import { InputAction, MAX_PASTE_CHARS } from '../tui/input';
import type { Routed } from '../tui/router';
import { WidthProbe } from '../tui/width-probe';
import { Background, backgroundOf, parseColor } from '../settings/theme';

/** What a decoded input does: the router names it by the views' modes, the coordinator takes it. */
export function inputHandler(
  coordinator: TurnCoordinator,
  keymap: Keymap,
  bus: Bus,
  warn: (text: string) => void,
  /** Every key and click routed, and whether it typed text. */
  typed: (text: boolean) => void,
  answers: {
    probe: () => WidthProbe;
    background: (background: Background) => void;
    focus: (focused: boolean) => void;
  },
) {
  // MILK_FAULT=keypress makes the next key throw, to prove the crash path restores the terminal.
  const fault = process.env.MILK_FAULT === 'keypress';
  // The first key of a chord (Ctrl+X), waiting for the second.
  let prefix: string | null = null;
  const take = (r: Routed): void => {
    typed(r.kind === 'text');
    if (r.kind === 'wheel') return bus.emit('input.wheel', { dir: r.dir });
    if (r.kind === 'mouse') return bus.emit('input.mouse', { event: r.event, x: r.x, y: r.y });
    coordinator.dispatch(r);
  };
  return (action: InputAction): void => {
    if (action.kind === 'cpr') return void answers.probe().answer(action.col);
    if (action.kind === 'background') {
      const rgb = parseColor(action.color);
      return rgb ? answers.background(backgroundOf(rgb)) : undefined;
    }
    if (action.kind === 'theme') return answers.background(action.background);
    if (action.kind === 'focus') return answers.focus(action.focused);
    if (fault) throw new Error('injected fault (MILK_FAULT=keypress)');
    if (action.kind === 'paste' && action.cut)
      warn(`the paste was cut at ${MAX_PASTE_CHARS.toLocaleString('en-US')} characters; the rest was dropped`);
    if (action.kind === 'paste' && action.unclosed)
      warn('a paste never ended (its end marker was lost); what came was taken as the paste');
    const step = routeChord(action, coordinator.keyModes(), prefix, keymap);
    prefix = step.prefix;
    for (const r of step.routed) take(r);
  };
}

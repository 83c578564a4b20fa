// The terminal on the full screen: what it answers or reports (the width probe's cursor reports, its background,
// focus) and where that goes, its input side, and frames painted as the screen asks.

import { Bus } from '../kernel/bus';
import { env } from './env';
import { Attention } from '../tui/attention';
import { InputAction } from '../tui/input';
import { RenderScheduler } from '../tui/scheduler';
import { TerminalInput } from '../tui/terminal';
import { WidthProbe } from '../tui/width-probe';
import { Background, mayAskBackground } from '../settings/theme';
import type { AppOptions } from './screen';
import type { Services } from './services';

/**
 * What the terminal answers or reports, and where it goes: the width probe's cursor reports, its background (the
 * palette follows it unless the person chose one), and focus (milk calls for attention only when it is away).
 */
export function terminalAnswers(bus: Bus, s: Services, options: AppOptions, probe: () => WidthProbe) {
  const attention = new Attention(bus, {
    write: (data) => options.output.write(data),
    place: options.displayName,
    notify: options.notify ?? 'bell',
    env: env(options),
  });
  const answers = {
    probe,
    background: (background: Background) => s.settings.setBackground(background),
    focus: (focused: boolean) => attention.focus(focused),
  };
  return { attention, answers };
}

/** The terminal's input side; what it found the terminal speaks is told to /doctor. */
export function terminalInput(s: Services, options: AppOptions, handler: (action: InputAction) => void): TerminalInput {
  const terminal = new TerminalInput(options.input, options.output, handler, undefined, mayAskBackground(env(options)));
  s.terminalFacts.keyboard = () => terminal.keyboardProtocol;
  s.terminalFacts.sync = () => terminal.syncOutput;
  return terminal;
}

/** Frames as the screen asks for them; none while another program (the external editor) has the terminal. */
export function frames(painter: { paint(): void }, handedOver: () => boolean): RenderScheduler {
  return new RenderScheduler(() => {
    if (!handedOver()) painter.paint();
  });
}

// A workspace's own settings (.milk/settings.json) put to the person on the full screen: what trusting them would
// turn on, then the question; until it is answered only the person's own config applies.

import { Bus } from '../kernel/bus';
import { sanitize } from '../protocol/inert';
import { TurnCoordinator } from '../composer/coordinator';
import { PROJECT_SETTINGS, projectLines } from '../config/project-settings';
import type { AppOptions } from './screen';
import type { Services } from './services';

/**
 * A workspace whose own settings the person has not judged (or that changed since): what they would turn on, then the
 * question; until it is answered only the person's own config applies.
 */
export function askTrust(bus: Bus, s: Services, coordinator: TurnCoordinator, options: AppOptions): void {
  const w = options.workspaceSettings;
  if (!w) return;
  const note = (text: string): void => bus.emit('transcript.note', { text: sanitize(text) });
  if (w.state === 'trusted') {
    for (const p of w.read.problems) s.warn(`${PROJECT_SETTINGS}: ${p}`);
    return;
  }
  if (w.state === 'refused') return note(`${PROJECT_SETTINGS} is not applied: you said never (milk trust applies it)`);
  const on = projectLines(w.read.settings);
  // Nothing in it milk could use (not JSON, only unknown keys): nothing to trust, only what is wrong with it.
  if (on.length === 0) {
    for (const p of w.read.problems) s.warn(`${PROJECT_SETTINGS}: ${p}`);
    return;
  }
  note(
    [
      `This workspace has ${PROJECT_SETTINGS}; trusting it would turn on:`,
      ...on.map((l) => `  ${l}`),
      ...w.read.problems.map((p) => `  (left out: ${p})`),
      'Until you trust it, only your own config applies.',
    ].join('\n'),
  );
  const choices = [
    'Trust it (kept for this workspace)',
    'Not now (asked again next time)',
    'Never (milk trust changes it)',
  ];
  coordinator.askOwn(`Trust this workspace's ${PROJECT_SETTINGS}?`, choices, (answer) => {
    const pick = answer.kind === 'option' ? answer.index : 1;
    if (pick === 1) return note(`${PROJECT_SETTINGS} not applied for now; milk asks again next time`);
    const kept = w.trust.set(options.workspace, pick === 0 ? 'trusted' : 'refused', w.read.sha256);
    if (kept) s.warn(kept);
    if (pick === 2) return note(`${PROJECT_SETTINGS} will not be applied (milk trust applies it)`);
    s.applyProject(w.read.settings);
    // Trusted after start-up: its own session_start hooks run now (the person's ran at the start).
    s.hooks.fire('session_start', { source: 'milk' }, undefined, PROJECT_SETTINGS);
    note(`trusted: ${PROJECT_SETTINGS} is in force (milk untrust takes it back)`);
  });
}

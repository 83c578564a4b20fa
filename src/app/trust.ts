// A workspace's own settings (.milk/settings.json), judged once for every front end: trusted ones apply, refused
// or unjudged ones do not, and what trusting them would turn on is put as one question. The full screen asks it (and
// applies the settings on a yes); milk run, with no one to ask, says they are not applied. A front end chooses how
// the question is asked, never whether the settings apply.

import { Bus } from '../kernel/bus';
import { sanitize } from '../protocol/inert';
import { TurnCoordinator } from '../composer/coordinator';
import { PROJECT_SETTINGS, type ProjectRead, type ProjectSettings, projectLines } from '../config/project-settings';
import type { JudgedSettings } from '../config/trust';
import type { AppOptions } from './screen';
import type { Services } from './services';
import { projectCommands } from './control-files';
import { commandWords, runsWorkspaceCode } from '../tools/control-files';
import { oneLine } from '../tools/visible';

/** What becomes of a workspace's own settings at start. */
export type TrustPlan =
  /** In force; what was wrong in them is said. */
  | { kind: 'apply'; settings: ProjectSettings; problems: string[] }
  /** Not applied, and why (refused, or nothing in them milk could use). */
  | { kind: 'leave'; notes: string[]; problems: string[] }
  /** Not judged yet (or changed since): the question, and until it is answered they do not apply. */
  | { kind: 'ask'; name: string; intro: string; question: string; choices: string[] };

/** Trust, not now, never: the question's choices in that order. */
const CHOICES = [
  'Trust it (kept for this workspace)',
  'Not now (asked again next time)',
  'Never (milk trust changes it)',
];

/** Run a workspace file that changed since it was trusted: yes, no. */
const RUN_CHOICES = ['Yes, run it (trusted as it is now)', 'No (not run this session)'];

/**
 * How milk names what is trusted: the settings file, or the whole `.milk/` when it holds agents, commands… too, and
 * `.agents/skills/` when the repository has skills there.
 */
export function trustedName(read: ProjectRead): string {
  const files = read.files ?? [];
  if (!files.length) return PROJECT_SETTINGS;
  // Without a settings file, `file` is the `.milk` folder itself.
  const milk = !/[/\\]\.milk$/.test(read.file) || files.some((f) => f.startsWith('.milk/'));
  if (!files.some((f) => f.startsWith('.agents/'))) return '.milk/';
  return milk ? '.milk/ and .agents/skills/' : '.agents/skills/';
}

const KINDS: Record<string, string> = {
  agents: 'agent',
  commands: 'prompt command',
  skills: 'skill',
  plugins: 'plugin',
};

/** An entry of the question longer than this is cut, its length said: nothing can push another off the screen. */
const MAX_ENTRY = 160;

/**
 * One entry as the question shows it: on one line, controls and invisible code points named and long blank runs
 * counted (tools/visible.ts, as everywhere else), cut past MAX_ENTRY with its length said.
 */
function entry(text: string): string {
  const shown = oneLine(text);
  return shown.length <= MAX_ENTRY ? shown : `${shown.slice(0, MAX_ENTRY)}… (cut: ${text.length} characters in all)`;
}

/**
 * What trusting would turn on, an entry a line: a command that runs the workspace's own code indirectly (npm run, make,
 * an interpreter given a script) says "runs code the agent can edit" (milk trust prints the same).
 */
export function trustLines(settings: ProjectSettings, files: readonly string[] = []): string[] {
  const indirect = (command: string | readonly string[]): boolean =>
    runsWorkspaceCode(typeof command === 'string' ? commandWords(command) : command);
  return [...projectLines(settings, indirect), ...files].map(entry);
}

/** The plan for a workspace's settings; null when it has none. */
export function trustPlan(w: JudgedSettings | null | undefined): TrustPlan | null {
  if (!w) return null;
  const name = trustedName(w.read);
  const problems = w.read.problems.map((p) => `${PROJECT_SETTINGS}: ${p}`);
  if (w.state === 'trusted') return { kind: 'apply', settings: w.read.settings, problems };
  if (w.state === 'refused')
    return { kind: 'leave', notes: [`${name} is not applied: you said never (milk trust applies it)`], problems: [] };
  const files = (w.read.files ?? []).map((f) => `${KINDS[f.split('/')[1]] ?? 'file'}: ${f}`);
  const on = trustLines(w.read.settings, files);
  // Nothing in it milk could use (not JSON, only unknown keys): nothing to trust, only what is wrong with it.
  if (on.length === 0) return { kind: 'leave', notes: [], problems };
  const intro = [
    `This workspace has ${name}; trusting it would turn on:`,
    ...on.map((l) => `  ${l}`),
    ...w.read.problems.map((p) => `  (left out: ${entry(p)})`),
    'Until you trust it, only your own config, agents and commands apply.',
  ].join('\n');
  return { kind: 'ask', name, intro, question: `Trust this workspace's ${name}?`, choices: CHOICES };
}

/** The plan where no one can be asked (milk run): a question unanswered leaves the settings out, and says so. */
export function unattendedTrust(plan: TrustPlan | null): { settings?: ProjectSettings; said: string[] } {
  if (plan === null) return { said: [] };
  if (plan.kind === 'apply') return { settings: plan.settings, said: plan.problems };
  if (plan.kind === 'leave') return { said: [...plan.notes, ...plan.problems] };
  return { said: [`${plan.name} is not applied: this workspace is not trusted (milk trust)`] };
}

/**
 * The full screen's side: the plan carried out, the question asked in the transcript, and a yes applied at once (its
 * own session_start hooks run then: the person's ran at the start).
 */
export function askTrust(bus: Bus, s: Services, coordinator: TurnCoordinator, options: AppOptions): void {
  const note = (text: string): void => bus.emit('transcript.note', { text: sanitize(text) });
  s.late.whenMade(({ vouch }) => {
    vouch.ask = (intro, question) =>
      new Promise((resolve) => {
        note(intro);
        coordinator.askOwn(question, RUN_CHOICES, (a) => resolve(a.kind === 'option' && a.index === 0));
      });
  });
  const w = options.workspaceSettings;
  const plan = trustPlan(w);
  if (!w || plan === null) return;
  if (plan.kind !== 'ask') {
    // Trusted settings are applied with the agent (app/services.ts): only what was wrong in them is said here.
    for (const p of plan.problems) s.warn(p);
    if (plan.kind === 'leave') plan.notes.forEach(note);
    return;
  }
  note(plan.intro);
  coordinator.askOwn(plan.question, plan.choices, (answer) => {
    const pick = answer.kind === 'option' ? answer.index : 1;
    if (pick === 1) return note(`${plan.name} not applied for now; milk asks again next time`);
    const kept = w.trust.set(options.workspace, pick === 0 ? 'trusted' : 'refused', w.read.sha256);
    if (kept) s.warn(kept);
    if (pick === 2) return note(`${plan.name} will not be applied (milk trust applies it)`);
    // The workspace files its hooks and servers run are trusted as they are now: a later change asks again.
    void s.vouch.trustAll(projectCommands(w.read.settings, options.workspace)).then(() => {
      for (const problem of s.applyProject(w.read.settings)) s.warn(problem);
      s.hooks.fire('session_start', { source: 'milk' }, undefined, PROJECT_SETTINGS);
      note(`trusted: ${plan.name} is in force (milk untrust takes it back)`);
    });
  });
}

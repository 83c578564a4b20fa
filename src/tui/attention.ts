// Getting the person's attention when milk needs it: the terminal's title says
// what milk is doing (idle, working, waiting for you) and where; when a turn
// ends or a question waits while the terminal is not focused (it reports focus
// under mode 1004), milk rings the bell, or sends a desktop notification where
// the terminal is known to show one (OSC 9: iTerm2, WezTerm, ghostty, Windows
// Terminal; OSC 777: foot, urxvt, and others that speak it). `notify` in
// config.json: off, bell (the default) or desktop. The sequences are made by
// pure functions; Attention only follows the bus and writes them.

import type { Bus } from '../kernel/bus';
import { sanitize } from '../protocol/inert';

export type NotifyChoice = 'off' | 'bell' | 'desktop';
export type MilkState = 'idle' | 'working' | 'waiting for you';

/** The title: `milk: working · shop · the name` (control characters and long names kept out of it). */
export function titleFor(state: MilkState, place: string, name = ''): string {
  const cut = (text: string): string => {
    const flat = sanitize(text).replace(/[\n\t]/g, ' ');
    return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
  };
  const parts = [cut(place), cut(name)].filter(Boolean);
  return `milk${state === 'idle' ? '' : `: ${state}`}${parts.map((p) => ` · ${p}`).join('')}`;
}

/** OSC 2, ended by ST rather than BEL: a BEL in milk's output is only ever the bell it means to ring. */
export const setTitle = (title: string): string => `\x1b]2;${title}\x1b\\`;

/** Which desktop notification the terminal shows, by what it says it is; null: none known (the bell then). */
export function desktopProtocol(env: Readonly<Record<string, string | undefined>>): 'osc9' | 'osc777' | null {
  const program = env.TERM_PROGRAM ?? '';
  if (/^(iTerm\.app|WezTerm|ghostty)$/.test(program) || env.WT_SESSION) return 'osc9';
  if (/^(foot|rxvt|urxvt)/.test(env.TERM ?? '') || env.VTE_VERSION) return 'osc777';
  return null;
}

/** What to write to get attention for `what`, as `notify` says and the terminal allows; '' for nothing. */
export function notification(
  choice: NotifyChoice,
  env: Readonly<Record<string, string | undefined>>,
  what: string,
): string {
  if (choice === 'off') return '';
  const text = sanitize(what).replace(/[\n;]/g, ' ');
  const desktop = choice === 'desktop' ? desktopProtocol(env) : null;
  if (desktop === 'osc9') return `\x1b]9;${text}\x07`;
  if (desktop === 'osc777') return `\x1b]777;notify;milk;${text}\x07`;
  return '\x07';
}

export class Attention {
  private focused = true;
  private state: MilkState = 'idle';
  /** The conversation's name (/rename), in the title. */
  private name = '';

  constructor(
    bus: Bus,
    private readonly o: {
      write: (data: string) => void;
      place: string;
      notify: NotifyChoice;
      env: Readonly<Record<string, string | undefined>>;
    },
  ) {
    bus.on('turn.started', () => this.become('working'));
    bus.on('approval.answered', () => this.become('working'));
    bus.on('question.answered', () => this.become('working'));
    bus.on('question.asked', ({ plan }) => {
      this.become('waiting for you');
      this.call(plan === undefined ? 'milk: the model asks you a question' : 'milk: the model proposes a plan');
    });
    bus.on('approval.asked', ({ summary }) => {
      this.become('waiting for you');
      this.call(`milk is waiting for you: run ${summary}?`);
    });
    bus.on('turn.ended', ({ status }) => {
      this.become('idle');
      this.call(status === 'error' ? 'milk: the turn failed' : 'milk: the turn is done');
    });
    bus.on('conversation.named', ({ name }) => this.named(name));
    bus.on('session.new', () => this.named(''));
  }

  private named(name: string): void {
    if (name === this.name) return;
    this.name = name;
    this.retitle();
  }

  /** The terminal reported focus (mode 1004): only an unfocused terminal is called to. */
  focus(focused: boolean): void {
    this.focused = focused;
  }

  /** The title, when the terminal is taken (its own was pushed) and again whenever it is handed back. */
  retitle(): void {
    this.o.write(setTitle(titleFor(this.state, this.o.place, this.name)));
  }

  private become(state: MilkState): void {
    if (state === this.state) return;
    this.state = state;
    this.retitle();
  }

  private call(what: string): void {
    if (this.focused) return;
    const data = notification(this.o.notify, this.o.env, what);
    if (data) this.o.write(data);
  }
}

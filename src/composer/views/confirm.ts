// A yes/no question over whatever is beneath it (a search asking before it
// deletes an entry, the step limit's "go on?"): y carries out the effects it was given, n / Esc / Ctrl-C
// / Ctrl+G leave everything as it was (the keys as bound: its legend says
// them). Either way it leaves the stack. It takes nothing else: typing and
// pastes are dropped, never answered.

import type { Events } from '../../kernel/bus';
import type { KeyNames } from './registry';
import type { ComposerInput, Effect } from '../state';
import { Handled, View, consume, opensOn, pass, viewSpec } from './view';
import { type Inert, sanitize } from '../../protocol/inert';

export const CONFIRM_SPEC = viewSpec({
  mode: 'confirm',
  letters: true,
  commands: {
    'confirm.yes': { description: 'Yes: delete it' },
    'confirm.no': { description: 'No: keep it and go on searching' },
  },
  opens: opensOn('turn.limit', askGoOn),
  keys: [
    { keys: ['y'], command: 'confirm.yes' },
    { keys: ['n', 'escape', 'C-c', 'C-g'], command: 'confirm.no' },
  ],
});

export class ConfirmView implements View {
  readonly mode = 'confirm' as const;

  constructor(
    private readonly question: string,
    private readonly onYes: readonly Effect[],
    /** What no carries out (nothing, for a question whose no leaves things as they are). */
    private readonly onNo: readonly Effect[] = [],
  ) {}

  keyMode(): 'confirm' {
    return 'confirm';
  }

  handle(input: ComposerInput): Handled {
    if (input.kind === 'command' && input.name === 'confirm.yes') return consume(null, { effects: this.onYes });
    if (input.kind === 'command' && input.name === 'confirm.no') return consume(null, { effects: this.onNo });
    if (input.kind === 'command' || input.kind === 'text' || input.kind === 'paste') return consume(this);
    return pass(this);
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    return {
      prompt: sanitize(this.question),
      legend: sanitize(`${keys.key('confirm', 'confirm.yes')} yes · ${keys.key('confirm', 'confirm.no')} no`),
    };
  }
}

/** The step limit's question: whether the turn goes on for maxSteps more model requests. */
function askGoOn({ turnId, steps }: Events['turn.limit']): View {
  const question = `this turn has made ${steps} model requests (maxSteps in config.json); go on?`;
  const answer = (goOn: boolean): Effect[] => [{ type: 'goOn', turnId, goOn }];
  return new ConfirmView(question, answer(true), answer(false));
}

// /provider: connecting a model step by step, over the composer — which kind
// of server, its base URL, the model, and its key. Each answer is typed into
// the view itself, never into the composer: nothing of it reaches history or
// the log, and the key is never shown (only how many characters it has). The
// last step hands the answers on (the coordinator writes config.json and
// switches to the provider); Esc leaves everything as it was.

import type { CommandName, KeyNames } from './registry';
import { type Inert, sanitize } from '../../protocol/inert';
import { GridRow, fit } from '../../kernel/rows';
import type { ComposerInput, ComposerState } from '../state';
import { Handled, PaintContext, View, ViewPaint, viewSpec, consume } from './view';

export const PROVIDER_SPEC = viewSpec({
  mode: 'setup',
  // Letters are answers being typed.
  letters: false,
  commands: {
    'setup.next': { description: 'Take the answer and go to the next step (the last: connect)' },
    'setup.up': { description: 'The kind of server above' },
    'setup.down': { description: 'The kind of server below' },
    'setup.backspace': { description: 'Delete the last character of the answer' },
    'setup.clear': { description: 'Clear the answer' },
    'setup.cancel': { description: 'Leave the set-up; nothing changes' },
  },
  keys: [
    { keys: ['enter'], command: 'setup.next' },
    { keys: ['down', 'C-n'], command: 'setup.down' },
    { keys: ['up', 'C-p'], command: 'setup.up' },
    { keys: ['backspace', 'C-h'], command: 'setup.backspace' },
    { keys: ['C-u'], command: 'setup.clear' },
    { keys: ['escape', 'C-g', 'C-c'], command: 'setup.cancel' },
  ],
});

/** A kind of server /provider offers (app/ derives the list from providers/kinds.ts). */
export interface SetupKind {
  /** The provider's name, as --provider takes it. */
  readonly name: string;
  readonly label: string;
  readonly baseUrl: string;
  readonly model: string;
  /** The variable its key may already be in. */
  readonly keyVar: string;
}

export interface SetupAnswers {
  readonly provider: string;
  readonly baseUrl: string;
  readonly model: string;
  /** Empty: none typed (the environment's, or none for a local server). */
  readonly apiKey: string;
}

type Step = 'kind' | 'baseUrl' | 'model' | 'apiKey';
const STEPS: readonly Step[] = ['kind', 'baseUrl', 'model', 'apiKey'];

export class ProviderSetupView implements View {
  readonly mode = 'setup' as const;

  private constructor(
    private readonly kinds: readonly SetupKind[],
    private readonly step: Step,
    private readonly chosen: number,
    private readonly answers: { baseUrl: string; model: string; apiKey: string },
    /** Which variables already hold a key (named, never read out). */
    private readonly keysSet: ReadonlySet<string>,
  ) {}

  static open(kinds: readonly SetupKind[], keysSet: ReadonlySet<string>): ProviderSetupView {
    return new ProviderSetupView(kinds, 'kind', 0, { baseUrl: '', model: '', apiKey: '' }, keysSet);
  }

  keyMode(): 'setup' {
    return 'setup';
  }

  private with(change: Partial<{ step: Step; chosen: number; answers: ProviderSetupView['answers'] }>) {
    return new ProviderSetupView(
      this.kinds,
      change.step ?? this.step,
      change.chosen ?? this.chosen,
      change.answers ?? this.answers,
      this.keysSet,
    );
  }

  private get kind(): SetupKind {
    return this.kinds[this.chosen];
  }

  handle(input: ComposerInput, _composer: ComposerState): Handled {
    if (input.kind === 'text' || input.kind === 'paste') return consume(this.typed(input.text.replace(/[\r\n]/g, '')));
    if (input.kind !== 'command') return consume(this);
    return this.command(input.name);
  }

  private typed(text: string): ProviderSetupView {
    if (this.step === 'kind') return this;
    const field = this.step;
    return this.with({ answers: { ...this.answers, [field]: this.answers[field] + text } });
  }

  private command(name: CommandName): Handled {
    const field = this.step === 'kind' ? null : this.step;
    switch (name) {
      case 'setup.up':
      case 'setup.down': {
        if (this.step !== 'kind') return consume(this);
        const n = this.kinds.length;
        return consume(this.with({ chosen: (this.chosen + (name === 'setup.down' ? 1 : -1) + n) % n }));
      }
      case 'setup.backspace':
        if (!field) return consume(this);
        return consume(
          this.with({ answers: { ...this.answers, [field]: [...this.answers[field]].slice(0, -1).join('') } }),
        );
      case 'setup.clear':
        return consume(field ? this.with({ answers: { ...this.answers, [field]: '' } }) : this);
      case 'setup.cancel':
        return consume(null, { effects: [{ type: 'note', text: 'no change: the provider is as it was' }] });
      case 'setup.next':
        return this.next();
      default:
        return consume(this);
    }
  }

  private next(): Handled {
    if (this.step === 'kind')
      // The kind's defaults, ready to take with Enter or to change.
      return consume(
        this.with({
          step: 'baseUrl',
          answers: { ...this.answers, baseUrl: this.kind.baseUrl, model: this.kind.model },
        }),
      );
    if (this.step === 'baseUrl') {
      const url = this.answers.baseUrl.trim();
      if (!/^https?:\/\/[^\s/]+/.test(url)) return consume(this);
      return consume(this.with({ step: 'model', answers: { ...this.answers, baseUrl: url } }));
    }
    if (this.step === 'model') return consume(this.answers.model.trim() ? this.with({ step: 'apiKey' }) : this);
    const answers: SetupAnswers = {
      provider: this.kind.name,
      baseUrl: this.answers.baseUrl,
      model: this.answers.model.trim(),
      apiKey: this.answers.apiKey.trim(),
    };
    return consume(null, { effects: [{ type: 'setupProvider', answers }] });
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const k = (command: CommandName): string => keys.key('setup', command);
    const n = STEPS.indexOf(this.step) + 1;
    const choose = this.step === 'kind' ? `${k('setup.up')}/${k('setup.down')}: choose · ` : '';
    return {
      prompt: sanitize(`/provider · step ${n} of ${STEPS.length}`),
      legend: sanitize(`${choose}${k('setup.next')}: next · ${k('setup.cancel')}: cancel`),
    };
  }

  paint(): ViewPaint {
    return { area: 'overlay', wanted: this.step === 'kind' ? this.kinds.length + 2 : 3, rows: (at) => this.rows(at) };
  }

  private rows({ width, emoji }: PaintContext): GridRow[] {
    const line = (text: string, style: GridRow[number]['style'] = 'normal'): GridRow => [
      { text: fit(sanitize(text), width, emoji), style },
    ];
    const title = (text: string): GridRow => line(` ${text} `, 'statusStrong');
    if (this.step === 'kind')
      return [
        title('Connect a model: which kind of server?'),
        ...this.kinds.map((kd, i) =>
          line(`${i === this.chosen ? '› ' : '  '}${kd.label}`, i === this.chosen ? 'highlight' : 'normal'),
        ),
        line('  (the answers go to config.json in the data dir, private to you)', 'dim'),
      ];
    const kd = this.kind;
    if (this.step === 'baseUrl')
      return [
        title('Its base URL (Enter takes it as shown)'),
        line(`  ${this.answers.baseUrl}▏`),
        line('  e.g. http://127.0.0.1:11434/v1 for Ollama, http://127.0.0.1:8000/v1 for vLLM', 'dim'),
      ];
    if (this.step === 'model')
      return [
        title('The model to ask'),
        line(`  ${this.answers.model}▏`),
        line('  the name the server knows it by (/model changes it later)', 'dim'),
      ];
    const typed = [...this.answers.apiKey].length;
    const env = this.keysSet.has(kd.keyVar)
      ? `${kd.keyVar} is set: Enter with none typed uses it`
      : 'none for a local server';
    return [
      title('Its API key (typed hidden; kept in config.json, 0600)'),
      line(`  ${typed ? `${typed} characters typed` : 'none typed'}▏`),
      line(`  ${env}`, 'dim'),
    ];
  }
}

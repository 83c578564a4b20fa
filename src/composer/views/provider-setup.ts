// /provider: connecting a model step by step, over the composer — which kind
// of server, its base URL, its key, and the model: the server is asked for
// its models once it and its key are known, and they are offered as /model
// offers them (filtered as typed; a name it does not list can still be typed).
// Each answer is typed into the view itself, never into the composer: nothing
// of it reaches history or the log, and the key is never shown (only how many
// characters it has). The last step hands the answers on (the coordinator
// writes config.json and switches to the provider); Esc leaves everything as
// it was.

import type { CommandName, KeyNames } from './registry';
import { type Inert, sanitize } from '../../protocol/inert';
import { GridRow, fit } from '../../kernel/rows';
import type { ComposerInput, ComposerState } from '../state';
import { PreparedCommands, RankedCommand, prepareCommands, rankCommands } from '../../search/commands';
import { Handled, PaintContext, View, ViewPaint, viewSpec, consume } from './view';

export const PROVIDER_SPEC = viewSpec({
  mode: 'setup',
  // Letters are answers being typed.
  letters: false,
  commands: {
    'setup.next': { description: 'Take the answer and go to the next step (the last: connect)' },
    'setup.up': { description: 'The kind of server (or the model) above' },
    'setup.down': { description: 'The kind of server (or the model) below' },
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

type Step = 'kind' | 'baseUrl' | 'apiKey' | 'model';
// The key before the model: the server is asked for its models with it.
const STEPS: readonly Step[] = ['kind', 'baseUrl', 'apiKey', 'model'];

/** The server's models at the model step: being asked for, listed (filtered by what is typed), or none and why. */
type Listing =
  | { readonly state: 'asking' }
  | { readonly state: 'listed'; readonly models: PreparedCommands; readonly ranked: readonly RankedCommand[] }
  | { readonly state: 'failed'; readonly why: Inert };

/** Listed models shown at once under the typed name. */
const SHOWN = 8;

export class ProviderSetupView implements View {
  readonly mode = 'setup' as const;

  private constructor(
    private readonly kinds: readonly SetupKind[],
    private readonly step: Step,
    private readonly chosen: number,
    private readonly answers: { baseUrl: string; model: string; apiKey: string },
    /** Which variables already hold a key (named, never read out). */
    private readonly keysSet: ReadonlySet<string>,
    private readonly listing: Listing = { state: 'asking' },
    /** The listed model lit (Up/Down), of those the typed name matches. */
    private readonly selected = 0,
  ) {}

  static open(kinds: readonly SetupKind[], keysSet: ReadonlySet<string>): ProviderSetupView {
    return new ProviderSetupView(kinds, 'kind', 0, { baseUrl: '', model: '', apiKey: '' }, keysSet);
  }

  keyMode(): 'setup' {
    return 'setup';
  }

  private with(change: Partial<{ step: Step; chosen: number; answers: ProviderSetupView['answers'] }>) {
    const answers = change.answers ?? this.answers;
    // The list follows what is typed, the kind's own model lit while nothing is.
    const listing = this.listing.state === 'listed' ? listed(this.listing.models, answers.model) : this.listing;
    return new ProviderSetupView(
      this.kinds,
      change.step ?? this.step,
      change.chosen ?? this.chosen,
      answers,
      this.keysSet,
      listing,
      answers.model === this.answers.model ? this.selected : lit(listing, answers.model ? '' : this.kind.model),
    );
  }

  private get kind(): SetupKind {
    return this.kinds[this.chosen];
  }

  handle(input: ComposerInput, _composer: ComposerState): Handled {
    if (input.kind === 'text' || input.kind === 'paste') return consume(this.typed(input.text.replace(/[\r\n]/g, '')));
    if (input.kind === 'modelList') return consume(this.listed(input));
    if (input.kind !== 'command') return consume(this);
    return this.command(input.name);
  }

  /** The server's answer: its models (the kind's own lit, when it lists it), or why there are none. */
  private listed(input: Extract<ComposerInput, { kind: 'modelList' }>): ProviderSetupView {
    const listing: Listing =
      'error' in input
        ? { state: 'failed', why: sanitize(input.error) }
        : listed(prepareCommands(input.models.map((id) => ({ name: sanitize(id), args: '', description: '' }))), '');
    const selected = lit(listing, this.answers.model ? '' : this.kind.model);
    return new ProviderSetupView(this.kinds, this.step, this.chosen, this.answers, this.keysSet, listing, selected);
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
      case 'setup.down':
        return consume(this.moved(name === 'setup.down' ? 1 : -1));
      case 'setup.backspace':
        if (!field) return consume(this);
        return consume(
          this.with({ answers: { ...this.answers, [field]: [...this.answers[field]].slice(0, -1).join('') } }),
        );
      case 'setup.clear':
        return consume(field ? this.with({ answers: { ...this.answers, [field]: '' } }) : this);
      case 'setup.cancel':
        return consume(null, {
          effects: [{ type: 'modelsClosed' }, { type: 'note', text: 'no change: the provider is as it was' }],
        });
      case 'setup.next':
        return this.next();
      default:
        return consume(this);
    }
  }

  private next(): Handled {
    if (this.step === 'kind')
      // The kind's URL, ready to take with Enter or to change; its model is offered at the model step.
      return consume(this.with({ step: 'baseUrl', answers: { ...this.answers, baseUrl: this.kind.baseUrl } }));
    if (this.step === 'baseUrl') {
      const url = this.answers.baseUrl.trim();
      if (!/^https?:\/\/[^\s/]+/.test(url)) return consume(this);
      return consume(this.with({ step: 'apiKey', answers: { ...this.answers, baseUrl: url } }));
    }
    const server = { provider: this.kind.name, baseUrl: this.answers.baseUrl, apiKey: this.answers.apiKey.trim() };
    if (this.step === 'apiKey') {
      // The server is asked for its models with its key (the list comes back as an input).
      const asking = new ProviderSetupView(this.kinds, 'model', this.chosen, this.answers, this.keysSet);
      return consume(asking, { effects: [{ type: 'listSetupModels', server }] });
    }
    const answers: SetupAnswers = { ...server, model: this.model() };
    return consume(null, { effects: [{ type: 'setupProvider', answers }] });
  }

  /** The model Enter takes: the listed one lit, else the name typed, else the kind's own. */
  private model(): string {
    const lit = this.listing.state === 'listed' ? this.listing.ranked[this.selected]?.entry.name : undefined;
    return lit ?? (this.answers.model.trim() || this.kind.model);
  }

  /** Up or Down: the next kind of server, or the next listed model. */
  private moved(by: 1 | -1): ProviderSetupView {
    if (this.step === 'kind') {
      const n = this.kinds.length;
      return this.with({ chosen: (this.chosen + by + n) % n });
    }
    const n = this.step === 'model' && this.listing.state === 'listed' ? this.listing.ranked.length : 0;
    if (n === 0) return this;
    const selected = (this.selected + by + n) % n;
    return new ProviderSetupView(
      this.kinds,
      this.step,
      this.chosen,
      this.answers,
      this.keysSet,
      this.listing,
      selected,
    );
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const k = (command: CommandName): string => keys.key('setup', command);
    const n = STEPS.indexOf(this.step) + 1;
    const choose =
      this.step === 'kind' || (this.step === 'model' && this.listing.state === 'listed')
        ? `${k('setup.up')}/${k('setup.down')}: choose · `
        : '';
    return {
      prompt: sanitize(`/provider · step ${n} of ${STEPS.length}`),
      legend: sanitize(`${choose}${k('setup.next')}: next · ${k('setup.cancel')}: cancel`),
    };
  }

  paint(): ViewPaint {
    const wanted =
      this.step === 'kind'
        ? this.kinds.length + 2
        : this.step === 'model' && this.listing.state === 'listed'
          ? 3 + Math.min(SHOWN, this.listing.ranked.length)
          : 3;
    return { area: 'overlay', wanted, rows: (at) => this.rows(at) };
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
    if (this.step === 'model') return [title('The model to ask (/model changes it later)'), ...this.modelRows(line)];
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

  /** The name typed, then the server's models it matches (the one Enter takes lit), or what the server said. */
  private modelRows(line: (text: string, style?: GridRow[number]['style']) => GridRow): GridRow[] {
    const typed = line(`  ${this.answers.model}▏`);
    const takes = `  Enter takes ${this.answers.model.trim() || this.kind.model} · `;
    const l = this.listing;
    if (l.state === 'asking') return [typed, line(`${takes}asking the server for its models…`, 'dim')];
    if (l.state === 'failed') return [typed, line(`${takes}no list of models from the server: ${l.why}`, 'dim')];
    if (l.ranked.length === 0) return [typed, line(`${takes}the server lists no model by that name`, 'dim')];
    const top = Math.max(0, Math.min(this.selected - Math.floor(SHOWN / 2), l.ranked.length - SHOWN));
    const rows = l.ranked.slice(top, top + SHOWN).map((r, k) => {
      const on = top + k === this.selected;
      // The server's names for its models: anyone's words, made inert as they came.
      return line(`${on ? '› ' : '  '}${r.entry.name}`, on ? 'highlight' : 'normal');
    });
    const count = `${l.ranked.length} of ${l.models.entries.length} models the server lists; type to filter`;
    return [typed, ...rows, line(`  ${count}`, 'dim')];
  }
}

/** The listed models the typed name matches (all of them while none is typed). */
function listed(models: PreparedCommands, query: string): Listing {
  return { state: 'listed', models, ranked: rankCommands(models, query.trim()) };
}

/** Which listed model to light: `name`, where it is listed and nothing is typed; else the best match. */
function lit(listing: Listing, name: string): number {
  if (listing.state !== 'listed' || !name) return 0;
  return Math.max(
    0,
    listing.ranked.findIndex((r) => r.entry.name === name),
  );
}

// The model picker: /model with no name opens it over the transcript while the
// provider's server is asked for its models (GET /v1/models); when the list
// comes, the models are shown, the current one marked, and what is typed
// filters them (search/commands.ts' ranking: prefix, substring, letters in
// order). Enter switches to the selected model (or to the name typed, when no
// listed model matches it: a server may serve more than it lists); Esc leaves
// the model as it was. Until the list comes, or when the server could not
// give one, a name can still be typed and taken.

import type { CommandName, KeyNames } from './registry';
import { type Inert, sanitize } from '../../protocol/inert';
import { GridRow, fit } from '../../kernel/rows';
import { PreparedCommands, RankedCommand, prepareCommands, rankCommands } from '../../search/commands';
import type { ComposerInput } from '../state';
import { Handled, PaintContext, View, ViewPaint, viewSpec, consume } from './view';

export const MODELS_SPEC = viewSpec({
  mode: 'models',
  // Letters are the filter.
  letters: false,
  commands: {
    'models.choose': {
      description: 'Switch to the selected model (or to the name typed, when none matches) for the next turns',
    },
    'models.next': { description: 'The next model in the list' },
    'models.prev': { description: 'The previous model in the list' },
    'models.backspace': { description: 'Delete the last character of the filter' },
    'models.clear': { description: 'Clear the filter' },
    'models.cancel': { description: 'Close the list; the model stays as it was' },
  },
  keys: [
    { keys: ['enter'], command: 'models.choose' },
    { keys: ['down', 'C-n'], command: 'models.next' },
    { keys: ['up', 'C-p'], command: 'models.prev' },
    { keys: ['backspace', 'C-h'], command: 'models.backspace' },
    { keys: ['C-u', 'C-w'], command: 'models.clear' },
    { keys: ['escape', 'C-g', 'C-c'], command: 'models.cancel' },
  ],
});

/** Names longer than this are not model names (a filter typed past it is cut). */
const MAX_QUERY = 200;

type Listing = { readonly state: 'asking' } | { readonly state: 'listed' } | { readonly state: 'failed'; why: string };

export class ModelPickerView implements View {
  readonly mode = 'models' as const;

  private constructor(
    /** The server's words (ids), made inert once. */
    private readonly models: PreparedCommands,
    readonly current: string,
    readonly server: string,
    readonly listing: Listing,
    readonly query: string,
    readonly ranked: readonly RankedCommand[],
    readonly selected: number,
  ) {}

  /** Opened while the server is asked; `server` says which, as the person knows it. */
  static open(current: string, server: string): ModelPickerView {
    const none = prepareCommands([]);
    return new ModelPickerView(none, current, server, { state: 'asking' }, '', [], 0);
  }

  keyMode(): 'models' {
    return 'models';
  }

  private with(query: string, listing = this.listing, models = this.models): ModelPickerView {
    const ranked = rankCommands(models, query);
    // The current model selected while nothing is typed, so Enter alone keeps it.
    const at = query
      ? 0
      : Math.max(
          0,
          ranked.findIndex((r) => r.entry.name === this.current),
        );
    return new ModelPickerView(models, this.current, this.server, listing, query, ranked, at);
  }

  handle(input: ComposerInput): Handled {
    switch (input.kind) {
      case 'modelList': {
        if ('error' in input) return consume(this.with(this.query, { state: 'failed', why: sanitize(input.error) }));
        const entries = input.models.map((id) => ({ name: sanitize(id), args: '', description: '' }));
        return consume(this.with(this.query, { state: 'listed' }, prepareCommands(entries)));
      }
      case 'text':
      case 'paste': {
        const typed = input.text.replace(/\s+/g, '');
        return consume(this.with((this.query + typed).slice(0, MAX_QUERY)));
      }
      case 'command':
        return this.command(input.name);
      default:
        return consume(this);
    }
  }

  private command(name: CommandName): Handled {
    const n = this.ranked.length;
    switch (name) {
      case 'models.next':
      case 'models.prev': {
        if (n === 0) return consume(this);
        const selected = (this.selected + (name === 'models.next' ? 1 : -1) + n) % n;
        return consume(
          new ModelPickerView(this.models, this.current, this.server, this.listing, this.query, this.ranked, selected),
        );
      }
      case 'models.choose': {
        const chosen = this.ranked[this.selected]?.entry.name ?? this.query;
        if (!chosen) return consume(this);
        return consume(null, { effects: [{ type: 'setModel', name: chosen }] });
      }
      case 'models.cancel':
        return consume(null, { effects: [{ type: 'modelsClosed' }] });
      case 'models.backspace':
        return consume(this.with(this.query.slice(0, -1)));
      case 'models.clear':
        return consume(this.with(''));
      default:
        // Every other key waits: the picker is open until a model is chosen or it is left.
        return consume(this);
    }
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const k = (command: CommandName): string => keys.key('models', command);
    const legend =
      `${k('models.choose')}: switch · ${k('models.prev')}/${k('models.next')}: choose · type to filter · ` +
      `${k('models.cancel')}: keep ${this.current}`;
    return { prompt: sanitize(`model: ${this.query}`), legend: sanitize(legend) };
  }

  paint(): ViewPaint {
    return { area: 'transcript', wanted: Infinity, rows: (at) => modelPickerRows(this, at) };
  }
}

/** What the list says above its rows: asking, the count, or why the server gave none. */
function heading(p: ModelPickerView): string {
  const typed = p.query ? ` · Enter takes "${p.query}" as it is` : ' · or type a name';
  if (p.listing.state === 'asking') return `Asking ${p.server} for its models…${typed}`;
  if (p.listing.state === 'failed') return `No list of models from ${p.server}: ${p.listing.why}${typed}`;
  const n = p.ranked.length;
  if (n === 0) return `No listed model matches "${p.query}"; Enter takes it as it is`;
  return `Models at ${p.server}: ${n}${p.query ? ` matching "${p.query}"` : ''} (● the current one)`;
}

/**
 * The picker in the transcript's place: a heading, then one row per model — the current one marked, the selected one
 * lit — scrolled to keep the selection in view.
 */
export function modelPickerRows(p: ModelPickerView, { width, height, emoji }: PaintContext): GridRow[] {
  const rows: GridRow[] = [[{ text: fit(sanitize(heading(p)), width, emoji), style: 'bold' }], []];
  const room = Math.max(1, height - rows.length);
  const top = Math.max(0, Math.min(p.selected - Math.floor(room / 2), p.ranked.length - room));
  p.ranked.slice(top, top + room).forEach((r, k) => {
    const on = top + k === p.selected;
    const name = r.entry.name;
    const line = `${on ? '›' : ' '}${name === p.current ? '●' : ' '} ${name}`;
    // The server's names for its models: anyone's words.
    rows.push([{ text: fit(sanitize(line), width, emoji), style: on ? 'highlight' : 'normal' }]);
  });
  return rows;
}

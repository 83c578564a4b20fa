// The transcript search (Ctrl+X Ctrl+F, or / in copy mode), in two phases as
// `less` has them: typing extends the query and the view follows the newest
// match above where it was; Enter ends the query, and then n and N step to
// the next match up and down. The count (3/17, from the newest) and smart
// case as in history search. Esc puts the view back where it was; Enter
// again leaves it at the match. The corpus is the transcript's text as it was
// when the search opened (search/transcript-search.ts); moving the view and
// lighting the matches are effects the screen carries out.

import type { CommandName, KeyNames } from './registry';
import type { ComposerInput, Effect } from '../state';
import { Handled, View, viewSpec, consume, pass } from './view';
import { type Inert, sanitize } from '../../protocol/inert';
import {
  Found,
  MatchRef,
  TranscriptCorpus,
  countText,
  findAll,
  firstFrom,
  matchRef,
} from '../../search/transcript-search';

export const FIND_SPEC = viewSpec({
  mode: 'find',
  // Letters are the query.
  letters: false,
  commands: {
    'find.backspace': { description: 'Shorten the query' },
    'find.clear': { description: 'Clear the query' },
    'find.done': {
      description: 'The query is complete: {found.next} and {found.prev} step through the matches',
    },
    'find.cancel': { description: 'Leave the search; the view goes back to where it was' },
  },
  keys: [
    { keys: ['backspace', 'C-h'], command: 'find.backspace' },
    { keys: ['C-u', 'C-w'], command: 'find.clear' },
    { keys: ['enter'], command: 'find.done' },
    { keys: ['escape', 'C-g', 'C-c'], command: 'find.cancel' },
  ],
});

export const FOUND_SPEC = viewSpec({
  mode: 'found',
  letters: true,
  commands: {
    'found.next': { description: 'The next match up (older)' },
    'found.prev': { description: 'The next match down (newer)' },
    'found.stay': { description: 'Leave the search with the view at the match' },
    'found.again': { description: 'Type a new query' },
    'find.cancel': FIND_SPEC.commands['find.cancel'],
  },
  keys: [
    { keys: ['n', 'C-x C-f', 'C-r'], command: 'found.next' },
    { keys: ['N', 'C-s'], command: 'found.prev' },
    { keys: ['enter', 'q'], command: 'found.stay' },
    { keys: ['/'], command: 'found.again' },
    { keys: ['escape', 'C-g', 'C-c'], command: 'find.cancel' },
  ],
});

/** A query longer than this is cut: nobody types one, and a paste of a page is not a search. */
const MAX_QUERY = 500;

const NONE: Found = { query: '', matches: [], more: false };

export class TranscriptFindView implements View {
  readonly mode: 'find' | 'found';

  private constructor(
    private readonly corpus: TranscriptCorpus,
    /** Where the view was (a corpus position): the search runs up from there. */
    private readonly origin: number,
    readonly query: string,
    private readonly found: Found,
    /** The match the view is at (an index into found.matches), or -1. */
    readonly at: number,
    typing: boolean,
  ) {
    this.mode = typing ? 'find' : 'found';
  }

  static open(corpus: TranscriptCorpus, origin: number): TranscriptFindView {
    return new TranscriptFindView(corpus, origin, '', NONE, -1, true);
  }

  /** Opened on a query already typed and ended (a conversation opened at a match): at its newest match. */
  static searching(corpus: TranscriptCorpus, origin: number, query: string): Handled {
    const typed = TranscriptFindView.open(corpus, origin).searched(query);
    const view = typed.view as TranscriptFindView;
    const done = new TranscriptFindView(corpus, origin, query, view.found, view.at, false);
    return consume(done, { effects: typed.effects });
  }

  keyMode(): 'find' | 'found' {
    return this.mode;
  }

  get count(): string {
    return countText(this.found, this.at);
  }

  /** The view for `query`, at its first match from where the search began, and the effect that shows it. */
  private searched(query: string): Handled {
    const extends_ = query.startsWith(this.query) ? this.found : undefined;
    const found = findAll(this.corpus, query, extends_);
    const at = firstFrom(found, this.origin);
    const next = new TranscriptFindView(this.corpus, this.origin, query, found, at, true);
    return consume(next, { effects: [next.show()] });
  }

  private show(): Effect {
    const match: MatchRef | null = this.at < 0 ? null : matchRef(this.corpus, this.found, this.at);
    return { type: 'showMatch', query: this.query, match };
  }

  private step(by: 1 | -1): Handled {
    const n = this.found.matches.length;
    if (n === 0) return consume(this);
    const at = (this.at + by + n) % n;
    const next = new TranscriptFindView(this.corpus, this.origin, this.query, this.found, at, false);
    return consume(next, { effects: [next.show()] });
  }

  handle(input: ComposerInput): Handled {
    if (input.kind === 'text' || input.kind === 'paste') {
      if (this.mode === 'found') return consume(this);
      const typed = input.text.replace(/[\r\n]+/g, ' ');
      return this.searched((this.query + typed).slice(0, MAX_QUERY));
    }
    if (input.kind !== 'command') return pass(this);
    return this.command(input.name);
  }

  private command(name: CommandName): Handled {
    switch (name) {
      case 'find.backspace':
        return this.searched([...this.query].slice(0, -1).join(''));
      case 'find.clear':
        return this.searched('');
      case 'find.done':
        if (!this.query) return consume(null, { effects: [{ type: 'endFind', restore: true }] });
        return consume(new TranscriptFindView(this.corpus, this.origin, this.query, this.found, this.at, false));
      case 'find.cancel':
        return consume(null, { effects: [{ type: 'endFind', restore: true }] });
      case 'found.next':
        return this.step(1);
      case 'found.prev':
        return this.step(-1);
      case 'found.stay':
        return consume(null, { effects: [{ type: 'endFind', restore: false }] });
      case 'found.again':
        return consume(new TranscriptFindView(this.corpus, this.origin, '', NONE, -1, true), {
          effects: [{ type: 'showMatch', query: '', match: null }],
        });
      default:
        // Other keys wait: the search is open until it is left.
        return consume(this);
    }
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const count = this.query ? (this.found.matches.length ? ` [${this.count}]` : ' [no match]') : '';
    const prompt = sanitize(`find: ${this.query}${count}`);
    if (this.mode === 'find') {
      const k = (command: CommandName): string => keys.key('find', command);
      return { prompt, legend: sanitize(`${k('find.done')}: done · ${k('find.cancel')}: back`) };
    }
    const k = (command: CommandName): string => keys.key('found', command);
    const steps = `${k('found.next')} ${k('found.prev')}: older newer`;
    const legend = `${steps} · ${k('found.stay')}: stay · ${k('find.cancel')}: back`;
    return { prompt, legend: sanitize(legend) };
  }
}

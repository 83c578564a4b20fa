// /help: what to know first, the keys of the mode the person is in, every
// command and the project's own, in the transcript's place, opened at its top
// (the first steps are what a newcomer needs, and printed into the transcript
// they scrolled off). Scrolled with the pager's keys, searched with `/` (n and
// N step through the lines that match), closed with Esc, q or Ctrl-C; the
// transcript is untouched beneath. Long lines wrap under their description.

import { graphemes, stringWidth, type EmojiWidths } from '../../editor/width';
import { type GridRow, fit, markCells } from '../../kernel/rows';
import { type Inert, sanitize } from '../../protocol/inert';
import type { ComposerInput } from '../state';
import type { CommandName, KeyNames } from './registry';
import { type Handled, type PaintContext, type View, type ViewPaint, consume, pass, viewSpec } from './view';

export const HELP_SPEC = viewSpec({
  mode: 'help',
  letters: true,
  commands: {
    'help.down': { description: 'Scroll down a line' },
    'help.up': { description: 'Scroll up a line' },
    'help.pageDown': { description: 'Scroll down a page' },
    'help.pageUp': { description: 'Scroll up a page' },
    'help.top': { description: 'To the first line' },
    'help.bottom': { description: 'To the last line' },
    'help.search': { description: 'Search the help: type, then {helpQuery.done}' },
    'help.next': { description: 'The next line that matches the search' },
    'help.prev': { description: 'The line before that matches the search' },
    'help.close': { description: 'Close the help' },
  },
  keys: [
    { keys: ['j', 'down'], command: 'help.down' },
    { keys: ['k', 'up'], command: 'help.up' },
    { keys: ['space', 'pagedown', 'C-f'], command: 'help.pageDown' },
    { keys: ['b', 'pageup', 'C-b'], command: 'help.pageUp' },
    { keys: ['g', 'home'], command: 'help.top' },
    { keys: ['G', 'end'], command: 'help.bottom' },
    { keys: ['/', 'C-s'], command: 'help.search' },
    { keys: ['n'], command: 'help.next' },
    { keys: ['N'], command: 'help.prev' },
    { keys: ['escape', 'q', 'C-c', 'C-g'], command: 'help.close' },
  ],
});

/** While a search is typed: letters are the query. */
export const HELP_QUERY_SPEC = viewSpec({
  mode: 'helpQuery',
  letters: false,
  commands: {
    'helpQuery.done': { description: 'Go to the first line that matches, below the top' },
    'helpQuery.backspace': { description: 'Shorten the query' },
    'helpQuery.cancel': { description: 'Leave the search; the help stays where it was' },
  },
  keys: [
    { keys: ['enter'], command: 'helpQuery.done' },
    { keys: ['backspace', 'C-h'], command: 'helpQuery.backspace' },
    { keys: ['escape', 'C-g', 'C-c'], command: 'helpQuery.cancel' },
  ],
});

/** One part of the help: its title and its lines (a key or command, two spaces, what it does). */
export interface HelpSection {
  readonly title: string;
  readonly lines: readonly string[];
}

/** Lines a page moves: the help has no height until it paints, and a fixed page keeps a key's effect predictable. */
const PAGE = 10;
/** A query longer than this is cut: a paste of a page is not a search. */
const MAX_QUERY = 200;

interface Line {
  readonly text: Inert;
  readonly heading: boolean;
}

export class HelpView implements View {
  readonly mode = 'help' as const;

  private constructor(
    private readonly lines: readonly Line[],
    /** The first line shown (a line may wrap onto several rows). */
    readonly top: number,
    /** The search: its query, and whether it is still being typed. */
    readonly query: string,
    readonly typing: boolean,
  ) {}

  /** The sections, at the top; a section with no lines is left out. */
  static open(sections: readonly HelpSection[]): HelpView {
    const lines = sections
      .filter((s) => s.lines.length > 0)
      .flatMap((s, i): Line[] => [
        ...(i > 0 ? [{ text: sanitize(''), heading: false }] : []),
        { text: sanitize(s.title), heading: true },
        ...s.lines.map((l) => ({ text: sanitize(l), heading: false })),
      ]);
    return new HelpView(lines, 0, '', false);
  }

  keyMode(): 'help' | 'helpQuery' {
    return this.typing ? 'helpQuery' : 'help';
  }

  private with(changes: { top?: number; query?: string; typing?: boolean }): HelpView {
    const { top = this.top, query = this.query, typing = this.typing } = changes;
    return new HelpView(this.lines, Math.max(0, Math.min(this.lines.length - 1, top)), query, typing);
  }

  handle(input: ComposerInput): Handled {
    if (this.typing) return this.typed(input);
    if (input.kind !== 'command') return input.kind === 'text' || input.kind === 'paste' ? consume(this) : pass(this);
    const moves: Partial<Record<CommandName, number>> = {
      'help.down': this.top + 1,
      'help.up': this.top - 1,
      'help.pageDown': this.top + PAGE,
      'help.pageUp': this.top - PAGE,
      'help.top': 0,
      'help.bottom': this.lines.length - 1,
    };
    const to = moves[input.name];
    if (to !== undefined) return consume(this.with({ top: to }));
    switch (input.name) {
      case 'help.search':
        return consume(this.with({ query: '', typing: true }));
      case 'help.next':
        return consume(this.with({ top: this.match(1) }));
      case 'help.prev':
        return consume(this.with({ top: this.match(-1) }));
      case 'help.close':
        return consume(null);
      default:
        return consume(this);
    }
  }

  /** A key while the query is typed. */
  private typed(input: ComposerInput): Handled {
    if (input.kind === 'text' || input.kind === 'paste') {
      const query = (this.query + input.text.replace(/[\r\n]+/g, ' ')).slice(0, MAX_QUERY);
      return consume(this.with({ query }));
    }
    if (input.kind !== 'command') return pass(this);
    switch (input.name) {
      case 'helpQuery.done':
        return consume(this.with({ typing: false, top: this.query ? this.match(1) : this.top }));
      case 'helpQuery.backspace':
        return consume(this.with({ query: graphemes(this.query).slice(0, -1).join('') }));
      case 'helpQuery.cancel':
        return consume(this.with({ query: '', typing: false }));
      default:
        return consume(this);
    }
  }

  /** The next line (`step` 1) or the one before (-1) from the top that holds the query, round the end; else the top. */
  private match(step: 1 | -1): number {
    const query = this.query.toLowerCase();
    if (!query) return this.top;
    const n = this.lines.length;
    for (let i = 1; i <= n; i++) {
      const at = (((this.top + step * i) % n) + n) % n;
      if (this.lines[at].text.toLowerCase().includes(query)) return at;
    }
    return this.top;
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    if (this.typing) {
      const k = (command: CommandName): string => keys.key('helpQuery', command);
      const legend = `${k('helpQuery.done')}: find · ${k('helpQuery.cancel')}: back`;
      return { prompt: sanitize(`help: /${this.query}`), legend: sanitize(legend) };
    }
    const k = (command: CommandName): string => keys.key('help', command);
    const scroll = `${k('help.down')} ${k('help.up')} ${k('help.pageDown')} ${k('help.pageUp')}: scroll`;
    const find = this.query ? `${k('help.next')} ${k('help.prev')}: next` : `${k('help.search')}: search`;
    const legend = `${scroll} · ${find} · ${k('help.close')}: close`;
    const prompt = this.query ? `help: /${this.query}` : `help: line ${this.top + 1} of ${this.lines.length}`;
    return { prompt: sanitize(prompt), legend: sanitize(legend) };
  }

  paint(): ViewPaint {
    return { area: 'transcript', wanted: Infinity, rows: (at) => this.rows(at) };
  }

  /** From the top line down, each wrapped; near the end, started earlier so the last page is full. */
  private rows({ width, height, emoji }: PaintContext): GridRow[] {
    const room = Math.max(1, height);
    const wrapped = (line: Line): GridRow[] =>
      wrap(line.text, width, emoji).map((text) => this.marked(text, line.heading ? 'bold' : 'normal', emoji));
    let start = this.top;
    let rows = this.lines.slice(start).flatMap(wrapped);
    while (rows.length < room && start > 0) {
      start--;
      rows = [...wrapped(this.lines[start]), ...rows];
    }
    // Filled from above: the end is what must show; a wrapped line may then start above the first row.
    return start < this.top ? rows.slice(-room) : rows.slice(0, room);
  }

  /** A row with the search's query marked wherever it appears. */
  private marked(text: string, style: 'bold' | 'normal', emoji: EmojiWidths): GridRow {
    let row: GridRow = [{ text: sanitize(text), style }];
    const query = this.query.toLowerCase();
    if (!query) return row;
    const lower = text.toLowerCase();
    for (let at = lower.indexOf(query); at >= 0; at = lower.indexOf(query, at + query.length)) {
      const from = stringWidth(text.slice(0, at), emoji);
      row = markCells(row, from, from + stringWidth(text.slice(at, at + query.length), emoji), 'match', emoji);
    }
    return row;
  }
}

/**
 * A line cut into rows `width` wide at spaces; the rows after the first start under its description (after the first
 * run of two spaces, as `key  what it does` is laid out), or two in when that is more than half the width.
 */
function wrap(text: string, width: number, emoji: EmojiWidths): string[] {
  if (stringWidth(text, emoji) <= width) return [text];
  const column = /^\s*\S.*?\s{2,}/.exec(text)?.[0];
  const indent = ' '.repeat(column && stringWidth(column, emoji) <= width / 2 ? stringWidth(column, emoji) : 2);
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(/(?<=\s)(?=\S)/)) {
    if (row && stringWidth(row + word.trimEnd(), emoji) > width) {
      rows.push(row.trimEnd());
      row = indent;
    }
    row += word;
  }
  rows.push(row.trimEnd());
  return rows.map((r) => fit(r, width, emoji));
}

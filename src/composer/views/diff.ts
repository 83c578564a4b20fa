// /diff: what changed in the workspace since the conversation (or a turn)
// began, as git's unified diff of two snapshots (session/snapshots.ts), in
// the transcript's place: additions and removals in their colours, scrolled
// by keys, closed with Esc. The text is made inert when the view is made.

import type { CommandName, KeyNames } from './registry';
import { type Inert, sanitize } from '../../protocol/inert';
import { GridRow, Style, fit } from '../../kernel/rows';
import type { ComposerInput } from '../state';
import { Handled, PaintContext, View, ViewPaint, viewSpec, consume, pass } from './view';

export const DIFF_SPEC = viewSpec({
  mode: 'diff',
  letters: true,
  commands: {
    'diff.down': { description: 'Scroll down a row' },
    'diff.up': { description: 'Scroll up a row' },
    'diff.pageDown': { description: 'Scroll down a page' },
    'diff.pageUp': { description: 'Scroll up a page' },
    'diff.top': { description: 'To the first row' },
    'diff.bottom': { description: 'To the last row' },
    'diff.close': { description: 'Close the diff' },
  },
  keys: [
    { keys: ['j', 'down'], command: 'diff.down' },
    { keys: ['k', 'up'], command: 'diff.up' },
    { keys: ['space', 'pagedown', 'C-f'], command: 'diff.pageDown' },
    { keys: ['b', 'pageup', 'C-b'], command: 'diff.pageUp' },
    { keys: ['g', 'home'], command: 'diff.top' },
    { keys: ['G', 'end'], command: 'diff.bottom' },
    { keys: ['escape', 'q', 'C-c', 'C-g'], command: 'diff.close' },
  ],
});

/** Rows a page key moves (the view's height is known only when it paints). */
const PAGE = 20;

export class DiffView implements View {
  readonly mode = 'diff' as const;

  private constructor(
    readonly title: Inert,
    private readonly lines: readonly Inert[],
    readonly top: number,
  ) {}

  static open(title: string, diff: string): DiffView {
    const lines = diff.replace(/\n$/, '').split('\n').map(sanitize);
    return new DiffView(sanitize(title), lines, 0);
  }

  keyMode(): 'diff' {
    return 'diff';
  }

  handle(input: ComposerInput): Handled {
    if (input.kind !== 'command') return input.kind === 'text' || input.kind === 'paste' ? consume(this) : pass(this);
    const last = Math.max(0, this.lines.length - 1);
    const to = (top: number): Handled =>
      consume(new DiffView(this.title, this.lines, Math.max(0, Math.min(last, top))));
    switch (input.name) {
      case 'diff.down':
        return to(this.top + 1);
      case 'diff.up':
        return to(this.top - 1);
      case 'diff.pageDown':
        return to(this.top + PAGE);
      case 'diff.pageUp':
        return to(this.top - PAGE);
      case 'diff.top':
        return to(0);
      case 'diff.bottom':
        return to(last);
      case 'diff.close':
        return consume(null);
      default:
        return consume(this);
    }
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const k = (command: CommandName): string => keys.key('diff', command);
    const scroll = `${k('diff.down')} ${k('diff.up')} ${k('diff.pageDown')} ${k('diff.pageUp')}`;
    const legend = `${scroll}: scroll · ${k('diff.close')}: close`;
    return { prompt: sanitize(`diff: ${this.lines.length} lines`), legend: sanitize(legend) };
  }

  paint(): ViewPaint {
    return { area: 'transcript', wanted: Infinity, rows: (at) => this.rows(at) };
  }

  private rows({ width, height, emoji }: PaintContext): GridRow[] {
    const room = Math.max(1, height - 1);
    const top = Math.min(this.top, Math.max(0, this.lines.length - room));
    const rows: GridRow[] = [[{ text: fit(this.title, width, emoji), style: 'bold' }]];
    for (const line of this.lines.slice(top, top + room))
      rows.push([{ text: fit(line, width, emoji), style: styleOf(line) }]);
    return rows;
  }
}

function styleOf(line: string): Style {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ')) return 'bold';
  if (line.startsWith('+')) return 'diffAdd';
  if (line.startsWith('-')) return 'diffDel';
  if (line.startsWith('@@')) return 'dim';
  return 'normal';
}

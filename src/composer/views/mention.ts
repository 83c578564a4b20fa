// The @-mention picker: typing @ at the start of a word opens it over the
// composer. What follows the @ is typed into the composer as usual and is the
// query; the workspace's paths that match it fuzzily are listed above the
// composer (tools/file-index.ts finds them between keystrokes and hands them
// back as an input). Tab or Enter puts the selected path in place of the
// @query as a file chip; Esc leaves the @query as typed; a space, a move out
// of the word or deleting the @ closes it the same way.

import type { CommandName, KeyNames } from './registry';
import * as ed from '../../editor/model';
import type { FileHit } from '../../search/files';
import { MAX_UNDO, reduce } from '../reducer';
import type { ComposerInput, ComposerState, Effect } from '../state';
import { looksLikeImage } from '../../kernel/images';
import { Handled, PaintContext, View, ViewContext, ViewPaint, viewSpec, consume } from './view';
import { GridRow, Span, Style, fit } from '../../kernel/rows';
import { stringWidth } from '../../editor/width';
import { type Inert, own, sanitize } from '../../protocol/inert';

export const MENTION_SPEC = viewSpec({
  mode: 'mention',
  // Letters are the query.
  letters: false,
  commands: {
    'mention.accept': {
      description: 'Put the selected path in place of the @query, as a file the input attaches',
    },
    'mention.next': { description: 'The next path in the list' },
    'mention.prev': { description: 'The previous path in the list' },
    'mention.cancel': { description: 'Close the list, leaving the @query as typed' },
  },
  keys: [
    { keys: ['tab', 'enter'], command: 'mention.accept' },
    { keys: ['down', 'C-n'], command: 'mention.next' },
    { keys: ['up', 'C-p'], command: 'mention.prev' },
    { keys: ['escape', 'C-g'], command: 'mention.cancel' },
  ],
});

/** Paths asked of the index (the rows scroll within them). */
export const MENTION_LIMIT = 50;

export interface MentionList {
  readonly query: string;
  readonly hits: readonly FileHit[];
  readonly selected: number;
  /** The index is still being built. */
  readonly indexing: boolean;
  /** The workspace had more paths than the index keeps. */
  readonly cut: boolean;
  /** No answer yet for this query. */
  readonly waiting: boolean;
}

/** Where the @ is, and the query after it up to the cursor; null once the cursor has left the word. */
function queryAt(editor: ed.EditorState, at: number): string | null {
  if (editor.text[at] !== '@' || editor.cursor <= at) return null;
  const q = editor.text.slice(at + 1, editor.cursor);
  return /\s/.test(q) || q.includes(ed.PASTE_MARK) ? null : q;
}

export class MentionView implements View {
  readonly mode = 'mention' as const;

  private constructor(
    /** The @'s offset in the composer's buffer. */
    private readonly at: number,
    readonly list: MentionList,
  ) {}

  /**
   * Just after an @ was typed at `at` (maybe with more of the word after it): the first effect asks for the paths of
   * that query.
   */
  static open(at: number, editor: ed.EditorState): { view: MentionView; effects: Effect[] } {
    const query = queryAt(editor, at) ?? '';
    const list: MentionList = { query, hits: [], selected: 0, indexing: false, cut: false, waiting: true };
    const effects: Effect[] = [{ type: 'mentionQuery', query, opened: true }];
    return { view: new MentionView(at, list), effects };
  }

  keyMode(): 'mention' {
    return 'mention';
  }

  handle(input: ComposerInput, composer: ComposerState, ctx: ViewContext): Handled {
    switch (input.kind) {
      case 'mentionResults': {
        if (input.query !== this.list.query) return consume(this);
        const list = {
          ...this.list,
          hits: input.hits,
          indexing: input.indexing,
          cut: input.cut,
          waiting: false,
          selected: 0,
        };
        return consume(new MentionView(this.at, list));
      }
      case 'text':
        return this.edited(input, composer, ctx);
      case 'command':
        return this.command(input.name, input, composer, ctx);
      default:
        // A paste, restored inputs: the picker closes and the input goes on.
        return this.close();
    }
  }

  private command(name: CommandName, input: ComposerInput, composer: ComposerState, ctx: ViewContext): Handled {
    switch (name) {
      case 'mention.accept': {
        const hit = this.list.hits[this.list.selected];
        // Nothing to choose yet: wait for the list; nothing matches: the list closes, the @query stays as typed.
        if (!hit) return this.list.waiting ? consume(this) : consume(null, { effects: [{ type: 'mentionClosed' }] });
        const editor = ed.replaceWithFile(composer.editor, this.at, composer.editor.cursor, hit.path);
        const undo = [...(composer.undo ?? []), composer.editor].slice(-MAX_UNDO);
        // An image's chip says what it is once it is read (off the keystroke): its pixel size.
        const probe: Effect[] = looksLikeImage(hit.path)
          ? [{ type: 'probeImage', path: hit.path, text: '', mention: true }]
          : [];
        return consume(null, {
          effects: [{ type: 'mentionClosed' }, ...probe],
          composer: { ...composer, editor, undo, redo: [], typing: false },
        });
      }
      case 'mention.next':
      case 'mention.prev': {
        const n = this.list.hits.length;
        if (n === 0) return consume(this);
        const selected = (this.list.selected + (name === 'mention.next' ? 1 : -1) + n) % n;
        return consume(new MentionView(this.at, { ...this.list, selected }));
      }
      case 'mention.cancel':
        return consume(null, { effects: [{ type: 'mentionClosed' }] });
      case 'editor.backspace':
      case 'editor.killWordBack':
        return this.edited(input, composer, ctx);
      default:
        // Any other key leaves the @query as typed and does its own job.
        return this.close();
    }
  }

  /**
   * Typing or rubbing out within the word: the composer changes and the query follows; out of the word, the picker
   * closes.
   */
  private edited(input: ComposerInput, composer: ComposerState, ctx: ViewContext): Handled {
    const reduced = reduce(composer, input, ctx);
    const query = queryAt(reduced.state.editor, this.at);
    if (query === null)
      return {
        view: null,
        composer: reduced.state,
        effects: [...reduced.effects, { type: 'mentionClosed' }],
        consumed: true,
      };
    if (query === this.list.query) return consume(this, { composer: reduced.state, effects: reduced.effects });
    const list = { ...this.list, query, waiting: true };
    return consume(new MentionView(this.at, list), {
      composer: reduced.state,
      effects: [...reduced.effects, { type: 'mentionQuery', query }],
    });
  }

  /** The picker closes and the input goes on down to the composer. */
  private close(): Handled {
    return { view: null, effects: [{ type: 'mentionClosed' }], consumed: false };
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const k = (command: CommandName, all = false): string =>
      all ? keys.keys('mention', command, '/') : keys.key('mention', command);
    const choose = `${k('mention.prev')}/${k('mention.next')}`;
    const legend = `${k('mention.accept', true)}: insert · ${choose}: choose · ${k('mention.cancel')}: leave as typed`;
    return { prompt: sanitize(`@${this.list.query}`), legend: sanitize(legend) };
  }

  paint(): ViewPaint {
    return {
      area: 'overlay',
      wanted: Math.max(2, this.list.hits.length + 1),
      rows: (at) => mentionRows(this.list, at),
    };
  }
}

/**
 * The @-mention list: a title with the query's count (or that the index is
 * still being made), then the paths, the selected one marked and lit, the
 * characters matched underlined. The list scrolls to keep the selection in view.
 */
export function mentionRows(list: MentionList, { width, height, emoji }: PaintContext): GridRow[] {
  const state = list.indexing
    ? 'listing the workspace…'
    : list.waiting
      ? 'searching…'
      : list.hits.length === 0
        ? 'no matching files'
        : `${list.hits.length}${list.hits.length >= MENTION_LIMIT ? '+' : ''} paths`;
  const heading = ` @${list.query} · ${state}${list.cut ? ' (the workspace is larger than the index)' : ''} `;
  const title: GridRow = [{ text: fit(sanitize(heading), width, emoji), style: 'statusStrong' }];
  const room = Math.max(0, height - 1);
  const top = Math.max(0, Math.min(list.selected - room + 1, list.hits.length - room));
  const rows = list.hits.slice(Math.max(0, top), Math.max(0, top) + room).map((hit, k): GridRow => {
    const current = Math.max(0, top) + k === list.selected;
    const base: Style = current ? 'highlight' : 'normal';
    const lit = new Set(hit.indexes);
    const spans: Span[] = [{ text: current ? own`› ` : own`  `, style: base }];
    let run = '';
    let runLit = false;
    const flush = (): void => {
      // A path's name is anyone's: a control character in one is named, not sent to the terminal.
      if (run) spans.push({ text: sanitize(run), style: runLit ? 'match' : base });
      run = '';
    };
    // Paths are cut to the row from the left, where a long one's name is.
    const shown = stringWidth(hit.path, emoji) > width - 2 ? hit.path.slice(hit.path.length - (width - 3)) : hit.path;
    const offset = hit.path.length - shown.length;
    if (offset > 0) spans.push({ text: own`…`, style: base });
    for (let i = 0; i < shown.length; i++) {
      const isLit = lit.has(i + offset);
      if (isLit !== runLit) flush();
      runLit = isLit;
      run += shown[i];
    }
    flush();
    return spans;
  });
  return [title, ...rows];
}

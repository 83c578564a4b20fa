// The incremental search as a view over the composer: Ctrl+R / Ctrl+S start
// or step it, typing and pastes extend the query, the match is shown in the
// composer's place (the draft underneath is left as it is), Enter accepts it,
// Esc / Ctrl-C / Ctrl+G leave the draft as it is, and any other composer key
// accepts first and then does its own job, as in readline. The matching
// itself is src/search.

import type { CommandName } from './registry';
import type { Segment } from '../../protocol/segments';
import * as ed from '../../editor/model';
import * as nav from '../../history/navigator';
import type { HistoryEntry } from '../../history/rules';
import { entryText } from '../../search/index';
import { Overlay, searchOverlay } from '../../search/overlay';
import * as search from '../../search/search';
import { lineAt } from '../../search/search';
import type { ComposerInput, ComposerState } from '../state';
import { ConfirmView } from './confirm';
import { Handled, PaintContext, View, ViewContext, ViewPaint, viewSpec, consume, pass } from './view';
import { GridRow, Span, Style, fit } from '../../kernel/rows';
import { EmojiWidths, padToWidth, stringWidth } from '../../editor/width';
import { HistoryMode, otherMode } from '../../settings/store';
import { type Inert, sanitize } from '../../protocol/inert';

export const SEARCH_SPEC = viewSpec({
  mode: 'search',
  // Letters are the query.
  letters: false,
  commands: {
    'search.backspace': { description: 'Shorten the query and go back to where it matched' },
    'search.accept': { description: 'Put the match in the composer, ready to edit or send' },
    'search.cancel': { description: 'Leave the search; the composer gets back what it held' },
    'search.toggleScope': {
      description: 'Search the global history instead of the session one, or back (the query stays)',
    },
    'search.delete': {
      description: 'Delete the selected entry from both history files (asks {confirm.yes}/{confirm.no} first)',
    },
  },
  keys: [
    { keys: ['C-r'], command: 'history.searchReverse' },
    { keys: ['C-s'], command: 'history.searchForward' },
    { keys: ['backspace'], command: 'search.backspace' },
    { keys: ['enter'], command: 'search.accept' },
    { keys: ['escape', 'C-c', 'C-g'], command: 'search.cancel' },
    { keys: ['C-t'], command: 'search.toggleScope' },
    { keys: ['S-delete', 'C-delete'], command: 'search.delete' },
  ],
});

const OWN: ReadonlySet<CommandName> = new Set(SEARCH_SPEC.keys.map((b) => b.command));

export class SearchView implements View {
  readonly mode = 'search' as const;

  private constructor(
    readonly state: search.SearchState,
    /** The list searched (the active history; Ctrl+T switches it). */
    readonly list: readonly HistoryEntry[],
    /**
     * The draft when the search began: if it changed underneath (a failed turn's queue came back), accepting keeps it.
     */
    private readonly draftAtStart: ed.EditorState,
    /** Ctrl+T: this search runs over the other history; Up/Down and the status bar's mode stay as they were. */
    readonly switched = false,
    /**
     * vi mode's `/` or `?`: readline's non-incremental search, the query typed after the key in the status bar and
     * the draft left as it is until Enter takes the match.
     */
    readonly vi: '/' | '?' | null = null,
  ) {}

  /** Ctrl+R / Ctrl+S in the composer. Browsing when it began: the search starts at the entry shown, as bash's does. */
  static start(
    direction: search.Direction,
    composer: ComposerState,
    list: readonly HistoryEntry[],
    vi: '/' | '?' | null = null,
  ): SearchView {
    const state = search.startSearch(direction, composer.nav.index ?? undefined);
    return new SearchView(state, list, composer.editor, false, vi);
  }

  /** The query typed on (keys that came in one chunk with the key that opened it: vi's `/make`). */
  typeAhead(text: string): SearchView {
    return text ? this.typed(text) : this;
  }

  keyMode(): 'search' {
    return 'search';
  }

  private with(state: search.SearchState, list = this.list, switched = this.switched): SearchView {
    return new SearchView(state, list, this.draftAtStart, switched, this.vi);
  }

  handle(input: ComposerInput, composer: ComposerState, ctx: ViewContext): Handled {
    switch (input.kind) {
      case 'text':
        return consume(this.typed(input.text));
      case 'paste':
        // A paste extends the query, its first line only.
        return consume(this.typed(input.text.replace(/\r\n?/g, '\n').split('\n')[0]));
      case 'historyChanged':
        // An entry left the list (deleted): the search runs again where it stands.
        return pass(this.again(this.list));
      case 'command':
        if (!OWN.has(input.name)) return this.acceptThen(composer);
        return this.command(input.name, composer, ctx);
      default:
        // Restored inputs, a switched history: the composer's business, underneath.
        return pass(this);
    }
  }

  private command(name: CommandName, composer: ComposerState, ctx: ViewContext): Handled {
    switch (name) {
      case 'history.searchReverse':
      case 'history.searchForward': {
        const dir = name === 'history.searchReverse' ? 'reverse' : 'forward';
        return consume(this.with(search.searchAgain(this.state, this.list, dir, composer.lastQuery)));
      }
      case 'search.backspace':
        return consume(this.with(search.backspaceQuery(this.state, this.list)));
      case 'search.accept':
        return consume(null, { composer: this.accepted(composer, false) });
      case 'search.cancel':
        return consume(null);
      case 'search.toggleScope': {
        const list = this.switched ? ctx.history : ctx.otherHistory;
        if (!list) return consume(this);
        return consume(this.again(list, !this.switched));
      }
      case 'search.delete': {
        const match = this.state.match;
        if (!match) return consume(this);
        const text = entryText(this.list, match.index);
        return consume(this, {
          push: new ConfirmView('delete this entry from every history file?', [{ type: 'forget', text }]),
        });
      }
      default:
        return consume(this);
    }
  }

  /** Any other composer key: the match is accepted, then the key does its own job in the composer. */
  private acceptThen(composer: ComposerState): Handled {
    return { view: null, composer: this.accepted(composer, true), consumed: false };
  }

  private typed(text: string): SearchView {
    let state = this.state;
    // One step per character, so Backspace undoes exactly one.
    for (const ch of text) state = search.typeQuery(state, this.list, ch);
    return this.with(state);
  }

  /** The same query, in the same direction, run afresh over `list` from its newest or oldest end. */
  private again(list: readonly HistoryEntry[], switched = this.switched): SearchView {
    const { direction, query } = this.state;
    let state = search.startSearch(direction);
    for (const ch of query) state = search.typeQuery(state, list, ch);
    // Run afresh, a failing query has no match to keep showing: what a shorter prefix found is not the person's
    // search (Enter would take an entry that does not hold the query).
    if (state.failing) state = { ...state, match: null };
    return this.with(state, list, switched);
  }

  /**
   * The match becomes the draft (a recalled entry); a draft changed underneath
   * is kept above it. `atMatch`: the cursor where the search left it, on the
   * match, for an editing key that ends the search to act from there (bash's point).
   */
  private accepted(composer: ComposerState, atMatch: boolean): ComposerState {
    const { query, match } = this.state;
    const lastQuery = query ? query : composer.lastQuery;
    if (!match) return { ...composer, lastQuery };
    const segments = this.list[match.index].segments;
    const offset = search.bufferRange(segments, match.start, match.end).start;
    if (composer.editor !== this.draftAtStart && !ed.isEmpty(composer.editor)) {
      const above: Segment[] = [...ed.toSegments(composer.editor), { type: 'text', text: '\n\n' }];
      const editor = ed.replaceWith(composer.editor, [...above, ...segments]);
      return {
        ...composer,
        lastQuery,
        nav: nav.idleNav,
        editor: atMatch ? { ...editor, cursor: ed.replaceWith(editor, above).text.length + offset } : editor,
      };
    }
    // From the other history (Ctrl+T), the entry is a draft: Up/Down still walk the list they walked before.
    if (this.switched) {
      const editor = ed.replaceWith(composer.editor, segments);
      return { ...composer, lastQuery, nav: nav.idleNav, editor: atMatch ? { ...editor, cursor: offset } : editor };
    }
    const step = nav.jumpTo(composer.nav, composer.editor, this.list, match.index);
    return {
      ...composer,
      lastQuery,
      nav: step.nav,
      editor: atMatch ? { ...step.editor, cursor: offset } : step.editor,
    };
  }

  /** The match in the composer's place, cursor on it so a long entry scrolls to it; no match: the draft. */
  shown(composer: ComposerState): { editor: ed.EditorState; highlight: { start: number; end: number } | null } | null {
    const match = this.state.match;
    if (!match || this.vi) return null;
    const entry = this.list[match.index];
    const at = search.bufferRange(entry.segments, match.start, match.end);
    return { editor: { ...ed.replaceWith(composer.editor, entry.segments), cursor: at.start }, highlight: at };
  }

  status(): { prompt: Inert; legend: null } {
    const { state } = this;
    if (this.vi) return { prompt: sanitize(`${this.vi}${state.query}`), legend: null };
    const prefix = `(${state.failing ? 'failing ' : ''}${state.direction}-i-search)\`${state.query}': `;
    if (!state.match) return { prompt: sanitize(prefix), legend: null };
    // The line the match is on, as bash puts its cursor there; no split of a huge entry on every paint.
    return {
      prompt: sanitize(prefix + search.lineAt(entryText(this.list, state.match.index), state.match.start).line),
      legend: null,
    };
  }

  paint(): ViewPaint | null {
    if (this.vi) return null;
    const overlay = searchOverlay(this.state, this.list);
    return {
      area: 'overlay',
      wanted: overlay.rows.length + 1,
      rows: (at) =>
        overlayRows(
          { overlay, entries: this.list, scope: this.switched ? otherMode(at.historyMode) : at.historyMode },
          at,
        ),
    };
  }
}

/** How long ago, in one short word: 40s, 3m, 5h, 2d, 1y. */
export function age(ts: string, now: number): string {
  const s = Math.max(0, Math.floor((now - Date.parse(ts)) / 1000));
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  if (s < 365 * 86_400) return `${Math.floor(s / 86_400)}d`;
  return `${Math.floor(s / (365 * 86_400))}y`;
}

export interface OverlayView {
  readonly overlay: Overlay;
  readonly entries: readonly HistoryEntry[];
  /** The history searched. */
  readonly scope: HistoryMode;
}

/** One overlay row: the line that matched, cut to `room` cells around the match, the match lit. */
function matchSpans(text: string, start: number, end: number, room: number, base: Style, emoji: EmojiWidths): Span[] {
  const { from, line } = lineAt(text, start);
  const a = start - from;
  const b = Math.min(line.length, end - from);
  // A match far along a long line: the line is shown from a little before it.
  const lead = a > room / 2 ? a - Math.floor(room / 4) : 0;
  const head = (lead > 0 ? '…' : '') + line.slice(lead, a);
  const spans: Span[] = [
    { text: sanitize(head), style: base },
    { text: sanitize(line.slice(a, b)), style: 'match' },
    { text: sanitize(line.slice(b)), style: base },
  ];
  const out: Span[] = [];
  let left = room;
  for (const sp of spans) {
    if (left <= 0) break;
    const text = fit(sp.text, left, emoji);
    out.push({ text, style: sp.style });
    left -= stringWidth(text, emoji);
  }
  return out;
}

/** The search overlay: a title with the scope and the count, then the matches around the current one (oldest first). */
export function overlayRows(v: OverlayView, { width, height, now, emoji, keys }: PaintContext): GridRow[] {
  const { overlay, entries } = v;
  const count = overlay.recent
    ? 'recent'
    : overlay.total === 0
      ? 'no matches'
      : `${overlay.position}/${overlay.total}${overlay.more ? '+' : ''}`;
  const other = otherMode(v.scope);
  const heading = ` ${v.scope} history · ${count} `;
  const title: GridRow = [
    { text: sanitize(heading), style: 'statusStrong' },
    {
      text: fit(
        sanitize(
          ` ${keys.key('search', 'search.toggleScope')} ${other} · ${keys.key('search', 'search.delete')} delete`,
        ),
        Math.max(0, width - stringWidth(heading, emoji)),
        emoji,
      ),
      style: 'dim',
    },
  ];
  const room = Math.max(0, height - 1);
  const at = overlay.rows.findIndex((r) => r.current);
  const top = Math.max(0, Math.min(at - Math.floor(room / 2), overlay.rows.length - room));
  const rows = overlay.rows.slice(top, top + room).map((r): GridRow => {
    const entry = entries[r.index];
    const base: Style = r.current ? 'highlight' : 'normal';
    const when = age(entry.ts, now).padStart(4);
    const origin =
      v.scope === 'global' && typeof entry.from === 'string'
        ? padToWidth(fit(entry.from, 12, emoji), 12, emoji) + ' '
        : '';
    const lead = `${r.current ? '›' : ' '} ${when} `;
    const text = entryText(entries, r.index);
    return [
      { text: sanitize(lead), style: base },
      ...(origin ? [{ text: sanitize(origin), style: r.current ? base : 'dim' } as Span] : []),
      ...matchSpans(text, r.start, r.end, Math.max(1, width - stringWidth(lead + origin, emoji)), base, emoji),
    ];
  });
  return [title, ...rows];
}

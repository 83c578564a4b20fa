// The slash menu: a `/` typed into an empty composer opens a list of every
// command — milk's own, the prompt files', the MCP servers' prompts — each
// with what it does. What follows the slash is typed into the composer as
// usual and filters the list (search/commands.ts: prefix, then substring, then
// the letters in order, then the description). Tab puts the selected command
// in the composer, a space after it, to add arguments to; Enter runs it; Esc closes the list and
// leaves what was typed; a space, or rubbing out the slash, closes it the
// same way. An unknown command typed whole still reaches the composer, which
// names the nearest one.

import type { CommandName, KeyNames } from './registry';
import * as ed from '../../editor/model';
import { stringWidth } from '../../editor/width';
import { type Inert, own, sanitize, spaces } from '../../protocol/inert';
import { GridRow, Span, Style, fit } from '../../kernel/rows';
import { CommandEntry, PreparedCommands, RankedCommand, prepareCommands, rankCommands } from '../../search/commands';
import { MAX_UNDO, reduce } from '../reducer';
import type { ComposerInput, ComposerState } from '../state';
import { Handled, PaintContext, View, ViewContext, ViewPaint, viewSpec, consume } from './view';

export const SLASH_SPEC = viewSpec({
  mode: 'slash',
  // Letters are the query.
  letters: false,
  commands: {
    'slash.run': { description: 'Run the selected command' },
    'slash.complete': { description: 'Put the selected command in the input, to add its arguments' },
    'slash.next': { description: 'The next command in the list' },
    'slash.prev': { description: 'The previous command in the list' },
    'slash.cancel': { description: 'Close the list, leaving what was typed' },
  },
  keys: [
    { keys: ['tab'], command: 'slash.complete' },
    { keys: ['enter'], command: 'slash.run' },
    { keys: ['down', 'C-n'], command: 'slash.next' },
    { keys: ['up', 'C-p'], command: 'slash.prev' },
    { keys: ['escape', 'C-g'], command: 'slash.cancel' },
  ],
});

/** The query a composer holds while the menu is open: the name after the slash, the cursor at its end; else null. */
function queryOf(editor: ed.EditorState): string | null {
  if (editor.pastes.length > 0 || editor.cursor !== editor.text.length) return null;
  const m = /^\/([\w:.-]*)$/.exec(editor.text);
  return m ? m[1] : null;
}

export class SlashMenuView implements View {
  readonly mode = 'slash' as const;

  private constructor(
    private readonly entries: PreparedCommands,
    readonly query: string,
    readonly ranked: readonly RankedCommand[],
    readonly selected: number,
    /** The person chose a row (Up/Down): Enter takes it even when only its description matched. */
    private readonly chosen = false,
  ) {}

  /** Over a composer that holds just the slash (and maybe a name typed with it in one chunk). */
  static open(entries: readonly CommandEntry[], editor: ed.EditorState): SlashMenuView {
    const query = queryOf(editor) ?? '';
    // A prompt file's or an MCP server's words are shown inert: made so once, not at every keystroke.
    const shown = entries.map((e) => ({
      name: sanitize(e.name),
      args: sanitize(e.args),
      description: sanitize(e.description.split('\n')[0]),
    }));
    const prepared = prepareCommands(shown);
    return new SlashMenuView(prepared, query, rankCommands(prepared, query), 0);
  }

  keyMode(): 'slash' {
    return 'slash';
  }

  handle(input: ComposerInput, composer: ComposerState, ctx: ViewContext): Handled {
    if (input.kind === 'text') return this.edited(input, composer, ctx);
    if (input.kind !== 'command') return { view: null, consumed: false };
    switch (input.name) {
      case 'slash.next':
      case 'slash.prev': {
        const n = this.ranked.length;
        if (n === 0) return consume(this);
        const selected = (this.selected + (input.name === 'slash.next' ? 1 : -1) + n) % n;
        return consume(new SlashMenuView(this.entries, this.query, this.ranked, selected, true));
      }
      case 'slash.complete': {
        const entry = this.ranked[this.selected]?.entry;
        if (!entry) return consume(this);
        return consume(null, { composer: this.take(composer, `/${entry.name} `) });
      }
      case 'slash.run':
        return this.run(composer, ctx);
      case 'slash.cancel':
        return consume(null);
      case 'editor.backspace':
      case 'editor.killWordBack':
        return this.edited(input, composer, ctx);
      default:
        // Any other key closes the list and does its own job.
        return { view: null, consumed: false };
    }
  }

  /**
   * Enter: the selected command is sent as if typed whole; with none whose name matches (and none chosen), what was
   * typed is, and the composer names the nearest command.
   */
  private run(composer: ComposerState, ctx: ViewContext): Handled {
    const r = this.ranked[this.selected];
    const entry = r && (this.chosen || !this.query || r.indexes.length > 0) ? r.entry : undefined;
    const chosen = entry ? this.take(composer, `/${entry.name}`) : composer;
    const submit: CommandName = ctx.busy ? 'composer.queue' : 'composer.submit';
    const sent = reduce(chosen, { kind: 'command', name: submit }, ctx);
    return consume(null, { composer: sent.state, effects: sent.effects });
  }

  private take(composer: ComposerState, text: string): ComposerState {
    const editor = ed.replaceWith(composer.editor, [{ type: 'text', text }]);
    const undo = [...(composer.undo ?? []), composer.editor].slice(-MAX_UNDO);
    return { ...composer, editor, undo, redo: [], typing: false };
  }

  /** Typing or rubbing out the name: the list follows; past the name (a space, the slash gone), it closes. */
  private edited(input: ComposerInput, composer: ComposerState, ctx: ViewContext): Handled {
    const reduced = reduce(composer, input, ctx);
    const query = queryOf(reduced.state.editor);
    if (query === null) return { view: null, composer: reduced.state, effects: reduced.effects, consumed: true };
    const next =
      query === this.query ? this : new SlashMenuView(this.entries, query, rankCommands(this.entries, query), 0);
    return consume(next, { composer: reduced.state, effects: reduced.effects });
  }

  status(_time: unknown, keys: KeyNames): { prompt: Inert; legend: Inert } {
    const k = (command: CommandName): string => keys.key('slash', command);
    const legend =
      `${k('slash.run')}: run · ${k('slash.complete')}: complete · ${k('slash.prev')}/${k('slash.next')}: choose · ` +
      `${k('slash.cancel')}: close`;
    return { prompt: sanitize(`/${this.query}`), legend: sanitize(legend) };
  }

  paint(): ViewPaint {
    return {
      area: 'overlay',
      wanted: Math.max(2, this.ranked.length + 1),
      rows: (at) => slashMenuRows(this, at),
    };
  }
}

/**
 * The menu: a title with the count, then one row per command — its name and arguments, then what it does, dim —
 * the selected one marked and lit, the letters the query matched underlined; it scrolls to keep the selection in view.
 */
export function slashMenuRows(menu: SlashMenuView, { width, height, emoji }: PaintContext): GridRow[] {
  const n = menu.ranked.length;
  const heading = ` /${menu.query} · ${n === 0 ? 'no command matches' : `${n} command${n === 1 ? '' : 's'}`} `;
  const title: GridRow = [{ text: fit(sanitize(heading), width, emoji), style: 'statusStrong' }];
  const room = Math.max(0, height - 1);
  const top = Math.max(0, Math.min(menu.selected - room + 1, n - room));
  const shown = menu.ranked.slice(top, top + room);
  const nameWidth = Math.min(
    Math.floor(width / 2),
    shown.reduce((w, r) => Math.max(w, stringWidth(`/${r.entry.name} ${r.entry.args}`, emoji)), 0),
  );
  const rows = shown.map((r, k): GridRow => {
    const base: Style = top + k === menu.selected ? 'highlight' : 'normal';
    const spans: Span[] = [{ text: top + k === menu.selected ? own`› /` : own`  /`, style: base }];
    const lit = new Set(r.indexes);
    // Runs of the name, lit where the query matched; a prompt file's or an MCP server's name is anyone's words.
    let run = '';
    let runStyle: Style = base;
    const flush = (): void => {
      if (run) spans.push({ text: sanitize(run), style: runStyle });
      run = '';
    };
    for (let i = 0; i < r.entry.name.length; i++) {
      const style: Style = lit.has(i) ? 'match' : base;
      if (style !== runStyle) flush();
      runStyle = style;
      run += r.entry.name[i];
    }
    flush();
    const used = stringWidth(`/${r.entry.name}`, emoji);
    const args = r.entry.args ? ` ${r.entry.args}` : '';
    const gap = spaces(Math.max(1, nameWidth - used - stringWidth(args, emoji) + 2));
    spans.push({ text: own`${sanitize(args)}${gap}`, style: base });
    spans.push({ text: sanitize(r.entry.description), style: 'dim' });
    return fitRow(spans, width, emoji);
  });
  return [title, ...rows];
}

/** A row cut to the width, its last span ending in … where it is cut. */
function fitRow(spans: Span[], width: number, emoji: PaintContext['emoji']): GridRow {
  const out: Span[] = [];
  let left = width;
  for (const s of spans) {
    if (left <= 0) break;
    const w = stringWidth(s.text, emoji);
    if (w <= left) {
      out.push(s);
      left -= w;
    } else {
      out.push({ text: fit(s.text, left, emoji), style: s.style });
      left = 0;
    }
  }
  return out;
}

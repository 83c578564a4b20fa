// The full screen's transcript as the coordinator and the status bar reach it: where it sits, its keys (copy mode,
// find, a match shown), the mouse's selection over it, and what the status bar is told.

import { money } from '../providers/pricing/cost';
import type { AppOptions, Services } from './screen';
import type { Bus } from '../kernel/bus';
import type { CoordinatorOptions } from '../composer/coordinator-types';
import { COMPACT_AT } from '../turn/compact';
import { TurnCoordinator } from '../composer/coordinator';
import { copySelection } from '../tui/copy';
import { TranscriptSelect } from '../tui/transcript-select';
import { buildCorpus, positionOf, type TranscriptCorpus } from '../search/transcript-search';
import { sanitize } from '../protocol/inert';
import type { Keymap } from '../tui/keymap';
import type { Screen } from '../tui/screen';
import { type StatusSources } from '../tui/status-model';
import { TranscriptFeed } from '../tui/transcript-feed';
import { TranscriptModel } from '../tui/transcript-model';
import { env } from './env';

/** What the status bar shows, where it comes from. */
export function statusSources(
  s: Services,
  options: AppOptions,
  keys: Keymap,
  feed: TranscriptFeed,
  coordinator: TurnCoordinator,
): StatusSources {
  return {
    sessionId: options.sessionId,
    historyMode: () => s.settings.historyMode,
    busySince: () => feed.busySince,
    queued: () => coordinator.queue.length,
    force: () => s.settings.force,
    approval: () => s.settings.approval,
    always: () => s.settings.alwaysTools(),
    // What the first paint shows is read without making the agent (app/services.ts makes it after the first paint).
    providerHint: () =>
      (s.late.made()?.provider ?? options.provider).hint ?? `${s.settings.provider} · ${s.settings.model}`,
    mcp: () => s.late.made()?.mcp.status() ?? null,
    custom: () => s.statusLine.line(),
    vi: () => coordinator.viState(),
    interruptKey: keys.key('busy', 'turn.cancel'),
    // A provider that names no model (the offline demo, a script) has no window to fill.
    contextUse: () => {
      const runner = s.late.made()?.runner;
      return s.settings.model === null || !runner ? null : { ...runner.contextUse(), compactAt: COMPACT_AT };
    },
    effort: () => {
      const model = s.settings.model;
      return s.settings.effort ?? (model ? options.modelSettings?.(model)?.effort : undefined);
    },
    spent: () => {
      const spending = s.late.made()?.spending;
      if (!spending) return null;
      const { turn, conversation: c } = spending;
      if (c.requests === 0) return null;
      const usage = { input: turn.input, output: turn.output, cached: turn.cacheRead, total: c.input + c.output };
      return { usage, money: c.priced > 0 ? money(c.usd) : null };
    },
  };
}

/** Where the transcript's rows are on the screen (0-based cells). */
export function transcriptArea(ui: Screen): { top: number; left: number; height: number } {
  const box = ui.transcript.box;
  return { top: box.atop as number, left: box.aleft as number, height: ui.transcript.size().height };
}

/** Copy mode and the transcript search, on the transcript model and the selection. */
export function transcriptKeys(
  transcript: TranscriptModel,
  select: TranscriptSelect,
  ui: Screen,
): CoordinatorOptions['transcript'] {
  let made: { lines: readonly string[]; corpus: TranscriptCorpus } | null = null;
  let saved: { view: ReturnType<TranscriptModel['saveView']>; cursor: TranscriptSelect['cursorAt'] } | null = null;
  const height = (): number => ui.transcript.size().height;
  /** The entry of the row `fromBottom` rows above the bottom one. */
  const entryAt = (fromBottom: number): number => {
    const entries: number[] = [];
    transcript.rowsAbove(fromBottom, 1, entries);
    return entries[0] ?? 0;
  };
  return {
    copyMode: () => {
      if (transcript.rowCount === 0) return false;
      select.enterCopyMode();
      return true;
    },
    copyKey: (name) => void select.copyKey(name),
    find: () => {
      const { lines, refs } = transcript.searchLines();
      if (made?.lines !== lines) made = { lines, corpus: buildCorpus(lines, refs) };
      saved = { view: transcript.saveView(), cursor: select.cursorAt };
      const cursor = select.cursorAt;
      const at = entryAt(cursor === null ? transcript.below : transcript.fromBottom(cursor.serial));
      // The search runs up from the end of the entry the view ends on (or copy mode's cursor is in).
      return { corpus: made.corpus, origin: Math.max(0, positionOf(made.corpus, at + 1, 0) - 1) };
    },
    show: (query, match) => {
      if (!match) {
        if (saved) transcript.restoreView(saved.view);
        return select.setFound(query ? { query, serial: null, nth: 0 } : null);
      }
      const serial = transcript.showLine(match.entry, match.line, height());
      select.setFound({ query, serial, nth: match.nth });
      if (serial !== null) select.cursorTo(serial, query, match.nth);
    },
    endFind: (restore) => {
      if (restore && saved) {
        transcript.restoreView(saved.view);
        select.cursorAt = saved.cursor;
      }
      saved = null;
      select.setFound(null);
    },
  };
}

/** The transcript's selection (the mouse, copy mode) and a search's marks; mouse events go to it. */
export function selection(
  bus: Bus,
  ui: Screen,
  s: Services,
  options: AppOptions,
  transcript: TranscriptModel,
  coordinator: () => TurnCoordinator,
): TranscriptSelect {
  const to = { dataDir: options.dataDir, write: (d: string) => options.output.write(d), env: env(options) };
  const select = new TranscriptSelect({
    model: transcript,
    emoji: () => s.settings.emoji,
    // Nothing to select while a view (a picker) is painted in the transcript's place.
    area: () => (coordinator().frame().paints.transcript ? null : transcriptArea(ui)),
    copy: (text) => copySelection(text, to),
    hint: (text) => bus.emit('status.hint', { text: sanitize(text) }),
    render: () => bus.requestRender(),
  });
  bus.on('input.mouse', ({ event, x, y }) => select.mouse(event, x, y, Date.now()));
  return select;
}

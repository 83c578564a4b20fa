// The screen from the composer: the transcript scrolled, folded, searched and copied from, the terminal given to
// the person's editor (Ctrl+G) or the shell (suspend), redrawn, a hint or a note shown, and quitting.

import { sanitize } from '../../protocol/inert';
import { CopyModeView } from '../views/copy-mode';
import { TranscriptFindView } from '../views/transcript-find';
import type { EffectContext, Handlers } from './context';

type Screen =
  | 'quit'
  | 'scroll'
  | 'openCopyMode'
  | 'copyKey'
  | 'findTranscript'
  | 'showMatch'
  | 'endFind'
  | 'toggleFold'
  | 'suspend'
  | 'redraw'
  | 'hint'
  | 'note'
  | 'externalEditor';

export function screenEffects(c: EffectContext): Handlers<Screen> {
  const { bus, options } = c;
  return {
    quit: (e) => bus.emit('app.quit', { reason: e.reason }),
    scroll: (e) => bus.emit('transcript.scroll', { pages: e.pages }),
    openCopyMode: () => {
      if (!options.transcript?.copyMode()) return c.note('nothing in the transcript to copy yet');
      c.apply([{ type: 'openView', view: new CopyModeView() }]);
    },
    copyKey: (e) => options.transcript?.copyKey(e.name),
    findTranscript: () => {
      const found = options.transcript?.find();
      if (!found) return c.note('no transcript to search here');
      c.apply([{ type: 'openView', view: TranscriptFindView.open(found.corpus, found.origin) }]);
    },
    showMatch: (e) => options.transcript?.show(e.query, e.match),
    endFind: (e) => options.transcript?.endFind(e.restore),
    toggleFold: () => bus.emit('transcript.toggleFold', {}),
    suspend: () => bus.emit('app.suspend', {}),
    redraw: () => bus.emit('app.redraw', {}),
    hint: (e) => bus.emit('status.hint', { text: sanitize(e.text) }),
    note: (e) => c.note(e.text),
    externalEditor: () => externalEditor(c),
  };
}

/** The transcript search opened on `query`, at its newest match. */
export function findInTranscript(c: EffectContext, query: string): void {
  const found = c.options.transcript?.find();
  if (!found) return;
  const opened = TranscriptFindView.searching(found.corpus, found.origin, query);
  if (opened.view) c.apply([{ type: 'openView', view: opened.view }, ...(opened.effects ?? [])]);
}

/** Ctrl+G: the draft through the person's editor. */
function externalEditor(c: EffectContext): void {
  const edit = c.options.editExternally;
  if (!edit) return c.note('no external editor here');
  if (c.runner.busy)
    return c.note(
      `the external editor opens once the turn is done ` +
        `(${c.options.keys.key('idle', 'composer.externalEditor')} again then)`,
    );
  // Waited for without blocking: milk's signals are handled while the editor has the terminal.
  let result: ReturnType<typeof edit>;
  try {
    result = edit(c.draftText());
  } catch (err) {
    return c.note(`could not open the editor: ${(err as Error).message}`);
  }
  result.then(
    (r) => {
      if (r.ok) c.dispatch({ kind: 'setDraft', text: r.text });
      else c.note(r.why);
      c.bus.requestRender();
    },
    (err: unknown) => c.note(`could not open the editor: ${(err as Error).message}`),
  );
}

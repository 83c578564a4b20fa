// Conversations from the composer: a new one, one resumed (from the picker, or a search's match), the files put back
// and the inputs rewound to (the rewind flow), and /diff and /search, which open what they found in a view.

import { openFound, openPicker as pickerOf } from '../../session/picker';
import { restoreNote } from '../said';
import { PickerView } from '../views/picker';
import { DiffView } from '../views/diff';
import { findInTranscript } from './screen';
import type { EffectContext, Handlers } from './context';

export function sessionEffects(
  c: EffectContext,
): Handlers<'resume' | 'newConversation' | 'rewindKey' | 'rewind' | 'restoreFiles' | 'openFound'> {
  const { options } = c;
  return {
    resume: (e) => void options.sessions?.resumeId(e.id, c.state.pickFork),
    newConversation: () => newConversation(c),
    rewindKey: () => c.rewinds.key(),
    rewind: (e) => c.rewinds.to(e.index),
    restoreFiles: (e) => {
      const restoring = options.checkpoints?.restore(e.turn);
      restoring?.then(
        (r) => c.note(restoreNote(r)),
        (err: Error) => c.note(`could not put the files back: ${err.message}`),
      );
    },
    openFound: (e) => {
      if (!e.here)
        return c.note(
          `that conversation is another workspace's (session ${e.session}): there, milk --resume ${e.id} opens it`,
        );
      if (!options.sessions?.resumeId(e.id)) return c.note(`conversation ${e.id} could not be opened`);
      findInTranscript(c, e.query);
    },
  };
}

export function newConversation(c: EffectContext): void {
  c.state.queue.splice(0);
  if (c.options.sessions) c.options.sessions.startNew();
  else c.note('conversations are not kept here');
}

/**
 * Opens the resume picker over this session's conversations; false when there are none. `fork`: the conversation
 * picked goes on in a copy (milk --resume --fork).
 */
export function openPicker(c: EffectContext, fork: boolean): boolean {
  const picker = pickerOf(c.options.sessions?.list() ?? []);
  if (!picker) return false;
  c.state.pickFork = fork;
  c.apply([{ type: 'openView', view: new PickerView(picker) }]);
  return true;
}

/** /search: every conversation searched for `query` (off the keystroke), its matches in a picker. */
export function searchLogs(c: EffectContext, query: string): void {
  const search = c.options.searchLogs;
  if (!search) return c.note('no conversation logs here to search');
  c.note(`searching every conversation for "${query}"…`);
  void search(query).then(({ hits, more }) => {
    const picker = openFound(query, hits);
    if (!picker) return c.note(`no conversation holds "${query}"`);
    if (more > 0) c.note(`${hits.length} matches listed, ${more} more not (milk sessions search lists them too)`);
    c.apply([{ type: 'openView', view: new PickerView(picker) }]);
  });
}

/** /diff: the workspace's changes since input `input` (1-based), or since the conversation began, in a view. */
export function showDiff(c: EffectContext, input: number | null): void {
  const { runner } = c;
  const changes = c.options.changes;
  if (!changes) return c.note('no record of the workspace here to diff against');
  let turn = runner.firstTurn;
  if (input !== null) {
    const at = runner.rewindable[input - 1];
    if (!at) return c.note(`no input #${input} in this conversation (it has ${runner.rewindable.length})`);
    turn = at.turn;
  }
  if (turn === null || turn < 0) return c.note('nothing has changed: no turn of this conversation ran here yet');
  void changes.diff(turn).then((d) => {
    if ('error' in d) return c.note(`no diff: ${d.error}`);
    if (!d.text) return c.note('nothing has changed in the workspace since then');
    const since = input === null ? 'the conversation began' : `input #${input}`;
    const cut = d.cut ? ' (cut: too long to show whole)' : '';
    c.apply([{ type: 'openView', view: DiffView.open(`changes in the workspace since ${since}${cut}`, d.text) }]);
  });
}

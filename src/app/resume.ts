// Which conversation the flags bring back (--continue, --resume [ID], with --fork a copy of it), decided once for
// every front end: checked, carried out on the sessions, and what came of it said in one set of words. A front end
// only chooses where the words go (the full screen's transcript, milk run's stderr) and whether an id that names
// no conversation ends the run (milk run: a script must not go on in a conversation it did not ask for).

import type { MainOptions } from './cli-support';
import { UsageError } from './cli-support';
import type { Sessions } from '../session/sessions';

/** What the flags ask to bring back, or null for a new conversation. */
export type ResumeRequest =
  | (({ kind: 'continue' } | { kind: 'pick' } | { kind: 'id'; id: string }) & {
      fork?: boolean;
    })
  | null;

/** What came of it: nothing to say, a note, or an id that names no conversation. */
export type ResumeOutcome = { kind: 'done' } | { kind: 'note'; text: string } | { kind: 'unknown'; id: string };

/** The flags' request; --fork only with something to copy, and milk run has no picker to open. */
export function resumeOf(opts: Pick<MainOptions, 'fork' | 'continue' | 'resume'>, picker = true): ResumeRequest {
  const fork = opts.fork === true;
  if (fork && !opts.continue && opts.resume === undefined)
    throw new UsageError('--fork goes with --continue or --resume ID: it copies the conversation they bring back');
  if (opts.continue) return { kind: 'continue', fork };
  if (opts.resume === true) {
    if (!picker)
      throw new UsageError(
        'milk run --resume needs a conversation id (milk sessions show lists them), or use --continue',
      );
    return { kind: 'pick', fork };
  }
  return typeof opts.resume === 'string' ? { kind: 'id', id: opts.resume, fork } : null;
}

/** Brings the conversation back; `pick` opens the picker (the full screen's), false when there is none to show. */
export function resume(sessions: Sessions, how: ResumeRequest, pick: (fork: boolean) => boolean): ResumeOutcome {
  if (how === null) return { kind: 'done' };
  const fork = how.fork === true;
  if (how.kind === 'continue' && !sessions.continueLast(fork))
    return { kind: 'note', text: 'no earlier conversation in this session: a new one starts' };
  if (how.kind === 'id' && !sessions.resumeId(how.id, fork)) return { kind: 'unknown', id: how.id };
  if (how.kind === 'pick' && !pick(fork))
    return { kind: 'note', text: 'no earlier conversations in this session: a new one starts' };
  return { kind: 'done' };
}

// What the full screen's exit undoes, in order, and what it leaves in the terminal: the conversation in the
// scrollback, and the line that says how to come back to it.

import { env, stopEditor } from './env';
import { Cleanup } from '../kernel/cleanup';
import { tallyText } from '../providers/pricing/cost';
import { scrollbackText } from '../tui/scrollback';
import type { TranscriptModel } from '../tui/transcript-model';
import type { AppOptions } from './screen';
import type { Services } from './services';

/** What exit undoes, in order: the screen (`screen`, in turn), the tools, the servers, then the conversation. */
export function cleanUpAtExit(cleanup: Cleanup, s: Services, screen: (() => void)[]): void {
  cleanup.add('screen', () => {
    for (const stop of screen) stop();
  });
  // After the cancel (TERM), anything still alive in a tool's process group is killed: nothing outlives milk.
  cleanup.add('tools', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (s.late.made()) (require('../tools/lazy-command') as typeof import('../tools/lazy-command')).killLiveTools();
  });
  cleanup.add('editor', stopEditor);
  // An agent not made yet (milk quit before it was) has nothing to stop.
  cleanup.add('mcp', () => s.late.made()?.mcp.stop());
  // Run in reverse: history first, then the turn is cancelled (its end is logged), then the log is flushed.
  cleanup.add('conversation', () => s.late.made()?.recorder.close());
  cleanup.add('turn', () => s.late.made()?.runner.cancel());
  // Registered last, so it runs first: entries reach the disk before anything else is torn down.
  cleanup.add('history', () => s.history.flush({ reason: 'exit' }));
}

/** The conversation as exitTranscript says, for the terminal's scrollback once the screen is gone. */
export function leftInScrollback(transcript: TranscriptModel, s: Services, options: AppOptions): string {
  if (options.exitTranscript === 'none') return '';
  const made = s.late.made();
  return scrollbackText(transcript.scrollback(options.exitTranscript ?? 'all'), {
    color: !env(options).NO_COLOR,
    whole: made ? made.log.fileOf(made.recorder.conv) : null,
  });
}

/**
 * The line milk leaves in the terminal at exit, as Claude Code and Codex do: the conversation's id, the commands that
 * come back to it (`again`: how this milk is started from where it was, relaunch.ts), and the tokens this session
 * spent. None when nothing was written (or there is no data dir).
 */
export function farewell(s: Services, logged: boolean): (again: string) => string | null {
  return (again) => {
    const made = s.late.made();
    const id = made?.recorder.lastWritten ?? null;
    if (!made || !logged || id === null) return null;
    made.spending.settle();
    const session = made.spending.session;
    const cost = session.requests > 0 ? ` · this session: ${tallyText(session)}` : '';
    return `milk: to come back to this conversation: ${again} -c, or ${again} --resume ${id}${cost}`;
  };
}

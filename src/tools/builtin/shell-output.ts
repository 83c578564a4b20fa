// `shell_output` and `shell_kill`: a background command's output since the
// last read (waiting a while for more, if asked) and whether it still runs;
// and its end. The session's background commands (tools/background.ts) are
// their capability, given when they are made.

import { defineTool } from '../tool';
import * as s from '../schema';
import { MAX_WAIT_S } from '../background';
import type { BackgroundShells, ShellRead } from '../background';

const id = s.integer('The id shell gave when it started the command in the background.', { minimum: 1 });

const outputParameters = s.object(
  {
    id,
    wait: s.number(
      `Seconds to wait for more output (or its end) when nothing new has come yet; at most ${MAX_WAIT_S}; default 0.`,
      { minimum: 0, maximum: MAX_WAIT_S },
    ),
  },
  ['id'],
);

/** What a read tells the model: the new output (or that there is none), what was missed, and whether it runs. */
function readText(id: number, read: ShellRead): string {
  const missed = read.missed > 0 ? `[${read.missed} earlier characters not shown: only the newest are kept]\n` : '';
  const text = read.text ? `${missed}${read.text}${read.text.endsWith('\n') ? '' : '\n'}` : '(no new output)\n';
  return `${text}[shell ${id}: ${read.ended === null ? 'still running' : `ended, ${read.ended}`}]`;
}

/** shell_output, reading the session's background commands. */
export function shellOutput(background: BackgroundShells | null) {
  return defineTool({
    name: 'shell_output',
    description:
      'Read what a background command (shell with background: true) printed since the last read, and whether it is ' +
      'still running. Give wait to let a server start or a build go on before reading.',
    parameters: outputParameters,
    kind: 'state',
    verbs: ['Read the output of background command', 'Read the output of background command'],
    mainOnly: true,
    examples: [{ id: 1 }, { id: 2, wait: 10 }],
    subject: (args) => `${args.id}${args.wait ? ` (waiting up to ${args.wait} s)` : ''}`,
    run: async (args, _ctx, signal) => {
      const read = await background?.read(args.id, (args.wait ?? 0) * 1000, signal);
      if (!read) return { ok: false, content: `error: there is no background command ${args.id}` };
      return { ok: true, content: readText(args.id, read), status: read.ended ?? 'running' };
    },
  });
}

/** shell_kill, ending one of the session's background commands. */
export function shellKill(background: BackgroundShells | null) {
  return defineTool({
    name: 'shell_kill',
    description: 'End a background command (its whole process group) by the id shell gave it.',
    parameters: s.object({ id }, ['id']),
    kind: 'state',
    verbs: ['Stop background command', 'Stopped background command'],
    mainOnly: true,
    examples: [{ id: 1 }],
    subject: (args) => String(args.id),
    run: async (args) => {
      const shell = background?.find(args.id);
      if (!shell) return { ok: false, content: `error: there is no background command ${args.id}` };
      if (!background?.kill(args.id))
        return { ok: true, content: `shell ${args.id} had already ended (${shell.ended})` };
      return { ok: true, content: `shell ${args.id} is being stopped (TERM, then KILL if it lingers)` };
    },
  });
}

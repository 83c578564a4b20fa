// `shell`: a command in the workspace (/bin/sh), in the sandbox where it can
// run, its output streamed and bounded, stopped with its whole process group
// on a cancel or its timeout (tools/command.ts, loaded at the first call); or
// started in the background, in the session's shells (its capability, given
// when the tool is made: none where nothing outlives a turn).

import { type ToolContext, type ToolResult, defineTool } from '../tool';
import type { BackgroundShells } from '../background';
import * as s from '../schema';
import { commandModule } from '../lazy-command';

/** The longest `timeout` a command may ask for, in seconds. */
export const MAX_TIMEOUT_S = 3600;

const parameters = s.object(
  {
    command: s.string(),
    timeout: s.number('Seconds after which the command is stopped (its whole process group); default: none.', {
      minimum: 1,
      maximum: MAX_TIMEOUT_S,
    }),
    background: s.boolean(
      'Start it and return at once with its id, leaving it running across turns (a dev server, a watcher, a long ' +
        'build): read its output with shell_output, end it with shell_kill.',
    ),
  },
  ['command'],
);

/** What the model is told of `background: true` where no command can run on (milk run's one turn). */
const NO_BACKGROUND = 'no background commands here: run it without background';

/**
 * The shell tool; `background`: where a command started in the background runs on (null: it cannot, and a call that
 * asks is refused before anyone is asked, with `refused`).
 */
export function shell(background: BackgroundShells | null, refused = NO_BACKGROUND) {
  return defineTool({
    name: 'shell',
    description:
      'Run a shell command in the workspace (/bin/sh) and return its output and exit code. Give a timeout for a ' +
      'command that may not end by itself, or run it in the background when it should keep running (a server).',
    parameters,
    kind: 'command',
    verbs: ['Run', 'Ran'],
    streams: true,
    sandboxed: true,
    examples: [
      { command: 'npm test' },
      { command: 'make', timeout: 600 },
      { command: 'npm run dev', background: true },
    ],
    check: (args) => {
      if (!args.command.trim()) return '`command` is empty';
      return args.background && !background ? refused : null;
    },
    subject: (args) => args.command,
    ruleText: (args) => args.command,
    run: async (args, ctx, signal) => {
      if (args.background && background) return startInBackground(args.command, ctx, background);
      const { runCommand } = commandModule();
      return runCommand(args.command, ctx, signal, args.timeout === undefined ? undefined : args.timeout * 1000);
    },
  });
}

async function startInBackground(command: string, ctx: ToolContext, background: BackgroundShells): Promise<ToolResult> {
  const started = await background.start(command, ctx);
  if ('error' in started) return { ok: false, content: `error: ${started.error}` };
  return {
    ok: true,
    content:
      `started in the background as shell ${started.id}; it keeps running across turns. Read what it prints with ` +
      `shell_output (id ${started.id}, and wait: seconds to wait for more), end it with shell_kill.`,
    status: `background ${started.id}`,
  };
}

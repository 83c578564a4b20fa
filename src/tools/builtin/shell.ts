// `shell`: a command in the workspace (/bin/sh), in the sandbox where it can
// run, its output streamed and bounded, stopped with its whole process group
// on a cancel or its timeout (tools/command.ts, loaded at the first call).

import { defineTool } from '../tool';
import * as s from '../schema';

/** The longest `timeout` a command may ask for, in seconds. */
export const MAX_TIMEOUT_S = 3600;

const parameters = s.object(
  {
    command: s.string(),
    timeout: s.number('Seconds after which the command is stopped (its whole process group); default: none.', {
      minimum: 1,
      maximum: MAX_TIMEOUT_S,
    }),
  },
  ['command'],
);

export const shell = defineTool({
  name: 'shell',
  description:
    'Run a shell command in the workspace (/bin/sh) and return its output and exit code. Give a timeout for a ' +
    'command that may not end by itself.',
  parameters,
  kind: 'command',
  sandboxed: true,
  examples: [{ command: 'npm test' }, { command: 'npm run dev', timeout: 30 }],
  check: (args) => (args.command.trim() ? null : '`command` is empty'),
  subject: (args) => args.command,
  ruleText: (args) => args.command,
  run: (args, ctx, signal) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { runCommand } = require('../command') as typeof import('../command');
    return runCommand(args.command, ctx, signal, args.timeout === undefined ? undefined : args.timeout * 1000);
  },
});

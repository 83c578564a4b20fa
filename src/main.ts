// The command line: flags, validation, exit codes. A bad flag or value is one
// line on stderr and exit code 2, before the terminal is touched. An argv of
// plain interactive flags is read without commander (app/cli-support.ts's
// quickParse); everything else goes through it.

import type { Command } from 'commander';
import { HELP_FLAG, MAIN_FLAGS, MainOptions, UsageError, VERSION_FLAG, quickParse } from './app/cli-support';
import { versionLine } from './app/about';
import { runInteractive } from './app/launch';

export const EXIT_USAGE = 2;

export function buildProgram(): Command {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Command, Option } = require('commander') as typeof import('commander');
  const { addShellCommands } = require('./app/subcommands') as typeof import('./app/subcommands');
  const { addTrustCommands, addDoctorCommand, addRunCommand, addAcpCommand } =
    require('./app/commands') as typeof import('./app/commands');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const program = new Command();
  program
    .name('milk')
    .description('A full-screen terminal client for a coding agent.')
    .version(versionLine(), VERSION_FLAG.flags, VERSION_FLAG.description)
    .helpOption(HELP_FLAG.flags, HELP_FLAG.description);
  for (const f of MAIN_FLAGS) {
    const option = new Option(f.flags, f.description);
    if (f.choices) option.choices(f.choices);
    const parse = f.parse;
    if (f.repeats) option.argParser((v: string, had: unknown[] | undefined) => [...(had ?? []), parse ? parse(v) : v]);
    else if (parse) option.argParser(parse);
    program.addOption(option);
  }
  program
    .exitOverride()
    .configureOutput({
      outputError: (message, write) =>
        write(
          'milk: ' +
            message
              .replace(/^error: /, '')
              .replace(/\s*\n\s*/g, ' ')
              .trim() +
            '\n',
        ),
    })
    .action(async (opts: MainOptions) => {
      process.exitCode = await runInteractive(opts);
    });

  addRunCommand(program, Option);
  addAcpCommand(program);
  addDoctorCommand(program);
  addTrustCommands(program);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./app/plugin-cli') as typeof import('./app/plugin-cli')).addPluginCommands(program);
  addShellCommands(program);
  for (const cmd of [...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
    cmd.exitOverride().configureOutput(program.configureOutput());
  }
  return program;
}

export async function main(argv: string[]): Promise<number> {
  // `milk history list | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  try {
    const quick = quickParse(argv.slice(2));
    if (quick) return await runInteractive(quick);
    await buildProgram().parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (err instanceof (require('commander') as typeof import('commander')).CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return 0;
      return EXIT_USAGE;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`milk: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

// `milk plugin …`'s flags and help (issue 59); what each does is app/plugin-commands.ts, loaded when one runs.

import type { Command } from 'commander';
import { type MainOptions, locate, requireDataDir } from './cli-support';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const commands = (): typeof import('./plugin-commands') => require('./plugin-commands');

type Flags = { yes?: boolean };

/** milk plugin add | list | remove | update | enable | disable. */
export function addPluginCommands(program: Command): void {
  const plugin = program
    .command('plugin')
    .description(
      "install plugins in Claude Code's layout (commands, agents, skills, hooks, MCP servers): docs/plugins.md",
    );
  const where = (cmd: Command) => {
    const { dataDir, workspace } = locate(cmd.optsWithGlobals() as MainOptions);
    return { dataDir: requireDataDir(dataDir), workspace };
  };
  plugin
    .command('add')
    .description('install a plugin from a folder, a git URL, or SOURCE#NAME (a plugin a marketplace lists)')
    .argument('<source>')
    .option('-y, --yes', 'trust what it turns on without asking')
    .action((source: string, o: Flags, cmd: Command) =>
      commands().pluginAdd(where(cmd).dataDir, source, o.yes === true),
    );
  plugin
    .command('update')
    .description('fetch a plugin again from where it came from (asked again when what it turns on changed)')
    .argument('<name>')
    .option('-y, --yes', 'trust what it turns on without asking')
    .action((name: string, o: Flags, cmd: Command) =>
      commands().pluginUpdate(where(cmd).dataDir, name, o.yes === true),
    );
  plugin
    .command('list')
    .description('the plugins installed, what each has, and whether it is on in this workspace')
    .action((_o: unknown, cmd: Command) => commands().pluginList(where(cmd).dataDir, where(cmd).workspace));
  plugin
    .command('remove')
    .description('uninstall a plugin')
    .argument('<name>')
    .action((name: string, _o: unknown, cmd: Command) => commands().pluginRemove(where(cmd).dataDir, name));
  for (const [verb, on] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    plugin
      .command(verb)
      .description(`turn a plugin ${on ? 'on' : 'off'} in this workspace`)
      .argument('<name>')
      .action((name: string, _o: unknown, cmd: Command) => {
        const { dataDir, workspace } = where(cmd);
        commands().pluginEnable(dataDir, workspace, name, on);
      });
}

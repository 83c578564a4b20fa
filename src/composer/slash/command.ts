// A slash command as data: its name, how its arguments are written, what it does, and its handler, which acts only
// through the context it is handed (composer/slash-context.ts). Pure.

import type { KeyNames } from '../../kernel/commands';
import type { SlashContext } from '../slash-context';

export interface SlashCommand {
  /** Without the slash. */
  readonly name: string;
  /** How its arguments are written, for help; empty when it takes none. */
  readonly args: string;
  readonly description: string;
  /** Runs it; returns a usage line when the arguments are wrong. */
  readonly run: (ctx: SlashContext, args: readonly string[]) => string | void;
}

/** A command whose handler is handed its own usage line, to return when the arguments are wrong. */
export function slash(spec: {
  readonly name: string;
  readonly args: string;
  readonly description: string;
  run(ctx: SlashContext, args: readonly string[], usage: string): string | void;
}): SlashCommand {
  const usage = `usage: /${spec.name}${spec.args ? ' ' + spec.args : ''}`;
  return {
    name: spec.name,
    args: spec.args,
    description: spec.description,
    run: (ctx, args) => spec.run(ctx, args, usage),
  };
}

/** What a command that needs an idle conversation says while a turn runs. */
export function turnRunning(keys: KeyNames): string {
  return `a turn is running: wait for it or interrupt it (${keys.key('busy', 'app.interrupt')}) first`;
}

// A slash command as data: its name, how its arguments are written, what it does, and its handler, which acts only
// through the context it is handed (composer/slash-context.ts). Pure.

import type { KeyNames } from '../views/registry';
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

/** A command as written in its group's file: its name is its key there. */
export interface SlashSpec {
  readonly args: string;
  readonly description: string;
  /** Runs it, handed its own usage line to return when the arguments are wrong. */
  run(ctx: SlashContext, args: readonly string[], usage: string): string | void;
}

/** A group's commands, each named by its key, so that the registry's names are the compiler's to count. */
export function commands<Name extends string>(specs: Record<Name, SlashSpec>): Record<Name, SlashCommand> {
  const named = Object.entries<SlashSpec>(specs).map(([name, spec]) => [name, slash(name, spec)] as const);
  return Object.fromEntries(named) as Record<Name, SlashCommand>;
}

/** One command, named. */
export function slash(name: string, spec: SlashSpec): SlashCommand {
  const usage = `usage: /${name}${spec.args ? ' ' + spec.args : ''}`;
  return { name, args: spec.args, description: spec.description, run: (ctx, args) => spec.run(ctx, args, usage) };
}

/** What a command that needs an idle conversation says while a turn runs. */
export function turnRunning(keys: KeyNames): string {
  return `a turn is running: wait for it or interrupt it (${keys.key('busy', 'app.interrupt')}) first`;
}

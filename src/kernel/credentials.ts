// Variables that hold a credential milk learns of only at run time (config webSearch's `apiKeyEnv`): kept from every
// command, hook and server milk starts, as tools/env.ts keeps its fixed list. Named once, when the agent is made.

const named = new Set<string>();

/** From now on `variable` never reaches what milk starts. */
export function withholdVariable(variable: string): void {
  named.add(variable);
}

/** The variables named so far. */
export function withheldVariables(): readonly string[] {
  return [...named];
}

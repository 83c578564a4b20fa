// Builds the chosen provider, by its kind (providers/kinds.ts). Reading a script file is the only I/O; a bad one is
// a clear error before anything starts.

import type { Provider } from './provider';
import type { ProviderChoice } from './kind';
import { providerKind } from './kinds';

export { ProviderSetupError } from './kind';

export function buildProvider(choice: ProviderChoice, env: NodeJS.ProcessEnv): Provider {
  return providerKind(choice.name).build(choice, env);
}

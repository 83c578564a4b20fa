// Every kind of provider milk can talk to, by name: the one list the flag's choices, config.json's `provider`, the
// environment's guess, the doctor, the price table and /provider's list are read from. A new provider is its file
// (exporting its kind) and a line here.

import { anthropicKind } from './anthropic';
import { type ProviderKind, ProviderSetupError } from './kind';
import { offlineKind } from './offline';
import { openaiKind, responsesKind } from './openai';
import { openrouterKind } from './openrouter';
import { scriptKind } from './script';

export const PROVIDERS = {
  offline: offlineKind,
  openai: openaiKind,
  'openai-responses': responsesKind,
  anthropic: anthropicKind,
  openrouter: openrouterKind,
  script: scriptKind,
} as const satisfies Record<string, ProviderKind>;

export type ProviderName = keyof typeof PROVIDERS;

export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

export function isProviderName(name: string | undefined): name is ProviderName {
  return name !== undefined && Object.hasOwn(PROVIDERS, name);
}

/** The kind of provider `name` is; `where` says who named it when milk knows none such (an error, never a guess). */
export function providerKind(name: string, where = 'provider'): ProviderKind {
  if (isProviderName(name)) return PROVIDERS[name];
  throw new ProviderSetupError(`${where}: "${name}" is not a provider milk knows (${PROVIDER_NAMES.join(', ')})`);
}

/** The kind chosen by the variables set, when nothing names one: the first in the list whose variables are set. */
export function detectedProvider(env: NodeJS.ProcessEnv): ProviderName | null {
  return PROVIDER_NAMES.find((n) => PROVIDERS[n].detectedBy?.some((v) => env[v])) ?? null;
}

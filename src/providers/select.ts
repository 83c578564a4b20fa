// Which provider a run uses: --provider, else the config file, else MILK_PROVIDER, else the variables a kind is
// found by (OPENAI_API_KEY, ANTHROPIC_API_KEY…), else the offline demo agent. A name milk does not know is an error
// naming the ones it does, never the offline demo. Pure: settings in, choice out.

import { Config, MAX_TIMER_MS, setting } from '../config/config';
import type { ProviderChoice, ProviderOrigin } from './kind';
import { PROVIDERS, PROVIDER_NAMES, type ProviderName, detectedProvider, isProviderName, providerKind } from './kinds';

export type { ProviderChoice, ProviderOrigin } from './kind';
export { PROVIDER_NAMES, type ProviderName };

export interface ProviderFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  script?: string;
}

export function chooseProvider(flags: ProviderFlags, config: Config, env: NodeJS.ProcessEnv): ProviderChoice {
  const [name, from] = whose(flags, config, env);
  const kind = PROVIDERS[name];
  const idleEnv = Number(env.MILK_IDLE_TIMEOUT_MS);
  // A timer longer than Node's limit fires at once: every turn would time out.
  const idleTimeoutMs =
    Number.isFinite(idleEnv) && idleEnv > 0 ? Math.min(idleEnv, MAX_TIMER_MS) : setting(config, 'idleTimeoutMs');
  const pick = (...values: Array<string | undefined>): string | undefined =>
    values.find((v) => v !== undefined && v !== '');
  const e = kind.http;
  if (e)
    return {
      name,
      from,
      model: pick(flags.model, config.model, env[e.modelVar]) ?? e.model,
      baseUrl: pick(flags.baseUrl, config.baseUrl, env[e.baseUrlVar]) ?? e.baseUrl,
      // The environment's key first; the config's (/provider keeps one there) only for the config's own provider.
      apiKey: pick(env[e.keyVar], config.provider === name ? config.apiKey : undefined),
      idleTimeoutMs,
      config,
      ...kind.options?.(config),
    };
  if (name === 'script')
    return {
      name,
      from,
      model: 'script',
      baseUrl: '',
      script: pick(flags.script, config.script),
      idleTimeoutMs,
      config,
    };
  return { name, from, model: name, baseUrl: '', idleTimeoutMs, config };
}

/** The provider named by the flags, else the config, else the environment, else none (the offline demo). */
function whose(flags: ProviderFlags, config: Config, env: NodeJS.ProcessEnv): [ProviderName, ProviderOrigin] {
  const named = (name: string, where: string): ProviderName => {
    providerKind(name, where);
    return name as ProviderName;
  };
  if (flags.provider) return [named(flags.provider, '--provider'), 'flag'];
  if (flags.script) return ['script', 'flag'];
  if (config.provider) return [named(config.provider, 'config.json: provider'), 'config'];
  if (env.MILK_PROVIDER) return [named(env.MILK_PROVIDER, 'MILK_PROVIDER'), 'env'];
  const found = detectedProvider(env);
  return found ? [found, 'env'] : ['offline', 'default'];
}

/** A provider that talks to a server over HTTP (its key, base URL and model from flags, config or environment). */
export function isHttpProvider(name: string): boolean {
  return isProviderName(name) && PROVIDERS[name].http !== undefined;
}

/** The variable that holds a provider's key; null for one without (or a name milk does not know). */
export function keyVariable(name: string): string | null {
  return isProviderName(name) ? (PROVIDERS[name].http?.keyVar ?? null) : null;
}

// Which provider a run uses: --provider, else the config file, else the
// environment, else the offline demo agent. Pure: settings in, choice out.

import { Config, MAX_TIMER_MS, PROVIDER_NAMES } from '../config/config';
import { ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_DEFAULT_MODEL } from './anthropic';
import { OPENAI_DEFAULT_BASE_URL, OPENAI_DEFAULT_MODEL } from './openai';

/** Where the provider milk started with came from. */
export type ProviderOrigin = 'flag' | 'config' | 'env' | 'default';

export { PROVIDER_NAMES };
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export interface ProviderFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  script?: string;
}

export interface ProviderChoice {
  name: ProviderName;
  /** Where the choice came from: a flag, the config file, a key or variable in the environment, or no one. */
  from: ProviderOrigin;
  model: string;
  baseUrl: string;
  apiKey?: string;
  script?: string;
  idleTimeoutMs: number;
  /** Anthropic: tokens of extended thinking to ask for (config `thinkingBudget`). */
  thinkingBudget?: number;
  /** OpenAI: the models config.json says are served by the Responses API (`"api": "responses"`). */
  responsesModels?: string[];
}

function isName(v: string | undefined): v is ProviderName {
  return !!v && (PROVIDER_NAMES as readonly string[]).includes(v);
}

/** Where each HTTP provider takes its settings from, and its defaults. */
const HTTP_PROVIDERS = {
  openai: {
    modelVar: 'OPENAI_MODEL',
    baseUrlVar: 'OPENAI_BASE_URL',
    keyVar: 'OPENAI_API_KEY',
    model: OPENAI_DEFAULT_MODEL,
    baseUrl: OPENAI_DEFAULT_BASE_URL,
  },
  // The Responses API: OpenAI's server, key and models, another endpoint.
  'openai-responses': {
    modelVar: 'OPENAI_MODEL',
    baseUrlVar: 'OPENAI_BASE_URL',
    keyVar: 'OPENAI_API_KEY',
    model: OPENAI_DEFAULT_MODEL,
    baseUrl: OPENAI_DEFAULT_BASE_URL,
  },
  anthropic: {
    modelVar: 'ANTHROPIC_MODEL',
    baseUrlVar: 'ANTHROPIC_BASE_URL',
    keyVar: 'ANTHROPIC_API_KEY',
    model: ANTHROPIC_DEFAULT_MODEL,
    baseUrl: ANTHROPIC_DEFAULT_BASE_URL,
  },
} as const;

export function chooseProvider(flags: ProviderFlags, config: Config, env: NodeJS.ProcessEnv): ProviderChoice {
  const [name, from] = whose(flags, config, env);

  const idleEnv = Number(env.MILK_IDLE_TIMEOUT_MS);
  // A timer longer than Node's limit fires at once: every turn would time out.
  const idleTimeoutMs =
    Number.isFinite(idleEnv) && idleEnv > 0
      ? Math.min(idleEnv, MAX_TIMER_MS)
      : (config.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
  const pick = (...values: Array<string | undefined>): string | undefined =>
    values.find((v) => v !== undefined && v !== '');

  if (isHttpProvider(name)) {
    const e = HTTP_PROVIDERS[name];
    return {
      name,
      from,
      model: pick(flags.model, config.model, env[e.modelVar]) ?? e.model,
      baseUrl: pick(flags.baseUrl, config.baseUrl, env[e.baseUrlVar]) ?? e.baseUrl,
      // The environment's key first; the config's (/provider keeps one there) only for the config's own provider.
      apiKey: pick(env[e.keyVar], config.provider === name ? config.apiKey : undefined),
      idleTimeoutMs,
      ...(name === 'anthropic' && config.thinkingBudget ? { thinkingBudget: config.thinkingBudget } : {}),
      ...(name === 'openai' ? responsesModels(config) : {}),
    };
  }
  if (name === 'script')
    return { name, from, model: 'script', baseUrl: '', script: pick(flags.script, config.script), idleTimeoutMs };
  return { name: 'offline', from, model: 'offline', baseUrl: '', idleTimeoutMs };
}

/** The models config.json has the Responses API serve, where it names any. */
function responsesModels(config: Config): { responsesModels?: string[] } {
  const names = Object.entries(config.models ?? {})
    .filter(([, m]) => m.api === 'responses')
    .map(([name]) => name);
  return names.length ? { responsesModels: names } : {};
}

/** The provider named by the flags, else the config, else the environment, else none (the offline demo). */
function whose(flags: ProviderFlags, config: Config, env: NodeJS.ProcessEnv): [ProviderName, ProviderOrigin] {
  if (isName(flags.provider)) return [flags.provider, 'flag'];
  if (flags.script) return ['script', 'flag'];
  if (isName(config.provider)) return [config.provider, 'config'];
  if (isName(env.MILK_PROVIDER)) return [env.MILK_PROVIDER, 'env'];
  if (env.OPENAI_BASE_URL || env.OPENAI_API_KEY) return ['openai', 'env'];
  if (env.ANTHROPIC_API_KEY || env.ANTHROPIC_BASE_URL) return ['anthropic', 'env'];
  return ['offline', 'default'];
}

type HttpProviderName = keyof typeof HTTP_PROVIDERS;

/** A provider that talks to a server over HTTP (its key, base URL and model from flags, config or environment). */
export function isHttpProvider(name: string): name is HttpProviderName {
  return Object.hasOwn(HTTP_PROVIDERS, name);
}

/** The variable that holds a provider's key. */
export function keyVariable(name: ProviderName): string | null {
  return isHttpProvider(name) ? HTTP_PROVIDERS[name].keyVar : null;
}

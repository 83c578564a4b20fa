// What milk knows of one kind of provider: where its settings come from, how it is built, priced, checked and
// offered in /provider. Each provider's own file exports its kind; providers/kinds.ts lists them, and everything
// that names a provider (the flag's choices, the config, the environment's guess, the doctor, the price table,
// /provider's list) reads that list. Types only, and the one error a setup raises.

import type { Config } from '../config/config';
import type { Provider } from './provider';

/** A provider that cannot be set up as asked: said before anything starts. */
export class ProviderSetupError extends Error {}

/** A provider as chosen: its name, where the choice came from, and its settings. */
export interface ProviderChoice {
  name: string;
  /** Where the choice came from: a flag, the config file, a key or variable in the environment, or no one. */
  from: ProviderOrigin;
  model: string;
  baseUrl: string;
  apiKey?: string;
  script?: string;
  idleTimeoutMs: number;
  /** config.json's settings as in force for this run (flags over the file): what a request reads of them. */
  config?: Config;
  /** Anthropic: tokens of extended thinking to ask for (config `thinkingBudget`). */
  thinkingBudget?: number;
  /** OpenAI: the models config.json says are served by the Responses API (`"api": "responses"`). */
  responsesModels?: string[];
}

/** Where the provider milk started with came from. */
export type ProviderOrigin = 'flag' | 'config' | 'env' | 'default';

/** An HTTP provider's settings: the variables they are read from (after the flags and config.json), its defaults. */
export interface HttpSettings {
  readonly modelVar: string;
  readonly baseUrlVar: string;
  readonly keyVar: string;
  readonly model: string;
  readonly baseUrl: string;
  /** Where its models are listed, from the base URL, and the headers that carry the key (for the doctor's check). */
  readonly modelsPath: string;
  headers(key: string | undefined): Record<string, string>;
}

export interface ProviderKind {
  /** An HTTP provider's settings; none for one without a server (the offline demo, a script). */
  readonly http?: HttpSettings;
  /** How it is named where it has no server and model to name ("the offline demo"). */
  readonly title?: string;
  /** The doctor's line for it, where there is no server to check. */
  readonly unchecked?: string;
  /** Variables whose being set chooses it when nothing names a provider (the first kind in the list's order wins). */
  readonly detectedBy?: readonly string[];
  /** Its provider in the price table (@pydantic/genai-prices); none: the table never prices it. */
  readonly prices?: string;
  /** How /provider offers it; none: /provider does not. */
  readonly setup?: string;
  /** What else its choice takes from config.json. */
  options?(config: Config): Partial<ProviderChoice>;
  build(choice: ProviderChoice, env: NodeJS.ProcessEnv): Provider;
}

/** The usual bearer token of OpenAI-compatible servers (a local server needs none). */
export function bearer(key: string | undefined): Record<string, string> {
  return key ? { authorization: `Bearer ${key}` } : {};
}

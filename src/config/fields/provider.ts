// The keys that set up the model's server and each request to it. Each entry: config/fields/field.ts.

import type * as V from 'valibot';
import { MAX_TIMER_MS, isHttpUrl, models, whole } from '../shapes';
import { type FieldSpec, nonEmpty } from './field';

export const PROVIDER_FIELDS = {
  provider: {
    // Which names are providers is the providers' own list (providers/kinds.ts): an unknown one stops milk there.
    schema: (v: typeof V) => nonEmpty(v, 'provider'),
    what: 'the provider, by name: one of the choices `milk --help` lists for `--provider`',
    shown: 'see [models](models.md)',
    applies: 'provider',
  },
  model: {
    schema: (v: typeof V) => nonEmpty(v, 'model'),
    what: 'as the flag `--model`',
    shown: "the provider's",
    applies: 'provider',
  },
  baseUrl: {
    schema: (v: typeof V) =>
      v.pipe(
        v.string('baseUrl must be an http:// or https:// URL'),
        v.check(isHttpUrl, 'baseUrl must be an http:// or https:// URL'),
      ),
    what: 'as the flag `--base-url`: an http(s) URL',
    shown: "the provider's",
    applies: 'provider',
  },
  script: {
    schema: (v: typeof V) => nonEmpty(v, 'script'),
    what: 'as the flag `--script`',
    shown: 'none',
    applies: 'provider',
  },
  apiKey: {
    schema: (v: typeof V) => nonEmpty(v, 'apiKey'),
    what:
      "the key for the config's own `provider`, used when the environment holds none (`/provider` writes it; the " +
      'file is 0600)',
    shown: 'none',
    applies: 'provider',
  },
  idleTimeoutMs: {
    schema: (v: typeof V) => whole(v, 'idleTimeoutMs', 100, MAX_TIMER_MS, 'milliseconds'),
    what: `give up on a server silent this long (100 – ${MAX_TIMER_MS})`,
    default: 60_000,
    applies: 'provider',
  },
  requestTimeoutMs: {
    schema: (v: typeof V) => whole(v, 'requestTimeoutMs', 1000, MAX_TIMER_MS, 'milliseconds'),
    what:
      'give up on one model request not ended this long after it was sent, however steadily the server sends ' +
      `(1000 – ${MAX_TIMER_MS})`,
    default: 1_800_000,
    applies: 'provider',
    flag: {
      flags: '--request-timeout <ms>',
      option: 'requestTimeout',
      description: 'give up on a model request not ended this many milliseconds after it was sent',
      number: true,
    },
  },
  models: {
    schema: models,
    what:
      'per model name: its `contextWindow`; its `price` in US dollars per million tokens (`input`, `output`, and ' +
      "`cacheRead`, `cacheWrite` when they differ), over the price table's; the `effort` to ask (`minimal` – " +
      '`high`); `"api": "responses"` to reach it through the Responses API: `{"gpt-5": {"contextWindow": 400000, ' +
      '"price": {"input": 1.25, "output": 10}, "effort": "high", "api": "responses"}}`',
    shown: 'none',
    applies: 'provider',
  },
  thinkingBudget: {
    schema: (v: typeof V) => whole(v, 'thinkingBudget', 1024, 1_000_000, 'tokens'),
    what: 'Anthropic: tokens of extended thinking to ask for (1024 – 1000000); none asked when absent',
    shown: 'none',
    applies: 'provider',
  },
} as const satisfies Record<string, FieldSpec>;

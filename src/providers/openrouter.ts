// OpenRouter: one key for many vendors' models, over OpenAI's Chat Completions protocol. Models are named
// `vendor/model`; its models list needs no key, and the price table prices them at OpenRouter's own rates.

import { type ProviderKind, bearer } from './kind';
import { OpenAIProvider } from './openai';

export const openrouterKind: ProviderKind = {
  http: {
    modelVar: 'OPENROUTER_MODEL',
    baseUrlVar: 'OPENROUTER_BASE_URL',
    keyVar: 'OPENROUTER_API_KEY',
    model: 'openai/gpt-4o-mini',
    baseUrl: 'https://openrouter.ai/api/v1',
    modelsPath: '/models',
    headers: bearer,
  },
  detectedBy: ['OPENROUTER_API_KEY'],
  prices: 'openrouter',
  setup: "OpenRouter (many vendors' models with one key)",
  build: ({ baseUrl, apiKey, model, idleTimeoutMs, config }) =>
    new OpenAIProvider({
      baseUrl,
      apiKey,
      model,
      idleTimeoutMs,
      config,
      name: 'openrouter',
      keyVariable: 'OPENROUTER_API_KEY',
    }),
};
